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
 * every checked write survived this one cut; "LOST N" counts the lost
 * and the torn.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_durable.h"
#include "cli_durable_net.h"
#include "cli_msg.h"
#include "durable.h"

/* Blocks of the file the check keeps a slot for: 16 bytes each, so a
 * 64 Mi-block file (512 GiB in 8 KiB records) needs 1 GiB. */
#define MAX_BLOCKS (UINT64_C(1) << 26)

struct expect {
    uint64_t seq; /* the last acknowledged write of the block, 0: none */
    uint32_t crc;
};

/* What the listener holds of the run. */
struct listened {
    uint64_t record_bytes, file_bytes, nblocks;
    char name[DURABLE_NAME_MAX + 1];
    uint64_t acks;
    uint64_t overwritten; /* acknowledged, then written again and acknowledged */
    bool ended;
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

static int ask_listener(const struct cli_options *o, const char *run_id, struct listened *L)
{
    int fd;
    int status = cli_durable_dial(o->verify_durability, "--verify-durability", &fd);
    if (status != EXIT_OK)
        return status;
    char line[DURABLE_LINE_MAX + 1];
    int len = snprintf(line, sizeof(line), "%s %d QUERY %s\n", DURABLE_PROTOCOL,
                       DURABLE_PROTOCOL_VERSION, run_id);
    struct durable_in in = {.used = 0};
    char *reply = NULL;
    int rc = cli_durable_send(fd, line, (size_t)len);
    if (rc == 0)
        rc = cli_durable_line(fd, &in, &reply);
    if (rc == 0 && strncmp(reply, "NO ", 3) == 0) {
        close(fd);
        status = cli_durable_refused(o->verify_durability, "the query", reply);
        if (status == EXIT_DURABILITY_MISMATCH)
            cli_msg("run %s is not a run the listener recorded: check the run id (the run "
                    "printed it, with the file, when it began)",
                    run_id);
        return status;
    }
    char *w[7];
    int n = rc == 0 ? durable_split(reply, w, 7) : 0;
    if (rc == 0 &&
        (n != 5 || strcmp(w[0], "RUN") != 0 || strcmp(w[1], run_id) != 0 ||
         !durable_parse_u64(w[2], &L->record_bytes) || !durable_parse_u64(w[3], &L->file_bytes) ||
         L->record_bytes < DURABLE_SECTOR || L->record_bytes % DURABLE_SECTOR != 0 ||
         L->record_bytes > DISKIO_BS_MAX || L->file_bytes < L->record_bytes ||
         (strcmp(w[4], "-") != 0 && !durable_name_valid(w[4]))))
        rc = -EPROTO;
    if (rc == 0) {
        snprintf(L->name, sizeof(L->name), "%s", w[4]);
        L->nblocks = L->file_bytes / L->record_bytes;
        if (L->nblocks > MAX_BLOCKS) {
            cli_msg("run %s wrote a file of %" PRIu64 " blocks; the check handles %" PRIu64
                    " at most",
                    run_id, L->nblocks, MAX_BLOCKS);
            close(fd);
            return EXIT_RUN_FAILED;
        }
        L->blocks = calloc(L->nblocks, sizeof(*L->blocks));
        if (!L->blocks) {
            cli_msg("out of memory for %" PRIu64 " blocks", L->nblocks);
            close(fd);
            return EXIT_RUN_FAILED;
        }
    }
    uint64_t last_seq = 0;
    while (rc == 0) {
        rc = cli_durable_line(fd, &in, &reply);
        if (rc < 0)
            break;
        n = durable_split(reply, w, 4);
        uint64_t seq, offset, done_acks;
        uint32_t crc;
        if (n == 4 && strcmp(w[0], "A") == 0 && durable_parse_u64(w[1], &seq) &&
            durable_parse_u64(w[2], &offset) && durable_parse_crc(w[3], &crc) && seq > last_seq &&
            offset % L->record_bytes == 0 && offset / L->record_bytes < L->nblocks) {
            struct expect *e = &L->blocks[offset / L->record_bytes];
            if (e->seq)
                L->overwritten++;
            *e = (struct expect){seq, crc};
            last_seq = seq;
            L->acks++;
        } else if (n == 3 && strcmp(w[0], "DONE") == 0 && durable_parse_u64(w[1], &done_acks) &&
                   done_acks == L->acks && (strcmp(w[2], "0") == 0 || strcmp(w[2], "1") == 0)) {
            L->ended = w[2][0] == '1';
            break;
        } else {
            rc = -EPROTO;
        }
    }
    close(fd);
    if (rc < 0) {
        cli_msg("--verify-durability %s: the listener's answer %s: %s", o->verify_durability,
                rc == -EPROTO ? "is not the protocol's" : "broke off",
                rc == -EPROTO ? "check the port" : strerror(-rc));
        return EXIT_RUN_FAILED;
    }
    return EXIT_OK;
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

int cli_durable_verify(const struct cli_options *o)
{
    const char *path = o->target;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        cli_msg("--verify-durability: cannot open %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return EXIT_TARGET;
    }
    if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
        cli_msg("--verify-durability: %s is not a regular file or a block device", path);
        close(fd);
        return EXIT_TARGET;
    }
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

    struct listened L = {.record_bytes = 0};
    int status = ask_listener(o, run_id, &L);
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
    if (rc < 0) {
        cli_msg("--verify-durability: cannot read %s: %s", path, strerror(-rc));
        free(L.blocks);
        return EXIT_RUN_FAILED;
    }
    free(L.blocks);

    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const bool named = strcmp(L.name, "-") != 0;
    if (c.found == 0 && c.unacknowledged == 0 && L.acks > 0) {
        if (c.other_runs > 0) {
            cli_msg("%s holds records of another run (%" PRIu64
                    " blocks) and nothing of run %s: it is not the file run %s wrote%s%s",
                    path, c.other_runs, run_id, run_id, named ? ", which was named " : "",
                    named ? L.name : "");
            return EXIT_DURABILITY_MISMATCH;
        }
        if (named && strcmp(base, L.name) != 0) {
            cli_msg("%s holds nothing of run %s, which wrote a file named %s: give that file", path,
                    run_id, L.name);
            return EXIT_DURABILITY_MISMATCH;
        }
    }

    const uint64_t lost = c.lost + c.torn;
    cli_report("diskio: durability check of %s against run %s (listener %s)", path, run_id,
               o->verify_durability);
    cli_report("acknowledged writes: %" PRIu64 " of %" PRIu64 " bytes (%s)", L.acks, L.record_bytes,
               L.ended
                   ? "the run ended and said so"
                   : "the run did not end: the power was cut during it, or it failed or stopped");
    cli_report("acknowledged and present: %" PRIu64, c.present);
    cli_report("acknowledged and present under a later write: %" PRIu64
               " (allowed: a write after it, never acknowledged, covers it%s)",
               c.later + c.later_torn, c.later_torn ? ", torn" : "");
    cli_report("acknowledged and lost: %" PRIu64, c.lost);
    cli_report("acknowledged and torn: %" PRIu64, c.torn);
    cli_report("acknowledged, then overwritten by a later acknowledged write: %" PRIu64
               " (its block is checked for the later one)",
               L.overwritten);
    cli_report("written but never acknowledged: %" PRIu64
               " (allowed: the cut came before the acknowledgement)",
               c.unacknowledged);
    if (c.other_runs)
        cli_report("note: %" PRIu64 " blocks hold records of another run (not checked)",
                   c.other_runs);
    if (c.found == 0 && L.acks > 0)
        cli_report("note: the file holds nothing of run %s: if it is the file the run wrote, every "
                   "acknowledged write was lost",
                   run_id);
    if (named && strcmp(base, L.name) != 0)
        cli_report("note: run %s wrote a file named %s", run_id, L.name);
    char qualifier[160];
    storage_notes(path, qualifier, sizeof(qualifier));
    if (lost == 0) {
        cli_report("verdict: durable%s", qualifier);
        cli_report("note: one power cut is one sample; cut it again to trust it more");
        return EXIT_OK;
    }
    cli_report("verdict: LOST %" PRIu64 " acknowledged write%s (%" PRIu64 " lost, %" PRIu64
               " torn)%s",
               lost, lost == 1 ? "" : "s", c.lost, c.torn, qualifier);
    return EXIT_DURABILITY_LOST;
}
