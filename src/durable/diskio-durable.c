/* SPDX-License-Identifier: MIT */
/*
 * diskio-durable(1): the listener of the durability check.  On a machine
 * that keeps its power, it records durably every acknowledgement a
 * diskio --durability run sends (each write the run's storage said was
 * durable), and tells diskio --verify-durability, after the power cut,
 * what must be in the file.
 *
 * One process, one thread, poll(2); no shell, no child process.  It
 * writes only ID.acks files it creates itself (O_EXCL, never through a
 * symlink) in the directory it is given, ID being a run id it was told
 * to expect; every line it reads is at most DURABLE_LINE_MAX bytes; each
 * run's file is bounded.  This file is main: the options, the directory
 * and the socket; listener.h says where the rest is.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "diskio.h"
#include "durable_msg.h"
#include "listener.h"

/* The bounds' ranges: at least a first line and some acknowledgements;
 * at most what no disk holds (and no product overflows). */
#define MAX_RUN_ACKS_LIMIT UINT64_C(1000000000000)
#define MIN_RUN_BYTES UINT64_C(4096)
#define MAX_RUN_BYTES_LIMIT (UINT64_C(1) << 50)

/* the long options without a short one */
enum { OPT_MAX_RUN_ACKS = 256, OPT_MAX_RUN_BYTES };

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: diskio-durable listen --dir DIR --port PORT --expect RUNID [OPTION]...\n"
            "Record, durably, the acknowledgements of diskio's durability runs, and tell\n"
            "diskio's check after the power cut what they were.  Run it on a machine\n"
            "other than the one whose power is cut.\n"
            "\n"
            "  -d, --dir DIR         where the acknowledgements are kept: one RUNID.acks\n"
            "                        per run, created there (nothing is written elsewhere)\n"
            "  -p, --port PORT       TCP port to listen on, 1 to 65535 (0: any free port,\n"
            "                        printed)\n"
            "  -e, --expect RUNID    a run id to accept a run for (repeat for several);\n"
            "                        1 to 32 of A-Z a-z 0-9 . _ -, not starting with . or -\n"
            "  -b, --bind ADDRESS    the numeric address to listen on (default: 127.0.0.1,\n"
            "                        loopback only; e.g. 0.0.0.0, 192.0.2.7 or ::)\n"
            "      --max-run-acks N  acknowledgements a run may send; past them it is\n"
            "                        refused (default: %" PRIu64 ")\n"
            "      --max-run-bytes SIZE  bytes a run's file may take, 4k to 1024t, with k,\n"
            "                        m, g or t (default: what --max-run-acks of the longest\n"
            "                        lines take)\n"
            "  -q, --quiet           no line per run on standard output\n"
            "  -h, --help            this text\n"
            "  -V, --version         the version\n"
            "\n"
            "A run past a bound, or whose acknowledgements the disk has no room for, is\n"
            "refused; the listener goes on.  Stop it with Ctrl-C or SIGTERM.  Exit status:\n"
            "0 stopped by a signal; 1 the disk failed (not full): acknowledgements could\n"
            "not be recorded durably; 2 bad usage; 3 DIR or the address cannot be used.\n"
            "See diskio-durable(1).\n",
            DEFAULT_MAX_RUN_ACKS);
}

/* ---- options ---- */

/* SIZE: a number of bytes, or of KiB, MiB, GiB or TiB with k, m, g or t. */
static bool parse_size(const char *text, uint64_t *out)
{
    char digits[24];
    const size_t len = strlen(text);
    if (len == 0 || len >= sizeof(digits))
        return false;
    memcpy(digits, text, len + 1);
    unsigned shift = 0;
    const char *units = "kmgt", *unit = strchr(units, digits[len - 1] | 0x20);
    if (len > 1 && unit && *unit) {
        shift = 10 * (unsigned)(unit - units + 1);
        digits[len - 1] = '\0';
    }
    uint64_t v;
    if (!durable_parse_u64(digits, &v) || v > (UINT64_MAX >> shift))
        return false;
    *out = v << shift;
    return true;
}

static bool parse_bound(int opt, const char *text, struct listener *l)
{
    uint64_t v;
    if (opt == OPT_MAX_RUN_ACKS) {
        if (!durable_parse_u64(text, &v) || v < 1 || v > MAX_RUN_ACKS_LIMIT) {
            durable_msg("--max-run-acks: '%s' is not a number from 1 to %" PRIu64, text,
                        MAX_RUN_ACKS_LIMIT);
            return false;
        }
        l->max_run_acks = v;
        return true;
    }
    if (!parse_size(text, &v) || v < MIN_RUN_BYTES || v > MAX_RUN_BYTES_LIMIT) {
        durable_msg("--max-run-bytes: '%s' is not a size from 4k to 1024t (bytes, or with k, m, "
                    "g or t)",
                    text);
        return false;
    }
    l->max_run_bytes = v;
    return true;
}

static bool parse_port(const char *text, const char **port)
{
    uint64_t v;
    if (!durable_parse_u64(text, &v) || v > 65535 || (text[0] == '0' && text[1] != '\0')) {
        durable_msg("--port: '%s' is not a port from 0 to 65535", text);
        return false;
    }
    *port = text;
    return true;
}

static bool parse_expect(const char *text, struct listener *l)
{
    if (!durable_run_id_valid(text)) {
        durable_msg("--expect: not a run id (1 to 32 of A-Z a-z 0-9 . _ -, not starting with . "
                    "or -)");
        return false;
    }
    if (l->nexpect == MAX_EXPECT) {
        durable_msg("--expect: at most %d run ids", MAX_EXPECT);
        return false;
    }
    l->expect[l->nexpect++] = text;
    return true;
}

/* The options after "listen": -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct listener *l, const char **port,
                         const char **bind_addr)
{
    static const struct option options[] = {
        {"dir", required_argument, NULL, 'd'},
        {"port", required_argument, NULL, 'p'},
        {"expect", required_argument, NULL, 'e'},
        {"bind", required_argument, NULL, 'b'},
        {"max-run-acks", required_argument, NULL, OPT_MAX_RUN_ACKS},
        {"max-run-bytes", required_argument, NULL, OPT_MAX_RUN_BYTES},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    bool bytes_given = false;
    optind = 2;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":d:p:e:b:qhV", options, NULL)) != -1) {
        switch (c) {
        case 'd': l->dir = optarg; break;
        case 'p':
            if (!parse_port(optarg, port))
                return EXIT_USAGE;
            break;
        case 'e':
            if (!parse_expect(optarg, l))
                return EXIT_USAGE;
            break;
        case 'b': *bind_addr = optarg; break;
        case OPT_MAX_RUN_ACKS:
        case OPT_MAX_RUN_BYTES:
            if (!parse_bound(c, optarg, l))
                return EXIT_USAGE;
            bytes_given |= c == OPT_MAX_RUN_BYTES;
            break;
        case 'q': l->quiet = true; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("diskio-durable %s\n", diskio_version()); return 0;
        case ':': durable_msg("%s needs a value", argv[optind - 1]); return EXIT_USAGE;
        default: durable_usage_msg("unknown option '%s'", argv[optind - 1]); return EXIT_USAGE;
        }
    }
    if (!bytes_given)
        l->max_run_bytes =
            DURABLE_LINE_MAX + BOOT_LINE_MAX + l->max_run_acks * ACK_LINE_MAX + END_LINE_MAX;
    const char *missing = !l->dir       ? "--dir DIR"
                          : !*port      ? "--port PORT"
                          : !l->nexpect ? "--expect RUNID"
                                        : NULL;
    if (missing)
        durable_usage_msg("listen needs %s", missing);
    else if (optind < argc)
        durable_usage_msg("unexpected argument '%s'", argv[optind]);
    return missing || optind < argc ? EXIT_USAGE : -1;
}

/* ---- setup ---- */

static int open_dir(struct listener *l)
{
    const int dir_fd = open(l->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        durable_msg("--dir %s: %s; give an existing directory", l->dir, strerror(errno));
        return EXIT_SETUP;
    }
    l->dir_fd = dir_fd;
    if (faccessat(l->dir_fd, ".", W_OK, AT_EACCESS) != 0) {
        durable_msg("--dir %s is not writable: %s", l->dir, strerror(errno));
        close(l->dir_fd);
        return EXIT_SETUP;
    }
    return 0;
}

static int listen_on(struct listener *l, const char *bind_addr, const char *port)
{
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC,
        .ai_socktype = SOCK_STREAM,
        .ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV,
    };
    struct addrinfo *ai = NULL;
    int rc = getaddrinfo(bind_addr, port, &hints, &ai);
    if (rc != 0) {
        durable_msg("--bind: '%s' is not a numeric address (e.g. 127.0.0.1, 0.0.0.0, ::1): %s",
                    bind_addr, gai_strerror(rc));
        return EXIT_USAGE;
    }
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    if (fd >= 0)
        (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, MAX_GREETING) != 0) {
        durable_msg("cannot listen on %s port %s: %s", bind_addr, port, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return EXIT_SETUP;
    }
    freeaddrinfo(ai);
    l->listen_fd = fd;
    return 0;
}

/* Room for a socket and a file per connection, and a few more: the soft
 * limit raised as far as the hard one allows.  Short of that, an accept
 * would fail with EMFILE while the connection waits, again and again. */
static void fd_room(void)
{
    const rlim_t need = 2 * MAX_CONNS + 16;
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur >= need)
        return;
    r.rlim_cur = r.rlim_max == RLIM_INFINITY || r.rlim_max >= need ? need : r.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &r);
}

/* The first line: where it listens, where it records, what it expects;
 * and a word when the runs it expects could need more than DIR has. */
static void announce(const struct listener *l)
{
    struct sockaddr_storage sa;
    socklen_t salen = sizeof(sa);
    char host[48] = "?", real_port[8] = "?";
    if (getsockname(l->listen_fd, (struct sockaddr *)&sa, &salen) == 0)
        (void)getnameinfo((struct sockaddr *)&sa, salen, host, sizeof(host), real_port,
                          sizeof(real_port), NI_NUMERICHOST | NI_NUMERICSERV);
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* " ID" for each run id expected: every one fits */
    char ids[MAX_EXPECT * (DURABLE_RUN_ID_MAX + 1) + 1] = "";
    size_t used = 0;
    for (int i = 0; i < l->nexpect; i++)
        used += (size_t)snprintf(ids + used, sizeof(ids) - used, " %s", l->expect[i]);
    durable_log("listening on %s port %s; recording in %s; expecting run%s", host, real_port,
                l->dir, ids);
    struct statvfs vfs;
    const uint64_t need = l->max_run_bytes * (uint64_t)l->nexpect;
    if (fstatvfs(l->dir_fd, &vfs) == 0 && vfs.f_frsize > 0 && need / vfs.f_frsize > vfs.f_bavail)
        durable_msg("note: %s has %" PRIu64 " bytes free, less than the %d runs expected may "
                    "take (%" PRIu64 " bytes each, --max-run-bytes): a run that finds the disk "
                    "full is refused, so one run's flood can refuse the others; give "
                    "--max-run-bytes %" PRIu64 " to keep each its share",
                    l->dir, (uint64_t)vfs.f_bavail * vfs.f_frsize, l->nexpect, l->max_run_bytes,
                    (uint64_t)vfs.f_bavail * vfs.f_frsize / (uint64_t)l->nexpect);
}

int main(int argc, char **argv)
{
    struct listener l = {.dir_fd = -1, .listen_fd = -1, .max_run_acks = DEFAULT_MAX_RUN_ACKS};
    const char *port = NULL, *bind_addr = "127.0.0.1";
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc > 1 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)) {
        printf("diskio-durable %s\n", diskio_version());
        return 0;
    }
    if (argc <= 1 || strcmp(argv[1], "listen") != 0) {
        durable_usage_msg("%s%s",
                          argc > 1 ? "unknown command (the one command is 'listen'): "
                                   : "no command: give ",
                          argc > 1 ? "" : "'listen'");
        return EXIT_USAGE;
    }
    int rc = parse_options(argc, argv, &l, &port, &bind_addr);
    if (rc >= 0)
        return rc;
    if ((rc = open_dir(&l)) != 0)
        return rc;
    listener_signals();
    fd_room();
    if ((rc = listen_on(&l, bind_addr, port)) != 0) {
        close(l.dir_fd);
        return rc;
    }
    announce(&l);
    const int status = listener_serve(&l);
    close(l.listen_fd);
    close(l.dir_fd);
    if (!l.quiet && status == EXIT_STOPPED)
        durable_log("stopped");
    return status;
}
