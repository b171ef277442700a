#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a store writing back newest first and cut midway leaves torn and lost records, found.
#
# a store that acknowledges syncs without writing, and
# writes its full cache back newest block first, loses power in the
# middle of that write-back: later records reached the disk, earlier ones
# did not, and the one half-written is torn.  With 8 KiB records over
# 4 KiB cache blocks, a 16-block cache (8 records, all acknowledged) and
# the power failing after 5 blocks written back, the check finds exactly
# the newest 2 records present, the 3rd torn (its second half on disk,
# its first not) and the 5 oldest lost: verdict "LOST 6 acknowledged
# writes (5 lost, 1 torn)", exit 4; the run itself failed on the 9th
# write (exit 1), which was never acknowledged.  Root, /dev/fuse and
# libfuse3 (the lying store) needed; skips (77) otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
d_need_fuse

d_listen reorder
d_mount reorder --cache-blocks 16 --cache-block 4096 --crash-after 5
# a new file from its first byte: nothing but the run's own records goes
# through the cache, in the order the run writes them
t_expect_status 1 "the run stops when the store loses power" -- "$DISKIO" \
    --durability "$d_listener" --run-id reorder --mode fdatasync --pattern create --warmup 0 \
    --count 64 --size 512k --bs 8k "$d_mnt"
grep -q 'write failed at op 8' "$t_scratch/stderr" && t_ok "the 9th write failed" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
grep -q 'durability run reorder: 8 writes acknowledged' "$t_scratch/stderr" &&
    t_ok "8 writes were acknowledged before the cut" || t_fail "stderr: $(cat "$t_scratch/stderr")"
d_power_cut
[ "$(d_stat writebacks)" = 5 ] && [ "$(d_stat dirty_blocks)" = 11 ] &&
    t_ok "the store wrote back 5 blocks and lost 11 at the cut" ||
    t_fail "store counters: $(cat "$t_scratch/stats")"

d_mount honest
file=$(ls "$d_mnt")
t_expect_status 4 "the check finds lost and torn writes" -- \
    "$DISKIO" --verify-durability "$d_listener" "$d_mnt/$file"
cp "$t_scratch/stdout" "$t_scratch/report"
d_expect_counts "$t_scratch/report" "reordered write-back" acknowledged=8 present=2 torn=1 \
    lost=5 later=0 unacknowledged=0
grep -q '^verdict: LOST 6 acknowledged writes (5 lost, 1 torn)$' "$t_scratch/report" &&
    t_ok "verdict LOST 6" || t_fail "verdict: $(cat "$t_scratch/report")"
grep -q 'the run did not end' "$t_scratch/report" && t_ok "the check says the run did not end" ||
    t_fail "report: $(cat "$t_scratch/report")"
t_done
