/* SPDX-License-Identifier: MIT */
/* The signals that stop a run (cli_signals.c). */
#ifndef DISKIO_CLI_SIGNALS_H
#define DISKIO_CLI_SIGNALS_H

#include <signal.h>

#include "diskio.h"

/* The signal that stopped the run, 0 while none came (the library's
 * config.stop). */
extern volatile sig_atomic_t cli_stop_signal;

/* Every signal whose default action ends the process stops the run
 * instead; SIGPIPE and SIGXFSZ are ignored (their writes fail, said). */
void cli_signals_install(void);
/* The test file a second signal removes before diskio ends (NULL: none). */
void cli_signals_target(struct diskio_target *target);
/* The status of a run a signal stopped: 128 + signo (SIGINT 130,
 * SIGTERM 143, SIGHUP 129). */
static inline int cli_signal_status(int signo)
{
    return 128 + signo;
}

#endif
