/* SPDX-License-Identifier: MIT */
/*
 * diskio --durability: the rules of the durability options, the
 * connection to the listener, and the run's side of the protocol.  Every
 * write of the run is a record (diskio-durability(5)) made by the op
 * hook's prepare before the write's clock starts; once the write and its
 * sync returned, the hook's done sends one line per record to the
 * listener, after the op's clock stopped.  Nothing is sent for a write
 * whose sync has not returned, so the listener holds only what the
 * storage said was durable.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli_durable.h"
#include "cli_durable_net.h"
#include "cli_fail.h"
#include "cli_msg.h"
#include "durable.h"

/* ---- the options ---- */

static bool hostport_ok(const char *text)
{
    char host[256], port[8];
    return durable_split_hostport(text, host, sizeof(host), port, sizeof(port), false) == 0;
}

/* --durability without one durable mode (diskio_mode_is_durable()): the
 * modes it takes, and why an O_DIRECT one given is not among them. */
static int durability_mode_refused(const struct cli_options *o, char *err, size_t size)
{
    char durable[256];
    cli_names(CLI_DURABLE_MODES, ", ", " or ", durable, sizeof(durable));
    const bool direct = o->modes_explicit && o->nmodes == 1 && !diskio_mode_is_read(o->modes[0]) &&
                        diskio_mode_is_direct(o->modes[0]);
    return cli_fail(err, size,
                    "--durability needs one --mode whose writes the storage acknowledges as "
                    "durable: %s%s%s%s",
                    durable, direct ? " (" : "", direct ? diskio_mode_name(o->modes[0]) : "",
                    direct ? " writes with O_DIRECT and no sync: on a device with a volatile "
                             "cache nothing it acknowledges is durable)"
                           : "");
}

int cli_durable_check(const struct cli_options *o, bool *verify_only, char *err, size_t size)
{
    *verify_only = false;
    if (o->run_id && !o->durability && !o->verify_durability)
        return cli_fail(err, size, "--run-id applies to --durability and --verify-durability only");
    if (o->run_id && !durable_run_id_valid(o->run_id))
        return cli_fail(err, size,
                        "--run-id: not a run id (1 to %d of A-Z a-z 0-9 . _ -, not starting "
                        "with . or -)",
                        DURABLE_RUN_ID_MAX);
    if (o->durability && o->verify_durability)
        return cli_fail(err, size,
                        "--durability runs the writes, --verify-durability checks them after "
                        "the power cut: give one of them");
    if (o->verify_durability) {
        if (!hostport_ok(o->verify_durability))
            return cli_fail(err, size,
                            "--verify-durability: '%s' is not HOST:PORT (e.g. 192.0.2.7:7211, "
                            "[2001:db8::7]:7211)",
                            o->verify_durability);
        if (o->workload_option || o->size_given || o->timing_given || o->warmup_given ||
            o->output || o->trace || o->label || o->suite || o->format_given || o->interval_ns ||
            o->njobs > 1 || o->force || o->allow_device)
            return cli_fail(err, size,
                            "--verify-durability takes only --run-id and the FILE to check");
        *verify_only = true;
        return 0;
    }
    if (!o->durability)
        return 0;
    if (!hostport_ok(o->durability))
        return cli_fail(err, size,
                        "--durability: '%s' is not HOST:PORT of the listener (e.g. "
                        "192.0.2.7:7211, [2001:db8::7]:7211)",
                        o->durability);
    if (!o->run_id)
        return cli_fail(err, size,
                        "--durability needs --run-id RUNID, the id the listener was started to "
                        "expect (diskio-durable listen --expect RUNID)");
    if (o->suite)
        return cli_fail(err, size, "--durability checks one run: not a --suite");
    if (!o->modes_explicit || o->nmodes != 1 || !diskio_mode_is_durable(o->modes[0]))
        return durability_mode_refused(o, err, size);
    if (o->nsizes != 1 || o->njobs != 1 || o->jobs[0] != 1 || o->repeat != 1)
        return cli_fail(err, size, "--durability checks one run: one --bs, one job, no --repeat");
    const uint64_t blocks = o->file_size / o->block_sizes[0];
    if (blocks > DURABLE_BLOCKS_MAX)
        return cli_fail(err, size,
                        "--durability: --size of %" PRIu64
                        " blocks of --bs; a check handles %" PRIu64
                        " at most: give a smaller --size or a larger --bs",
                        blocks, DURABLE_BLOCKS_MAX);
    if (o->count && blocks && o->count / blocks >= DURABLE_WRITES_PER_BLOCK_MAX &&
        o->count > blocks * DURABLE_WRITES_PER_BLOCK_MAX)
        return cli_fail(err, size,
                        "--durability: --count %" PRIu64 " writes each of the %" PRIu64
                        " blocks of --size more than %d times, the most a check reads; give a "
                        "larger --size or a smaller --count",
                        o->count, blocks, DURABLE_WRITES_PER_BLOCK_MAX);
    if (diskio_pattern_info(o->pattern)->truncates_when_full)
        return cli_fail(err, size,
                        "--durability: the %s pattern truncates its file when it is full, "
                        "taking acknowledged writes with it; use seq, rand or create",
                        diskio_pattern_name(o->pattern));
    return 0;
}

/* ---- the connection ---- */

int cli_durable_dial(const char *hostport, const char *option, int *fd)
{
    char host[256], port[8];
    if (durable_split_hostport(hostport, host, sizeof(host), port, sizeof(port), false) != 0) {
        cli_msg("%s: '%s' is not HOST:PORT", option, hostport);
        return EXIT_USAGE;
    }
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    struct addrinfo *ai = NULL;
    int rc = getaddrinfo(host, port, &hints, &ai);
    if (rc != 0) {
        cli_msg("%s %s: cannot resolve %s: %s", option, hostport, host, gai_strerror(rc));
        return EXIT_TARGET;
    }
    int err = ECONNREFUSED;
    int s = -1;
    for (struct addrinfo *a = ai; a && s < 0; a = a->ai_next) {
        s = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (s < 0) {
            err = errno;
            continue;
        }
        /* a connect that gets no answer gives up after 10 s, not the
         * kernel's two minutes */
        int cerr = connect(s, a->ai_addr, a->ai_addrlen) == 0 ? 0 : errno;
        if (cerr == EINPROGRESS) {
            struct pollfd p = {.fd = s, .events = POLLOUT};
            socklen_t len = sizeof(cerr);
            cerr = ETIMEDOUT;
            if (poll(&p, 1, 10000) == 1 && getsockopt(s, SOL_SOCKET, SO_ERROR, &cerr, &len) != 0)
                cerr = errno;
        }
        if (cerr != 0) {
            err = cerr;
            close(s);
            s = -1;
        }
    }
    freeaddrinfo(ai);
    if (s < 0) {
        cli_msg("%s %s: cannot connect to the listener: %s; start it there first "
                "(diskio-durable listen --port %s ...) and check that this machine may reach "
                "it",
                option, hostport, strerror(err), port);
        return EXIT_TARGET;
    }
    /* blocking from here on: every reply is awaited 30 s at most, and an
     * acknowledgement goes out at once (no Nagle delay) */
    int flags = fcntl(s, F_GETFL);
    if (flags >= 0)
        (void)fcntl(s, F_SETFL, flags & ~O_NONBLOCK);
    struct timeval tv = {.tv_sec = 30};
    (void)setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    int one = 1;
    (void)setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    *fd = s;
    return EXIT_OK;
}

int cli_durable_send(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, text, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -errno;
        if (n == 0)
            return -EPIPE;
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

uint64_t cli_durable_now_ns(void)
{
    struct timespec ts;
    (void)clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Wait for bytes until deadline_ns, 30 s at most (the socket's own
 * time-out): 0 when there are some, -ETIME or -ETIMEDOUT. */
static int wait_for_bytes(int fd, uint64_t deadline_ns)
{
    for (;;) {
        const uint64_t now = cli_durable_now_ns();
        if (now >= deadline_ns)
            return -ETIME;
        const uint64_t left_ms = (deadline_ns - now + 999999) / 1000000;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        const int got = poll(&p, 1, left_ms < 30000 ? (int)left_ms : 30000);
        if (got > 0)
            return 0;
        if (got < 0 && errno != EINTR)
            return -errno;
        if (got == 0 && left_ms >= 30000)
            return -ETIMEDOUT;
    }
}

int cli_durable_line(int fd, struct durable_in *in, char **line, uint64_t deadline_ns)
{
    for (;;) {
        int got = durable_in_line(in, line);
        if (got > 0)
            return 0;
        if (got < 0)
            return -EPROTO;
        size_t room;
        char *space = durable_in_space(in, &room);
        /* with a deadline, the clock is read once a read, and a wait
         * for more bytes ends at it */
        if (deadline_ns && cli_durable_now_ns() >= deadline_ns)
            return -ETIME;
        ssize_t n = recv(fd, space, room, deadline_ns ? MSG_DONTWAIT : 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && deadline_ns && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            const int rc = wait_for_bytes(fd, deadline_ns);
            if (rc < 0)
                return rc;
            continue;
        }
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
        if (n == 0)
            return -ECONNRESET;
        durable_in_added(in, (size_t)n);
    }
}

int cli_durable_refused(const char *listener, const char *what, char *reply)
{
    /* "NO WORD TEXT": the listener's own words, printable ASCII only
     * (durable_in_line() took nothing else) */
    char *text = strchr(reply + 3, ' ');
    const char *word = reply + 3;
    if (text)
        *text++ = '\0';
    const bool mismatch = strcmp(word, "unexpected-run") == 0 || strcmp(word, "run-exists") == 0 ||
                          strcmp(word, "unknown-run") == 0;
    cli_msg("the listener at %s refused %s: %s (%s)", listener, what, text ? text : word, word);
    return mismatch ? EXIT_DURABILITY_MISMATCH : EXIT_TARGET;
}

/* ---- the run ---- */

struct pending {
    uint64_t seq, offset;
    uint32_t crc;
};

struct cli_durable {
    int fd;
    const char *listener;
    struct durable_run run;
    struct diskio_op_hook hook;
    uint64_t seq;  /* the last record made */
    uint64_t acks; /* acknowledgements sent */
    /* the records written since the last sync, acknowledged when it
     * returns (sync_every of them at most) */
    struct pending *pending;
    size_t npending, max_pending;
    char *out;      /* max_pending lines */
    int send_error; /* the send that failed, -errno */
    /* DURABLE_WRITES_PER_BLOCK_MAX per block of the file: the most a
     * check reads, so the most the run acknowledges */
    uint64_t max_acks;
    bool began, at_max_acks;
};

static void hook_prepare(void *ctx, unsigned char *buf, uint64_t len, uint64_t offset)
{
    struct cli_durable *d = ctx;
    const uint64_t seq = ++d->seq;
    const uint32_t crc = durable_record_make(buf, len, offset, seq, &d->run);
    /* a sync follows every max_pending writes: never full */
    if (d->npending < d->max_pending)
        d->pending[d->npending++] = (struct pending){seq, offset, crc};
}

static int hook_done(void *ctx, bool synced)
{
    struct cli_durable *d = ctx;
    if (!synced)
        return 0;
    if (d->npending > d->max_acks - d->acks) {
        d->at_max_acks = true; /* said by cli_durable_finish() */
        return -ECANCELED;
    }
    size_t len = 0;
    for (size_t i = 0; i < d->npending; i++)
        len += durable_format_ack(d->out + len, d->pending[i].seq, d->pending[i].offset,
                                  d->pending[i].crc);
    const int rc = cli_durable_send(d->fd, d->out, len);
    if (rc == 0)
        d->acks += d->npending;
    else
        d->send_error = rc;
    d->npending = 0;
    return rc;
}

static void durable_free(struct cli_durable *d);

static int durable_connect(const struct cli_options *o, struct cli_durable **out)
{
    *out = NULL;
    struct cli_durable *d = calloc(1, sizeof(*d));
    const size_t max_pending = o->sync_every ? o->sync_every : 1;
    if (d) {
        d->pending = calloc(max_pending, sizeof(*d->pending));
        d->out = malloc(max_pending * DURABLE_LINE_MAX);
    }
    if (!d || !d->pending || !d->out) {
        if (d) {
            free(d->pending);
            free(d->out);
        }
        free(d);
        cli_msg("out of memory");
        return EXIT_RUN_FAILED;
    }
    d->max_pending = max_pending;
    d->listener = o->durability;
    (void)durable_run_init(&d->run, o->run_id); /* checked by cli_parse */
    d->hook = (struct diskio_op_hook){.prepare = hook_prepare, .done = hook_done, .ctx = d};
    int status = cli_durable_dial(o->durability, "--durability", &d->fd);
    if (status != EXIT_OK) {
        free(d->pending);
        free(d->out);
        free(d);
        return status;
    }
    *out = d;
    return EXIT_OK;
}

static void durable_free(struct cli_durable *d)
{
    if (!d)
        return;
    if (d->fd >= 0)
        close(d->fd);
    free(d->pending);
    free(d->out);
    free(d);
}

static int durable_begin(struct cli_durable *d, const struct cli_options *o,
                         struct diskio_target *target, const struct diskio_result *result)
{
    const uint64_t bs = o->block_sizes[0];
    const uint64_t file_bytes = o->file_size - o->file_size % bs;
    d->max_acks = file_bytes / bs * DURABLE_WRITES_PER_BLOCK_MAX;
    /* the test file's own name, when it is one the protocol can carry */
    const char *path = diskio_target_path(target);
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    if (!durable_name_valid(name))
        name = "-";
    char line[DURABLE_LINE_MAX + 1];
    int len = snprintf(line, sizeof(line), "%s %d RUN %s %" PRIu64 " %" PRIu64 " %s\n",
                       DURABLE_PROTOCOL, DURABLE_PROTOCOL_VERSION, d->run.id, bs, file_bytes, name);
    struct durable_in in = {.used = 0};
    char *reply = NULL;
    int rc = cli_durable_send(d->fd, line, (size_t)len);
    if (rc == 0)
        rc = cli_durable_line(d->fd, &in, &reply, 0);
    if (rc == 0 && !reply)
        rc = -EPROTO;
    if (rc != 0 || !reply) {
        cli_msg("--durability %s: the listener did not answer: %s", d->listener,
                rc == -EPROTO ? "its reply is not a protocol line" : strerror(-rc));
        return EXIT_TARGET;
    }
    if (strncmp(reply, "NO ", 3) == 0)
        return cli_durable_refused(d->listener, "the run", reply);
    if (strncmp(reply, "OK ", 3) != 0 || strcmp(reply + 3, d->run.id) != 0) {
        cli_msg("--durability %s: the reply is not a diskio-durable listener's; check the port",
                d->listener);
        return EXIT_TARGET;
    }
    /* this boot, for the check to tell whether the power was cut since;
     * a kernel without the id: the check says it cannot tell */
    char boot[DURABLE_BOOT_ID_LEN + 1];
    if (durable_boot_id(boot) == 0) {
        len = snprintf(line, sizeof(line), "BOOT %s\n", boot);
        if ((rc = cli_durable_send(d->fd, line, (size_t)len)) != 0) {
            cli_msg("--durability %s: the listener went away: %s", d->listener, strerror(-rc));
            return EXIT_TARGET;
        }
    }
    /* from now on the file is the check's: never removed */
    (void)diskio_target_keep(target);
    d->began = true;
    cli_msg("durability run %s: each write is acknowledged to %s after its sync returned; the "
            "test file %s is kept for the check after the power cut",
            d->run.id, d->listener, path);
    const char *fs = diskio_result_env(result, "target.filesystem");
    if (fs && (strcmp(fs, "tmpfs") == 0 || strcmp(fs, "ramfs") == 0))
        cli_msg("durability run %s: %s is on %s, which lives in memory and never survives a "
                "real reboot or power cut: nothing this run writes there can pass a real check",
                d->run.id, path, fs);
    return EXIT_OK;
}

int cli_durable_start(const struct cli_options *o, struct diskio_target *target,
                      const struct diskio_result *result, struct cli_durable **out)
{
    struct cli_durable *d;
    int status = durable_connect(o, &d);
    if (status == EXIT_OK && (status = durable_begin(d, o, target, result)) != EXIT_OK)
        durable_free(d);
    *out = status == EXIT_OK ? d : NULL;
    return status;
}

const struct diskio_op_hook *cli_durable_hook(struct cli_durable *d)
{
    return d ? &d->hook : NULL;
}

void cli_durable_note_run(const struct cli_durable *d, struct diskio_run *run)
{
    if (!d || !run)
        return;
    char acks[24];
    snprintf(acks, sizeof(acks), "%" PRIu64, d->acks);
    /* without memory the result just lacks them; the messages say it all */
    (void)diskio_run_set_param(run, "durability.listener", d->listener);
    (void)diskio_run_set_param(run, "durability.run_id", d->run.id);
    (void)diskio_run_set_param(run, "durability.acknowledged", acks);
}

/* An acknowledgement could not be sent: the listener's refusal, when it
 * said one before it closed (a bound of its own, a full disk), else the
 * failure.  Either way only the listener knows how many it recorded. */
static void send_failed(const struct cli_durable *d)
{
    struct durable_in in = {.used = 0};
    char *reply = NULL;
    const uint64_t deadline_ns = cli_durable_now_ns() + UINT64_C(1000000000);
    if (cli_durable_line(d->fd, &in, &reply, deadline_ns) == 0 && strncmp(reply, "NO ", 3) == 0) {
        cli_msg("durability run %s: the listener at %s refused the run after %" PRIu64
                " acknowledgements were sent: %s; what it recorded before is kept there "
                "(--verify-durability counts it)",
                d->run.id, d->listener, d->acks, reply + 3);
        return;
    }
    cli_msg("durability run %s: an acknowledgement to the listener at %s failed: %s (the "
            "listener stopped, or the network between the machines broke); of the %" PRIu64
            " sent before, it keeps what it received (--verify-durability counts it)",
            d->run.id, d->listener, strerror(-d->send_error), d->acks);
}

int cli_durable_finish(struct cli_durable *d, int status, const struct diskio_target *target)
{
    if (!d)
        return status;
    if (!d->began) {
        durable_free(d);
        return status;
    }
    const char *path = diskio_target_path(target);
    if (status == EXIT_OK) {
        char line[48];
        int len = snprintf(line, sizeof(line), "END %" PRIu64 "\n", d->acks);
        struct durable_in in = {.used = 0};
        char *reply = NULL;
        int rc = cli_durable_send(d->fd, line, (size_t)len);
        if (rc == 0)
            rc = cli_durable_line(d->fd, &in, &reply, 0);
        uint64_t recorded = 0;
        if (rc == 0 && (strncmp(reply, "DONE ", 5) != 0 ||
                        !durable_parse_u64(reply + 5, &recorded) || recorded != d->acks))
            rc = -EPROTO;
        if (rc < 0) {
            cli_msg("durability run %s: the listener at %s did not confirm the run's %" PRIu64
                    " acknowledgements: %s",
                    d->run.id, d->listener, d->acks,
                    rc == -EPROTO
                        ? (reply && strncmp(reply, "NO ", 3) == 0 ? reply : "unexpected reply")
                        : strerror(-rc));
            status = EXIT_RUN_FAILED;
        } else {
            cli_msg("durability run %s: %" PRIu64
                    " writes acknowledged, all recorded by the listener at %s.  The run ended "
                    "before any power cut: cut the power now to test what the storage's cache "
                    "does after the last sync, or run again with a longer --runtime and cut it "
                    "during the run.",
                    d->run.id, d->acks, d->listener);
        }
    } else if (d->at_max_acks) {
        cli_msg("durability run %s: %" PRIu64 " writes acknowledged to %s, %d for each block of "
                "the test file: the most a check reads (diskio(1), --verify-durability), so the "
                "run stopped there; cut the power now, or run again with a larger --size",
                d->run.id, d->acks, d->listener, DURABLE_WRITES_PER_BLOCK_MAX);
    } else if (d->send_error) {
        send_failed(d);
    } else {
        cli_msg("durability run %s: %" PRIu64 " writes acknowledged to %s before the run stopped",
                d->run.id, d->acks, d->listener);
    }
    cli_msg("after the power cut and the reboot, check the file with: diskio "
            "--verify-durability %s --run-id %s %s",
            d->listener, d->run.id, path);
    durable_free(d);
    return status;
}
