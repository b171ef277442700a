/* SPDX-License-Identifier: MIT */
/* diskio(1): main parses the options, then plans the session, runs its
 * rounds, writes the result and leaves through its one cleanup
 * (cli_session.h); --help, --version and --verify-durability need no
 * session. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "cli_durable.h"
#include "cli_msg.h"
#include "cli_options.h"
#include "cli_session.h"
#include "diskio.h"

/* Descriptors 0, 1 and 2 closed when diskio starts are taken by /dev/null
 * before any file is opened: otherwise the output temporary would get
 * number 1 and receive the table, or 2 and the messages.  As gnulib's
 * stdopen does, they are opened the wrong way round (stdin write-only,
 * stdout and stderr read-only), so that writing to a closed standard
 * output still fails, and is reported.  false if /dev/null cannot be
 * opened. */
static bool std_fds_taken(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        /* the lowest free number: fd itself, as those below it are open */
        int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (got != fd) {
            if (got >= 0)
                close(got);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    /* before anything else opens a file */
    if (!std_fds_taken())
        return EXIT_TARGET;
    static struct session s;
    char err[512];
    if (cli_parse(argc, argv, &s.opt, err, sizeof(err)) != 0) {
        cli_usage_msg("%s", err);
        return EXIT_USAGE;
    }
    if (s.opt.help) {
        cli_usage(stdout);
        return cli_finish_stdout(EXIT_OK, NULL);
    }
    if (s.opt.version) {
        printf("diskio %s\n", diskio_version());
        return cli_finish_stdout(EXIT_OK, NULL);
    }
    /* after the power cut: a check of the file, no run (cli_durable.c) */
    if (s.opt.verify_durability)
        return cli_finish_stdout(cli_durable_verify(&s.opt), NULL);

    int status = cli_session_plan(&s);
    if (status != EXIT_OK)
        return cli_session_end(&s, status);
    status = cli_session_write(&s, cli_session_run(&s));
    return cli_finish_stdout(cli_session_end(&s, status), s.saved_in);
}
