/* SPDX-License-Identifier: MIT */
/* The target checks (cli_target.c): whether TARGET can take the runs,
 * and why not, said whole.  Each returns EXIT_OK (0), or the exit status
 * with the message printed. */
#ifndef DISKIO_CLI_TARGET_H
#define DISKIO_CLI_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "cli_options.h"
#include "diskio.h"

/* What the runs need of the target (flags: DISKIO_TARGET_*), asked of
 * the library before anything is created: EXIT_OK or EXIT_USAGE. */
int cli_check_target_use(const struct cli_options *opt, unsigned flags);
/* Why diskio_target_open() failed with rc: EXIT_TARGET. */
int cli_report_target_error(const char *target, int rc);
/* A device smaller than a block or a --size, a filesystem without room
 * for the runs' files: EXIT_OK or EXIT_TARGET. */
int cli_check_target_fits(const struct cli_options *opt, const struct diskio_target *target);
/* Whether O_DIRECT at block size bs misfits the target (both alignments
 * stored); false when the target cannot say. */
bool cli_direct_misfit(const struct diskio_target *target, uint64_t bs, uint64_t *offset_align,
                       uint64_t *mem_align);
/* A warning when the result says the target lives in memory (tmpfs). */
void cli_warn_memory_fs(const struct diskio_result *res, const char *target, bool quiet);
/* Remove the test file (if diskio made it) and free the target (NULL:
 * nothing); a file that stays is named. */
void cli_release_target(struct diskio_target *target);

#endif
