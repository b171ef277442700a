#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: on a store that writes its cache through on sync, every acknowledged write survives a cut.
#
# against a store that writes its cache through on every
# sync, every acknowledged write survives a power cut: each durable mode
# (the library's: t_modes durable; fsync also in groups of 4 writes per
# sync) runs with --durability, the store's daemon is killed
# (its cache lost), the store is mounted again from its backing file, and
# --verify-durability reports every acknowledged write present, 0 lost,
# 0 torn, verdict durable, exit 0; the run's table keeps its latencies,
# with the durability parameters beside them.  A cut in the middle of a
# run (the store killed while diskio writes) is durable too, and the
# check says that the run did not end.  Root, /dev/fuse and libfuse3
# (the lying store) needed; skips (77) otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
d_need_fuse

# shellcheck disable=SC2046
d_listen $(t_modes durable | sed 's/^/h-/') h-group h-cut

# durable_run ID MODE DISKIO-OPTIONS...: a run on a fresh honest store,
# cut after it ended, checked on the remounted store
durable_run() {
    id=$1; mode=$2; shift 2
    rm -f "$t_scratch/backing"
    d_mount honest --cache-blocks 64
    t_expect_status 0 "$mode: the run with --durability" -- "$DISKIO" --durability "$d_listener" \
        --run-id "$id" --mode "$mode" --count 40 --size 512k --bs 4k "$@" "$d_mnt" || return
    grep -q "params durability.listener=$d_listener durability.run_id=$id durability.acknowledged=40" \
        "$t_scratch/stdout" && grep -q "^$mode[ /]" "$t_scratch/stdout" &&
        t_ok "$mode: the table has the run's latencies and its durability parameters" ||
        t_fail "$mode: table: $(cat "$t_scratch/stdout")"
    file=$(ls "$d_mnt")
    grep -q "the test file $d_mnt/$file is kept" "$t_scratch/stderr" &&
        t_ok "$mode: the test file is named as kept" ||
        t_fail "$mode: no word of the kept file: $(cat "$t_scratch/stderr")"
    d_power_cut
    d_mount honest
    [ -f "$d_mnt/$file" ] && t_ok "$mode: the test file survived the run" ||
        { t_fail "$mode: $d_mnt/$file is gone"; return; }
    t_expect_status 0 "$mode: the check after the cut says durable" -- \
        "$DISKIO" --verify-durability "$d_listener" "$d_mnt/$file"
    cp "$t_scratch/stdout" "$t_scratch/report"
    d_expect_counts "$t_scratch/report" "$mode" acknowledged=40 present=40 lost=0 torn=0
    grep -q '^verdict: durable (but no power cut since the run: nothing about the cache is shown)$' "$t_scratch/report" &&
        grep -q '^note: no power cut happened to this machine: it has not rebooted since the run' "$t_scratch/report" &&
        t_ok "$mode: verdict durable, and no reboot is said" ||
        t_fail "$mode: verdict: $(cat "$t_scratch/report")"
    d_power_cut
}

for mode in $(t_modes durable); do
    durable_run "h-$mode" "$mode"
done
durable_run h-group fsync --sync-every 4

# a cut during the run: the store dies under diskio, which stops
rm -f "$t_scratch/backing"
d_mount honest --cache-blocks 64
"$DISKIO" --durability "$d_listener" --run-id h-cut --mode fdatasync --runtime 60 --size 512k \
    --bs 4k --quiet "$d_mnt" >"$t_scratch/cut.out" 2>"$t_scratch/cut.err" &
dpid=$!
# until the listener holds 50 acknowledgements: no clock, a condition
for _ in $(seq 400); do
    [ "$(grep -c '^A ' "$d_acks/h-cut.acks" 2>/dev/null)" -ge 50 ] 2>/dev/null && break
    sleep 0.05
done
d_power_cut
wait $dpid
status=$?
[ "$status" -eq 1 ] && t_ok "the run cut in the middle stops with exit 1" ||
    t_fail "the cut run exited $status: $(cat "$t_scratch/cut.err")"
d_mount honest
file=$(ls "$d_mnt")
t_expect_status 0 "the check after a cut during the run says durable" -- \
    "$DISKIO" --verify-durability "$d_listener" --run-id h-cut "$d_mnt/$file"
cp "$t_scratch/stdout" "$t_scratch/report"
d_expect_counts "$t_scratch/report" "cut during the run" lost=0 torn=0
acked=$(d_field "acknowledged writes" "$t_scratch/report")
[ "${acked:-0}" -ge 50 ] && t_ok "the check has the $acked acknowledgements of the cut run" ||
    t_fail "acknowledged writes: $acked"
grep -q 'acknowledged writes: .*the run did not end' "$t_scratch/report" &&
    t_ok "the check says that the run did not end" ||
    t_fail "report: $(cat "$t_scratch/report")"
t_done
