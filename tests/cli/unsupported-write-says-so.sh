#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a mode whose call the kernel or filesystem does not support (EOPNOTSUPP) fails saying so.
#
# A call of a mode's that the kernel or the filesystem refuses with
# EOPNOTSUPP is not a failing device: the run stops at that op (exit 1,
# the partial result marked incomplete, the test file removed), and the
# message names the mode, the op and the errno and says that the kernel
# or the filesystem does not support the way this mode writes, pointing
# at diskio(1)'s MODES.  Made here through a test preload
# (tests/lib/fault-preload.c): an fsync refused from the 3rd on, and
# pwritev2 refusing its per-write flags (as before Linux 4.7), which
# pwritev2-dsync meets at its first write.
. "${top_srcdir:-.}/tests/lib/cli.sh"
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
t_built "$preload"
hint="the kernel or the filesystem does not support the way this mode writes (diskio(1), MODES"

mkdir "$t_scratch/dir"
t_expect_status 1 "fsync refused with EOPNOTSUPP" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_FAIL_AT=3 DISKIO_TEST_FAIL_ERRNO=95 "$DISKIO" -q --mode fsync --warmup 0 \
    --count 100 --output "$t_scratch/fsync.json" "$t_scratch/dir"
grep -qF "mode fsync: sync failed at op 1: Operation not supported; $hint" "$t_scratch/stderr" &&
    t_ok "the message names the mode, the op and the errno, and says why" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
grep -q '"errno": 95' "$t_scratch/fsync.json" && t_ok "the partial result has the errno" ||
    t_fail "no errno 95 in the result"
t_expect_empty_dir "$t_scratch/dir" "the test file is removed"

t_expect_status 1 "pwritev2 refusing RWF_DSYNC" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_REFUSE_WRITE_FLAGS=1 "$DISKIO" -q --mode pwritev2-dsync --count 100 \
    --output "$t_scratch/pwritev2.json" "$t_scratch/dir"
grep -qF "mode pwritev2-dsync: write failed at op 0: Operation not supported; $hint" \
    "$t_scratch/stderr" && t_ok "pwritev2-dsync: the message says the kernel refused its write" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
grep -q '"errno": 95' "$t_scratch/pwritev2.json" && t_ok "pwritev2-dsync: errno 95 in the result" ||
    t_fail "no errno 95 in the result"
t_expect_empty_dir "$t_scratch/dir" "the test file is removed"
t_done
