/* SPDX-License-Identifier: MIT */
/*
 * The figures derived from a count over a time, computed one way for
 * every output: a run's, a repetition's and an interval's ops/s and MB/s
 * in the table, the CSV and the JSON (and a precondition's MB/s).  MB
 * are 10^6 bytes, as fio and CrystalDiskMark count them; a span of no
 * time gives 0 (a run that recorded nothing).  Each is the same
 * expression wherever it was written before, so outputs are unchanged
 * to the bit.
 */
#ifndef DISKIO_FIGURES_H
#define DISKIO_FIGURES_H

#include <stdint.h>

/* ops (or any count) per second over duration_ns */
static inline double figures_per_s(uint64_t count, uint64_t duration_ns)
{
    const double seconds = (double)duration_ns / 1e9;
    return seconds > 0 ? (double)count / seconds : 0.0;
}

/* megabytes (10^6 bytes) per second over duration_ns */
static inline double figures_mb_per_s(uint64_t bytes, uint64_t duration_ns)
{
    const double seconds = (double)duration_ns / 1e9;
    return seconds > 0 ? (double)bytes / 1e6 / seconds : 0.0;
}

#endif
