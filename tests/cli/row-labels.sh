#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the text table's row label says what sets a run apart from
# its mode's default: --sync-every N as "fdatasync/8", a non-sequential
# --pattern as "async rand", and the queue depth and --batch of aio as
# "aio qd4 batch2 rand" (where the filesystem takes O_DIRECT), so that
# the rows of a sweep can be told apart.
. "${top_srcdir:-.}/tests/cli/lib.sh"

t_expect_status 0 "fdatasync every 8 writes, and async rand" -- "$DISKIO" \
    --mode fdatasync --sync-every 8 --count 64 --size 1M "$t_scratch"
grep -q "^fdatasync/8 " "$t_scratch/stdout" && t_ok "the row is labelled fdatasync/8" ||
    t_fail "no fdatasync/8 row: $(cat "$t_scratch/stdout")"

t_expect_status 0 "async rand" -- "$DISKIO" --mode async --pattern rand --count 64 --size 1M \
    "$t_scratch"
grep -q "^async rand " "$t_scratch/stdout" && t_ok "the row is labelled async rand" ||
    t_fail "no 'async rand' row: $(cat "$t_scratch/stdout")"

"$DISKIO" --mode aio --count 1 --size 1M "$t_scratch" >/dev/null 2>&1 && {
    t_expect_status 0 "aio qd4 batch 2 rand" -- "$DISKIO" --mode aio --iodepth 4 --batch 2 \
        --pattern rand --count 64 --size 1M "$t_scratch"
    grep -q "^aio qd4 batch2 rand " "$t_scratch/stdout" &&
        t_ok "the row is labelled aio qd4 batch2 rand" ||
        t_fail "no 'aio qd4 batch2 rand' row: $(cat "$t_scratch/stdout")"
}
t_done
