/* SPDX-License-Identifier: MIT */
/*
 * The timed loops' slow paths (engine_slow.c): never on the common path,
 * kept out of line so the inlined loops stay small.  They call nothing
 * in the loops.
 */
#ifndef DISKIO_ENGINE_SLOW_H
#define DISKIO_ENGINE_SLOW_H

#include "engine.h"

/* Finish a write that came back short, interrupted or failed (first is
 * what pwrite returned): the length written, or -errno, or
 * -DISKIO_E_SHORT_WRITE when no progress is made. */
ssize_t write_rest(int fd, const unsigned char *buf, uint64_t len, uint64_t offset, ssize_t first);
/* The same for pwritev2 with write_flags (RWF_DSYNC...): the rest is
 * written with the same flags, or it would not be the op it claims. */
ssize_t write_rest_flags(int fd, const unsigned char *buf, uint64_t len, uint64_t offset,
                         ssize_t first, int write_flags);
/* Finish a read that came back short or interrupted: the length read,
 * -errno, or -DISKIO_E_SHORT_READ at the end of the file. */
ssize_t read_rest(int fd, unsigned char *buf, uint64_t len, uint64_t offset, ssize_t first);
/* config.verify: whether buf (block_size bytes read at offset) holds what
 * the fill wrote there (target_fill() with block_size and the seed). */
bool verify_block(const struct engine *e, const unsigned char *buf, uint64_t offset);
/* An uncached sequential read wraps: drop the file's pages again. */
void read_wrap(struct engine *e);
/* Retry a sync call that failed with EINTR; 0 or -errno. */
int sync_retry(int fd, int (*sync_fn)(int));
/* The append pattern reached file_size: truncate to 0 (sets e->error). */
int append_wrap(struct engine *e);
/* Fixed rate: sleep, then spin, until due_ns; true when the op due then
 * may be issued.  False when stop rose, or when due_ns is at or after
 * deadline_ns: the wait then ends at the deadline and the run with it. */
bool wait_until(uint64_t due_ns, uint64_t deadline_ns, uint64_t spin_margin_ns,
                const volatile sig_atomic_t *stop);
/* How late clock_nanosleep() wakes up here, now: the 99th percentile of
 * the overshoot of a few short sleeps (with the timer slack in force). */
uint64_t wakeup_overshoot_ns(void);

#endif
