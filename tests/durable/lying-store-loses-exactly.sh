#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: on a store that acknowledges syncs without writing, the check counts exactly the writes lost.
#
# a store that acknowledges every sync without writing
# anything, and writes back only the oldest block when its 16-block cache
# is full, loses exactly its last 16 blocks at a power cut; the check
# counts exactly those: 16 acknowledged writes lost, 0 torn, the rest
# present, verdict "LOST 16 acknowledged writes", exit 4, the count the
# store itself reports as dirty at the cut.  Sequentially (each block
# written once) and at random offsets (blocks written again: only the
# last acknowledged write of a block is checked, and the ones written
# over are counted apart).  Root, /dev/fuse and libfuse3 (the lying
# store) needed; skips (77) otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
d_need_fuse

d_listen lie-seq lie-rand

# lie ID PATTERN: a run on a fresh lying store, then the cut and the check
lie() {
    id=$1; pattern=$2
    rm -f "$t_scratch/backing"
    d_mount lying --cache-blocks 16 --cache-block 4096
    t_expect_status 0 "$pattern: the run on the lying store completes" -- "$DISKIO" \
        --durability "$d_listener" --run-id "$id" --mode fdatasync --pattern "$pattern" \
        --seed 7 --count 100 --size 1m --bs 4k "$d_mnt" || return
    file=$(ls "$d_mnt")
    d_power_cut
    dirty=$(d_stat dirty_blocks)
    lied=$(d_stat lied_syncs)
    [ "$dirty" = 16 ] && [ "${lied:-0}" -ge 100 ] &&
        t_ok "$pattern: the store lied about $lied syncs and held 16 dirty blocks at the cut" ||
        t_fail "$pattern: store counters: $(cat "$t_scratch/stats")"
    d_mount honest
    t_expect_status 4 "$pattern: the check finds lost writes" -- \
        "$DISKIO" --verify-durability "$d_listener" "$d_mnt/$file"
    cp "$t_scratch/stdout" "$t_scratch/report-$pattern"
}

lie lie-seq seq
d_expect_counts "$t_scratch/report-seq" "seq" acknowledged=100 present=84 lost=16 torn=0 \
    later=0 overwritten=0 unacknowledged=0
grep -q '^verdict: LOST 16 acknowledged writes (16 lost, 0 torn)$' "$t_scratch/report-seq" &&
    t_ok "seq: verdict LOST 16" || t_fail "seq: verdict: $(cat "$t_scratch/report-seq")"
d_power_cut

lie lie-rand rand
# 100 writes at random over 256 blocks: some blocks written again, so
# fewer than 100 are checked; the 16 in the cache at the cut are lost
r=$t_scratch/report-rand
over=$(d_field "acknowledged, then overwritten by a later acknowledged write" "$r")
present=$(d_field "acknowledged and present" "$r")
d_expect_counts "$r" "rand" acknowledged=100 lost=16 torn=0 later=0 unacknowledged=0
[ "${over:-0}" -gt 0 ] && [ $((present + 16 + over)) -eq 100 ] &&
    t_ok "rand: $over acknowledged writes written over by the run, $present present, 16 lost" ||
    t_fail "rand: present $present + lost 16 + overwritten $over is not 100: $(cat "$r")"
grep -q '^verdict: LOST 16 acknowledged writes' "$r" && t_ok "rand: verdict LOST 16" ||
    t_fail "rand: verdict: $(cat "$r")"
t_done
