/* SPDX-License-Identifier: MIT */
/*
 * diskio --verify-durability HOST:PORT [--run-id ID] FILE: after the power
 * cut and the reboot, ask the listener which writes the storage
 * acknowledged, read the file, and say for each whether it is there.
 *
 * Per block of the file only the last acknowledged write is checked
 * (earlier ones were overwritten by the run itself); it is present,
 * present under a later write that was never acknowledged (allowed),
 * lost or torn (durable_classify()).  A verdict of "durable" says that
 * at least one acknowledged write was checked and every checked write
 * survived this one cut; "LOST N" counts the lost and the torn.
 *
 * The listener is not trusted with this process's memory or time: the
 * check keeps a slot for each block FILE itself has (never for the size
 * the listener claims: an acknowledgement beyond FILE's end is a lost
 * write), reads at most DURABLE_WRITES_PER_BLOCK_MAX acknowledgements per
 * such block, and reads the whole answer for ANSWER_SECONDS at most.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_durable.h"
#include "cli_durable_net.h"
#include "cli_msg.h"
#include "cli_progress.h"
#include "durable.h"

/* How long the check reads the listener's answer, all of it: as long as
 * the listener sends it (diskio-durable(1), BOUNDS: 30 minutes, 100
 * million acknowledgements at 2 MB/s).  A real answer arrives at ten
 * million lines a second over loopback, at 400 000 over 100 Mbit/s
 * (about 30 bytes a line); a listener still sending after this is not
 * answering for a run. */
#define ANSWER_SECONDS (30 * 60)

struct expect {
    uint64_t seq; /* the last acknowledged write of the block, 0: none */
    uint32_t crc;
};

/* What the listener holds of the run, and what of it the check keeps. */
struct listened {
    uint64_t record_bytes, file_bytes;
    uint64_t nblocks;   /* blocks of FILE the check reads: slots in blocks */
    uint64_t max_acks;  /* the most acknowledgements the check reads */
    uint64_t file_size; /* FILE's own bytes */
    char name[DURABLE_NAME_MAX + 1];
    uint64_t acks;
    uint64_t overwritten; /* acknowledged, then written again and acknowledged */
    uint64_t beyond;      /* acknowledged for a block beyond FILE's end: lost */
    bool ended;
    char boot[DURABLE_BOOT_ID_LEN + 1]; /* the run's boot id, "" when it sent none */
    struct expect *blocks;
};

struct counts {
    uint64_t present, later, later_torn, lost, torn;
    uint64_t unacknowledged; /* whole records of the run never acknowledged */
    uint64_t other_runs;     /* blocks holding a whole record of another run */
    uint64_t found;          /* blocks holding anything of the run */
};

/* ---- the file ---- */

/* The run id of the first whole record in the file, found at any
 * multiple of 512 bytes: true with it in run_id. */
static bool first_run_id(int fd, char *run_id)
{
    const size_t chunk = (size_t)1 << 20;
    unsigned char *buf = malloc(chunk);
    unsigned char *rec = NULL;
    bool found = false;
    uint64_t at = 0;
    while (buf && !found) {
        ssize_t got = pread(fd, buf, chunk, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < DURABLE_HEADER_BYTES)
            break;
        for (uint64_t s = 0; s + DURABLE_HEADER_BYTES <= (uint64_t)got && !found;
             s += DURABLE_SECTOR) {
            if (memcmp(buf + s, DURABLE_MAGIC, 8) != 0)
                continue;
            /* the record's length is in its header: read it whole */
            const uint32_t len = (uint32_t)buf[s + 12] | (uint32_t)buf[s + 13] << 8 |
                                 (uint32_t)buf[s + 14] << 16 | (uint32_t)buf[s + 15] << 24;
            if (len < DURABLE_SECTOR || len > DISKIO_BS_MAX || len % DURABLE_SECTOR)
                continue;
            if (!rec && !(rec = malloc(DISKIO_BS_MAX)))
                break;
            struct durable_record r;
            if (pread(fd, rec, len, (off_t)(at + s)) == (ssize_t)len &&
                durable_record_read(rec, len, len, at + s, &r)) {
                memcpy(run_id, r.run_id, strlen(r.run_id) + 1);
                found = true;
            }
        }
        if ((size_t)got < chunk)
            break;
        at += chunk;
    }
    free(rec);
    free(buf);
    return found;
}

/* ---- the listener ---- */

/* FILE's own size: a regular file's length, a block device's size. */
static int file_size_of(int fd, const struct stat *st, uint64_t *bytes)
{
    if (S_ISBLK(st->st_mode))
        return ioctl(fd, BLKGETSIZE64, bytes) == 0 ? 0 : -errno;
    *bytes = (uint64_t)st->st_size;
    return 0;
}

/* The answer's first line, "RUN ID RECORD_BYTES FILE_BYTES NAME", and a
 * slot (16 bytes) for each block of the run's file that FILE has: 0, or
 * -EPROTO, -EFBIG (more than DURABLE_BLOCKS_MAX), -ENOMEM. */
static int take_header(const char *run_id, char *reply, struct listened *L)
{
    char *w[7];
    const int n = durable_split(reply, w, 7);
    if (n != 5 || strcmp(w[0], "RUN") != 0 || strcmp(w[1], run_id) != 0 ||
        !durable_parse_u64(w[2], &L->record_bytes) || !durable_parse_u64(w[3], &L->file_bytes) ||
        L->record_bytes < DURABLE_SECTOR || L->record_bytes % DURABLE_SECTOR != 0 ||
        L->record_bytes > DISKIO_BS_MAX || L->file_bytes < L->record_bytes ||
        (strcmp(w[4], "-") != 0 && !durable_name_valid(w[4])))
        return -EPROTO;
    snprintf(L->name, sizeof(L->name), "%s", w[4]);
    /* FILE's blocks (a last partial one too), none past the run's file:
     * what the listener claims beyond them is not allocated for */
    const uint64_t claimed = L->file_bytes / L->record_bytes;
    const uint64_t own = L->file_size / L->record_bytes + (L->file_size % L->record_bytes != 0);
    L->nblocks = own < claimed ? own : claimed;
    L->max_acks = (L->nblocks ? L->nblocks : 1) * DURABLE_WRITES_PER_BLOCK_MAX;
    if (L->nblocks > DURABLE_BLOCKS_MAX)
        return -EFBIG;
    L->blocks = calloc(L->nblocks ? L->nblocks : 1, sizeof(*L->blocks));
    return L->blocks ? 0 : -ENOMEM;
}

/* The acknowledgements, up to "DONE COUNT ENDED": 0, or -EPROTO, -E2BIG
 * (more than L->max_acks), -ETIME (past deadline_ns), -errno. */
static int take_acks(int fd, struct durable_in *in, uint64_t deadline_ns, struct listened *L)
{
    const uint64_t claimed = L->file_bytes / L->record_bytes;
    uint64_t last_seq = 0;
    for (;;) {
        char *reply, *w[4];
        const int rc = cli_durable_line(fd, in, &reply, deadline_ns);
        if (rc < 0)
            return rc;
        const int n = durable_split(reply, w, 4);
        uint64_t seq, offset, done_acks;
        uint32_t crc;
        if (n == 2 && strcmp(w[0], "BOOT") == 0 && durable_boot_id_valid(w[1]) && !L->boot[0] &&
            L->acks == 0) {
            memcpy(L->boot, w[1], DURABLE_BOOT_ID_LEN + 1);
        } else if (n == 4 && strcmp(w[0], "A") == 0 && durable_parse_u64(w[1], &seq) &&
                   durable_parse_u64(w[2], &offset) && durable_parse_crc(w[3], &crc) &&
                   seq > last_seq && offset % L->record_bytes == 0 &&
                   offset / L->record_bytes < claimed) {
            if (L->acks == L->max_acks)
                return -E2BIG;
            last_seq = seq;
            L->acks++;
            const uint64_t b = offset / L->record_bytes;
            if (b >= L->nblocks) {
                L->beyond++; /* nothing of FILE is there */
                continue;
            }
            if (L->blocks[b].seq)
                L->overwritten++;
            L->blocks[b] = (struct expect){seq, crc};
        } else if (n == 3 && strcmp(w[0], "DONE") == 0 && durable_parse_u64(w[1], &done_acks) &&
                   done_acks == L->acks && (strcmp(w[2], "0") == 0 || strcmp(w[2], "1") == 0)) {
            L->ended = w[2][0] == '1';
            return 0;
        } else {
            return -EPROTO;
        }
    }
}

/* Why the answer could not be taken (rc of take_header() or
 * take_acks()), said; returns EXIT_RUN_FAILED. */
static int answer_failed(const struct cli_options *o, const char *run_id, const struct listened *L,
                         int rc)
{
    const char *l = o->verify_durability;
    if (rc == -E2BIG)
        cli_msg("--verify-durability %s: the listener's answer for run %s holds more than %" PRIu64
                " acknowledgements, %d for each %" PRIu64 "-byte block of %s (it has %" PRIu64
                "): more than a run makes, as a run stops at %d writes a block; check the run id "
                "and the file, and that %s is a diskio-durable listener",
                l, run_id, L->max_acks, DURABLE_WRITES_PER_BLOCK_MAX, L->record_bytes, o->target,
                L->nblocks, DURABLE_WRITES_PER_BLOCK_MAX, l);
    else if (rc == -ETIME)
        cli_msg("--verify-durability %s: the listener's answer for run %s took more than %d "
                "minutes, the most the check reads it for (%" PRIu64
                " acknowledgements came by then); check that %s is a diskio-durable listener and "
                "the network to it",
                l, run_id, ANSWER_SECONDS / 60, L->acks, l);
    else if (rc == -EFBIG)
        cli_msg("--verify-durability: %s has %" PRIu64 " blocks of run %s's %" PRIu64
                " bytes; the check handles %" PRIu64 " at most",
                o->target, L->nblocks, run_id, L->record_bytes, DURABLE_BLOCKS_MAX);
    else if (rc == -ENOMEM)
        cli_msg("out of memory for %" PRIu64 " blocks", L->nblocks);
    else
        cli_msg("--verify-durability %s: the listener's answer %s: %s", l,
                rc == -EPROTO ? "is not the protocol's" : "broke off",
                rc == -EPROTO ? "check the port" : strerror(-rc));
    return EXIT_RUN_FAILED;
}

/* The listener's answer to the query of run_id, for FILE of file_size
 * bytes, into L: EXIT_OK, or an exit status after a message. */
static int ask_listener(const struct cli_options *o, const char *run_id, struct listened *L)
{
    int fd;
    int status = cli_durable_dial(o->verify_durability, "--verify-durability", &fd);
    if (status != EXIT_OK)
        return status;
    char line[DURABLE_LINE_MAX + 1];
    int len = snprintf(line, sizeof(line), "%s %d QUERY %s\n", DURABLE_PROTOCOL,
                       DURABLE_PROTOCOL_VERSION, run_id);
    const uint64_t deadline_ns = cli_durable_now_ns() + (uint64_t)ANSWER_SECONDS * 1000000000u;
    struct durable_in in = {.used = 0};
    char *reply = NULL;
    int rc = cli_durable_send(fd, line, (size_t)len);
    if (rc == 0)
        rc = cli_durable_line(fd, &in, &reply, deadline_ns);
    if (rc == 0 && strncmp(reply, "NO ", 3) == 0) {
        close(fd);
        status = cli_durable_refused(o->verify_durability, "the query", reply);
        if (status == EXIT_DURABILITY_MISMATCH)
            cli_msg("run %s is not a run the listener recorded: check the run id (the run "
                    "printed it, with the file, when it began)",
                    run_id);
        return status;
    }
    if (rc == 0)
        rc = take_header(run_id, reply, L);
    if (rc == 0)
        rc = take_acks(fd, &in, deadline_ns, L);
    close(fd);
    return rc == 0 ? EXIT_OK : answer_failed(o, run_id, L, rc);
}

/* ---- the check ---- */

static int check_file(int fd, const struct durable_run *run, const struct listened *L,
                      struct counts *c)
{
    const uint64_t len = L->record_bytes;
    unsigned char *buf = len ? malloc(len) : NULL;
    if (!buf)
        return -ENOMEM;
    for (uint64_t b = 0; b < L->nblocks; b++) {
        const uint64_t offset = b * len;
        uint64_t got = 0;
        while (got < len) {
            ssize_t r = pread(fd, buf + got, len - got, (off_t)(offset + got));
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0) {
                int err = errno;
                free(buf);
                return -err;
            }
            if (r == 0)
                break; /* the file ends here: what is missing is not there */
            got += (uint64_t)r;
        }
        const struct expect *e = &L->blocks[b];
        struct durable_record r;
        const bool whole = durable_record_read(buf, got, len, offset, &r);
        const bool mine = whole && strcmp(r.run_id, run->id) == 0;
        if (whole && !mine)
            c->other_runs++;
        if (mine && r.seq > e->seq)
            c->unacknowledged++;
        if (e->seq == 0) {
            if (mine)
                c->found++;
            continue;
        }
        switch (durable_classify(buf, got, len, offset, run, e->seq, e->crc)) {
        case DURABLE_PRESENT: c->present++; break;
        case DURABLE_LATER: c->later++; break;
        case DURABLE_LATER_TORN: c->later_torn++; break;
        case DURABLE_TORN: c->torn++; break;
        case DURABLE_LOST: c->lost++; continue;
        }
        c->found++;
    }
    free(buf);
    return 0;
}

/* The file and the run do not match, said: EXIT_DURABILITY_MISMATCH, or
 * EXIT_OK when they do.  A run with no acknowledged write gives nothing
 * to check: never a verdict of durable. */
static int mismatch(const char *path, const char *run_id, const struct listened *L,
                    const struct counts *c)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const bool named = strcmp(L->name, "-") != 0;
    if (L->acks == 0) {
        cli_msg("the listener holds no acknowledged write of run %s: the run began, but no "
                "write's sync returned before it stopped (it failed, was refused or stopped, or "
                "the power was cut before its first sync), so nothing of %s can be checked: it "
                "is neither durable nor lost",
                run_id, path);
        if (c->other_runs)
            cli_msg("%s holds records of another run (%" PRIu64
                    " blocks): without --run-id the check takes the run of its first record",
                    path, c->other_runs);
        cli_msg("check the run id (the run printed it, with the file, when it began); if it is "
                "right, make a new run and cut the power while it writes");
        return EXIT_DURABILITY_MISMATCH;
    }
    if (c->found == 0 && c->unacknowledged == 0) {
        if (c->other_runs > 0) {
            cli_msg("%s holds records of another run (%" PRIu64
                    " blocks) and nothing of run %s: it is not the file run %s wrote%s%s",
                    path, c->other_runs, run_id, run_id, named ? ", which was named " : "",
                    named ? L->name : "");
            return EXIT_DURABILITY_MISMATCH;
        }
        if (named && strcmp(base, L->name) != 0) {
            cli_msg("%s holds nothing of run %s, which wrote a file named %s: give that file", path,
                    run_id, L->name);
            return EXIT_DURABILITY_MISMATCH;
        }
    }
    return EXIT_OK;
}

/* The report on standard output, up to the verdict. */
static void report(const struct cli_options *o, const char *run_id, const struct listened *L,
                   const struct counts *c)
{
    const char *path = o->target;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    cli_report("diskio: durability check of %s against run %s (listener %s)", path, run_id,
               o->verify_durability);
    char size[32];
    cli_report("acknowledged writes: %" PRIu64 " (of %s each; %s)", L->acks,
               progress_size(size, sizeof(size), L->record_bytes),
               L->ended ? "the run ended and said so"
                        : "the run did not end: the power was cut during it, or it failed or "
                          "stopped");
    cli_report("acknowledged and present: %" PRIu64, c->present);
    cli_report("acknowledged and present under a later write: %" PRIu64
               " (allowed: a write after it, never acknowledged, covers it%s)",
               c->later + c->later_torn, c->later_torn ? ", torn" : "");
    cli_report("acknowledged and lost: %" PRIu64, c->lost + L->beyond);
    if (L->beyond)
        cli_report("of them beyond the end of the file: %" PRIu64 " (the file is %" PRIu64
                   " bytes, the run's was %" PRIu64 ")",
                   L->beyond, L->file_size, L->file_bytes);
    cli_report("acknowledged and torn: %" PRIu64, c->torn);
    cli_report("acknowledged, then overwritten by a later acknowledged write: %" PRIu64
               " (its block is checked for the later one)",
               L->overwritten);
    cli_report("written but never acknowledged: %" PRIu64
               " (allowed: the cut came before the acknowledgement)",
               c->unacknowledged);
    if (c->other_runs)
        cli_report("note: %" PRIu64 " blocks hold records of another run (not checked)",
                   c->other_runs);
    if (c->found == 0)
        cli_report("note: the file holds nothing of run %s: if it is the file the run wrote, every "
                   "acknowledged write was lost",
                   run_id);
    if (strcmp(L->name, "-") != 0 && strcmp(base, L->name) != 0)
        cli_report("note: run %s wrote a file named %s", run_id, L->name);
}

/* The verdict, after the report: durable only when at least one
 * acknowledged write was checked and none was lost or torn. */
static int verdict(const struct listened *L, const struct counts *c, const char *qualifier,
                   bool no_cut)
{
    const uint64_t lost = c->lost + L->beyond + c->torn;
    const uint64_t checked = c->present + c->later + c->later_torn + lost;
    if (checked == 0) {
        cli_msg("no acknowledged write was checked: nothing is proven");
        return EXIT_DURABILITY_MISMATCH;
    }
    if (lost == 0) {
        cli_report("verdict: durable%s%s", qualifier,
                   no_cut ? " (but no power cut since the run: nothing about the cache is shown)"
                          : "");
        cli_report("note: one power cut is one sample; cut it again to trust it more");
        return EXIT_OK;
    }
    cli_report("verdict: LOST %" PRIu64 " acknowledged write%s (%" PRIu64 " lost, %" PRIu64
               " torn)%s",
               lost, lost == 1 ? "" : "s", c->lost + L->beyond, c->torn, qualifier);
    return EXIT_DURABILITY_LOST;
}

/* Whether this machine lost its power since the run: its boot id then
 * differs from the run's.  The same id means no reboot: unless the
 * storage lost its power on its own (a remote or external one can),
 * no cut was tested, and a verdict of durable shows nothing about the
 * caches; true then (a lost write is lost whatever cut it). */
static bool same_boot(const struct listened *L)
{
    char boot[DURABLE_BOOT_ID_LEN + 1];
    if (!L->boot[0]) {
        cli_report("note: the run did not say which boot it ran in (an older diskio, or a "
                   "kernel without /proc/sys/kernel/random/boot_id): whether the power was cut "
                   "since cannot be told");
        return false;
    }
    if (durable_boot_id(boot) != 0) {
        cli_report("note: this kernel does not say which boot this is: whether the power was cut "
                   "since the run cannot be told");
        return false;
    }
    if (strcmp(boot, L->boot) != 0) {
        cli_report("note: this machine has rebooted since the run (its boot id changed): a power "
                   "cut is tested only if that reboot was one, not a clean shutdown, which "
                   "writes every cache out first");
        return false;
    }
    cli_report("note: no power cut happened to this machine: it has not rebooted since the run "
               "(the same boot id); unless the storage lost its power on its own, nothing its "
               "caches held was lost; cut the power during a run, then check after the reboot");
    return true;
}

/* What the storage under the file is, as far as it bounds the verdict:
 * tmpfs never survives a reboot; a loop device's data is its backing
 * file's.  Returns the verdict's own qualifier ("" or a parenthesis). */
static const char *storage_notes(const char *path, char *qualifier, size_t size)
{
    qualifier[0] = '\0';
    char *copy = strdup(path);
    struct diskio_result *res = NULL;
    if (!copy || diskio_result_new(NULL, &res) != 0) {
        free(copy);
        return qualifier;
    }
    char *slash = strrchr(copy, '/');
    const char *dir = slash ? (slash == copy ? "/" : (*slash = '\0', copy)) : ".";
    if (diskio_result_probe(res, dir) == 0) {
        const char *fs = diskio_result_env(res, "target.filesystem");
        const char *loop = diskio_result_env(res, "target.loop.backing_file");
        const char *dev = diskio_result_env(res, "target.device.name");
        if (fs && (strcmp(fs, "tmpfs") == 0 || strcmp(fs, "ramfs") == 0)) {
            cli_report("note: the file is on %s, which lives in memory: it never survives a "
                       "real reboot or power cut, so this check proves nothing about storage",
                       fs);
            snprintf(qualifier, size,
                     " (but on %s: memory, which never survives a real reboot; nothing is "
                     "proven)",
                     fs);
        } else if (loop) {
            const char *bfs = diskio_result_env(res, "target.loop.backing_filesystem");
            cli_report("note: the file is on the loop device %s, whose blocks are the file %s "
                       "(on %s): a sync reaches that file's storage only as far as the host "
                       "syncs it, and a cut of this machine is a cut of that storage too",
                       dev ? dev : "?", loop, bfs ? bfs : "an unknown filesystem");
        } else if (fs) {
            cli_report("note: the file is on %s%s%s", fs, dev ? ", device " : "", dev ? dev : "");
        }
    }
    diskio_result_free(res);
    free(copy);
    return qualifier;
}

/* FILE opened for the check, and its size: EXIT_OK, or an exit status
 * after a message. */
static int open_file(const char *path, int *fd, uint64_t *size)
{
    struct stat st = {.st_mode = 0};
    *fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    int rc = *fd < 0 || fstat(*fd, &st) != 0 ? -errno : 0;
    if (rc == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
        cli_msg("--verify-durability: %s is not a regular file or a block device", path);
        close(*fd);
        return EXIT_TARGET;
    }
    if (rc == 0)
        rc = file_size_of(*fd, &st, size);
    if (rc < 0) {
        cli_msg("--verify-durability: cannot open %s: %s", path, strerror(-rc));
        if (*fd >= 0)
            close(*fd);
        return EXIT_TARGET;
    }
    return EXIT_OK;
}

int cli_durable_verify(const struct cli_options *o)
{
    const char *path = o->target;
    int fd;
    struct listened L = {.record_bytes = 0};
    int status = open_file(path, &fd, &L.file_size);
    if (status != EXIT_OK)
        return status;
    char run_id[DURABLE_RUN_ID_MAX + 1];
    if (o->run_id) {
        snprintf(run_id, sizeof(run_id), "%s", o->run_id);
    } else if (!first_run_id(fd, run_id)) {
        cli_msg("%s holds no record of a durability run: it is not a file a diskio "
                "--durability run wrote, or every write to it was lost; give --run-id RUNID to "
                "check it against that run anyway",
                path);
        close(fd);
        return EXIT_DURABILITY_MISMATCH;
    }
    struct durable_run run;
    (void)durable_run_init(&run, run_id);

    status = ask_listener(o, run_id, &L);
    if (status != EXIT_OK) {
        free(L.blocks);
        close(fd);
        return status;
    }
    /* read what the storage holds, not what this boot's page cache
     * kept: clean pages are dropped first (a real cut left none) */
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    struct counts c = {0};
    int rc = check_file(fd, &run, &L, &c);
    close(fd);
    free(L.blocks);
    if (rc < 0) {
        cli_msg("--verify-durability: cannot read %s: %s", path, strerror(-rc));
        return EXIT_RUN_FAILED;
    }
    if ((status = mismatch(path, run_id, &L, &c)) != EXIT_OK)
        return status;
    report(o, run_id, &L, &c);
    char qualifier[160];
    storage_notes(path, qualifier, sizeof(qualifier));
    const bool no_cut = same_boot(&L);
    /* one qualifier: a tmpfs proves nothing, cut or not */
    return verdict(&L, &c, qualifier, no_cut && !qualifier[0]);
}
