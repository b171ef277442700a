/* SPDX-License-Identifier: MIT */
/*
 * A run's hooks (struct diskio_run_options) beside its workload (struct
 * diskio_config).  The runners read the hooks where they always did, in
 * the library's own copy of the configuration: the entry points taking
 * options resolve them into that copy first (run_options_resolve), the
 * options winning over the configuration's deprecated members.
 */
#ifndef DISKIO_RUN_OPTIONS_H
#define DISKIO_RUN_OPTIONS_H

#include "diskio_internal.h"

/* *into: cfg with each hook opts sets (NULL opts: none) in place of cfg's */
void run_options_resolve(const struct diskio_config *cfg, const struct diskio_run_options *opts,
                         struct diskio_config *into);

/* what a run records of its configuration: the workload, no hooks */
void run_options_forget(struct diskio_config *recorded);

#endif
