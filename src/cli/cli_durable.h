/* SPDX-License-Identifier: MIT */
/*
 * diskio --durability and --verify-durability: the command's side of the
 * power-loss check (the record and the wire protocol: src/durable/).
 * The run sends each acknowledgement to the listener (diskio-durable(1))
 * from the library's op hook, after the write and its sync returned and
 * outside the op's timed section; the verify reads the file back and
 * asks the listener what must be in it.
 */
#ifndef DISKIO_CLI_DURABLE_H
#define DISKIO_CLI_DURABLE_H

#include <stddef.h>

#include "cli_options.h"
#include "diskio.h"

/* Exit statuses of --verify-durability beyond diskio's own (diskio(1)):
 * 0 durable, 1 the check could not be finished, 2 bad usage, 3 the file
 * or the listener cannot be used, and: */
enum cli_durable_exit {
    EXIT_DURABILITY_LOST = 4,     /* acknowledged writes lost or torn */
    EXIT_DURABILITY_MISMATCH = 5, /* the file or the run id does not match */
};

/* The rules of the durability options, after cli_parse() read them all:
 * 0, or -1 with the message in err.  *verify_only is set when the command
 * line is a --verify-durability (no run to check further). */
int cli_durable_check(const struct cli_options *o, bool *verify_only, char *err, size_t size);

struct cli_durable;

/* Connect to the listener of o->durability, register the run with it
 * (run id, record and file size, the test file's name) and keep the
 * test file: EXIT_OK with *out set, or an exit status after a message
 * (the file is not kept then, and nothing was written to it). */
int cli_durable_start(const struct cli_options *o, struct diskio_target *target,
                      const struct diskio_result *result, struct cli_durable **out);
/* The op hook of the run (NULL for NULL). */
const struct diskio_op_hook *cli_durable_hook(struct cli_durable *d);
/* The run's durability parameters into its result (listener, run id,
 * acknowledgements sent). */
void cli_durable_note_run(const struct cli_durable *d, struct diskio_run *run);
/* The end of the run: a run that completed (status EXIT_OK) tells the
 * listener it ended and waits for it to confirm; then what to do next is
 * printed.  Returns the command's status (EXIT_RUN_FAILED when the
 * listener did not confirm a completed run).  Frees d. */
int cli_durable_finish(struct cli_durable *d, int status, const struct diskio_target *target);

/* diskio --verify-durability HOST:PORT [--run-id ID] FILE: the check,
 * its report on standard output, its exit status. */
int cli_durable_verify(const struct cli_options *o);

#endif
