/* SPDX-License-Identifier: MIT */
/* The signals that stop a run: every one whose default action ends the
 * process sets cli_stop_signal, which the library's runs and the rounds
 * read; a second one removes the test file and ends diskio at once. */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli_msg.h"
#include "cli_output.h"
#include "cli_signals.h"

volatile sig_atomic_t cli_stop_signal;
static struct diskio_target *volatile current_target;

void cli_signals_target(struct diskio_target *target)
{
    current_target = target;
}

static void on_signal(int signo)
{
    if (cli_stop_signal) {
        /* A second signal: the run did not stop (a sync stuck on a dead
         * device, say).  Remove what we created and leave at once; a test
         * file that stays is named, as it is the user's to remove now. */
        struct diskio_target *t = current_target;
        if (t && diskio_target_remove(t) < 0) {
            /* shown by the rule, async-signal-safe */
            cli_msg_in_signal("warning: the test file ", diskio_target_path(t),
                              " was not removed; remove it yourself");
        }
        out_file_unlink_pending();
        _exit(128 + signo);
    }
    cli_stop_signal = signo;
}

void cli_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* Every signal whose default action ends the process, except the
     * ones a crash raises (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
     * SIGSYS, SIGTRAP: after a crash nothing in memory can be trusted to
     * name the file to remove), stops the run the same way, so that none
     * leaves the test file behind.  SIGXCPU is RLIMIT_CPU's warning before
     * its SIGKILL.
     * No SA_RESTART: a blocked io_getevents returns EINTR and the loop
     * sees the stop flag.  An inherited "ignore" of SIGINT, SIGQUIT or
     * SIGHUP is kept, as shells (background jobs) and nohup(1) expect. */
    static const int stop_signals[] = {
        SIGINT,    SIGQUIT,   SIGHUP,  SIGTERM, SIGUSR1, SIGUSR2,
        SIGALRM,   SIGVTALRM, SIGPROF, SIGIO,   SIGXCPU,
#ifdef SIGPWR
        SIGPWR,
#endif
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
    };
    for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
        int signo = stop_signals[i];
        struct sigaction old;
        if ((signo == SIGINT || signo == SIGQUIT || signo == SIGHUP) &&
            sigaction(signo, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(signo, &sa, NULL);
    }
    for (int signo = SIGRTMIN; signo <= SIGRTMAX; signo++)
        sigaction(signo, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* over RLIMIT_FSIZE a write must fail with EFBIG (and be reported),
     * not kill the process with the measurements */
    signal(SIGXFSZ, SIG_IGN);
}
