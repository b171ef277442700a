#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: aio and uring write once per op, set up their queue before the run, trace between ops.
#
# On a loop device made here (4096-byte logical sectors, journaled ext4,
# its image in memory): at queue depth 1 and 32 each op is one device
# write (merges per op under 0.1, no "merged" verdict), as fio does with
# the same options (when fio is installed, device writes per op within
# 10% of fio's); with --batch 32 the block layer merges and the run says
# so; the queue's setup (AIO context, ring and its registered buffers),
# held 1 s by a test preload, is not in the run's time; a traced run at
# qd 8 writes every op once, and never writes its trace while a request
# is in flight (the preload watches io_submit, io_getevents and write).
# Needs root, losetup and mkfs.ext4; skipped otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
t_built "$preload"
t_loop_in_memory=1
t_loop_fs fs 300M
loop=$t_loop_dev
mnt="$t_scratch/fs"
name=${loop#/dev/}
uring=uring
"$DISKIO" --help | grep -q uring || uring=""

# device figures of each run, from the result
figures() {
    "${PYTHON3:-python3}" - "$1" <<'EOF'
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    d = run["device"]["total"]
    print(run["mode"], run["parameters"]["iodepth"], run["parameters"].get("batch"),
          run["ops"], d["writes"], d["write_merges"], d["writes_per_op"], d["merges_per_op"],
          " ".join(v["code"] for v in run["verdicts"]) or "-")
EOF
}

for qd in 1 32; do
    t_expect_status 0 "aio${uring:+,uring} qd$qd, default batch" -- "$DISKIO" --mode "aio${uring:+,$uring}" \
        --iodepth "$qd" --bs 8k --size 64M --count 4000 --format json \
        --output "$t_scratch/qd$qd.json" "$mnt"
    figures "$t_scratch/qd$qd.json" >"$t_scratch/qd$qd.txt" || t_fail "no device figures at qd$qd"
    while read -r mode depth batch ops writes merges wpo mpo verdicts; do
        echo "diskio $mode qd$depth batch $batch: $ops ops, $writes device writes, $merges merges"
        "${PYTHON3:-python3}" -c "import sys; sys.exit(not ($wpo >= 0.9 and $mpo < 0.1))" &&
            t_ok "$mode qd$depth: one device write per op ($wpo), merges per op $mpo" ||
            t_fail "$mode qd$depth: $wpo device writes and $mpo merges per op, not one write per op"
        [ "$batch" = 1 ] && t_ok "$mode qd$depth: batch 1 in the parameters" ||
            t_fail "$mode qd$depth: parameters.batch is $batch"
        case $verdicts in *merged*) t_fail "$mode qd$depth: merged verdict by default" ;; esac
        echo "$mode $qd $wpo" >>"$t_scratch/diskio-wpo"
    done <"$t_scratch/qd$qd.txt"
done

t_expect_status 0 "aio qd32 --batch 32" -- "$DISKIO" --mode aio --iodepth 32 --batch 32 --bs 8k \
    --size 64M --count 4000 --format json --output "$t_scratch/b32.json" "$mnt"
read -r mode depth batch ops writes merges wpo mpo verdicts <<EOF
$(figures "$t_scratch/b32.json")
EOF
echo "diskio aio qd32 batch $batch: $ops ops, $writes device writes, $merges merges"
"${PYTHON3:-python3}" -c "import sys; sys.exit(not ($mpo > 0.5))" &&
    t_ok "--batch 32: the block layer merged ($mpo merges per op)" ||
    t_fail "--batch 32: only $mpo merges per op; batched submissions should merge"
case $verdicts in *merged*) t_ok "--batch 32: the merged verdict" ;;
*) t_fail "--batch 32: no merged verdict ($verdicts)" ;; esac

t_expect_status 2 "--batch above --iodepth" -- "$DISKIO" --mode aio --iodepth 4 --batch 8 "$mnt"
grep -q -- "--batch" "$t_scratch/stderr" && t_ok "the error names --batch" ||
    t_fail "the error does not name --batch: $(cat "$t_scratch/stderr")"

# fio with the same options on the same device, when it is installed
if command -v fio >/dev/null 2>&1; then
    for engine in libaio${uring:+ io_uring}; do
        mode=aio
        [ "$engine" = io_uring ] && mode=uring
        for qd in 1 32; do
            before=$(awk '{print $5}' "/sys/block/$name/stat")
            fio --name=t --filename="$mnt/fio.dat" --rw=write --bs=8k --ioengine="$engine" \
                --iodepth="$qd" --direct=1 --size=64m --io_size=32m \
                --output-format=json --output="$t_scratch/fio.json" >/dev/null 2>&1 ||
                { t_fail "fio $engine qd$qd did not run"; continue; }
            after=$(awk '{print $5}' "/sys/block/$name/stat")
            ios=$("${PYTHON3:-python3}" -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0]['write']['total_ios'])" "$t_scratch/fio.json")
            fwpo=$("${PYTHON3:-python3}" -c "print(round(($after - $before) / $ios, 3))")
            dwpo=$(awk -v m="$mode" -v q="$qd" '$1 == m && $2 == q {print $3}' "$t_scratch/diskio-wpo")
            echo "fio $engine qd$qd: $ios ios, $((after - before)) device writes ($fwpo per op); diskio $dwpo"
            "${PYTHON3:-python3}" -c "import sys; sys.exit(not (abs($dwpo - $fwpo) <= 0.1 * $fwpo))" &&
                t_ok "$mode qd$qd: device writes per op $dwpo within 10% of fio's $fwpo" ||
                t_fail "$mode qd$qd: device writes per op $dwpo, fio $fwpo"
            rm -f "$mnt/fio.dat"
        done
    done
fi

# the AIO context and the ring (with its registered buffers) are set up
# before the run's clock starts: one op's run lasts that op.  The preload
# holds each setup call 1 s, so a setup inside the run's time would add a
# second to it.
setup_extra() {
    "${PYTHON3:-python3}" - "$1" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
print(f"{run['mode']}: run {run['duration_ns']} ns, its one op {run['latency']['total']['max']} ns",
      file=sys.stderr)
print(run["duration_ns"] - run["latency"]["total"]["max"])
EOF
}
for mode in aio $uring; do
    t_expect_status 0 "$mode: one op at iodepth 24, its setup held 1 s" -- env LD_PRELOAD="$preload" \
        DISKIO_TEST_SLOW_QUEUE_SETUP_MS=1000 "$DISKIO" --mode "$mode" --iodepth 24 --bs 8k \
        --size 8m --count 1 --warmup 0 --format json --output "$t_scratch/setup-$mode.json" "$mnt" ||
        continue
    extra=$(setup_extra "$t_scratch/setup-$mode.json") || { t_fail "$mode: no result"; continue; }
    if [ "$extra" -lt 500000000 ]; then
        t_ok "$mode: the run's time is its op's, not the queue's setup ($extra ns besides it)"
    else
        t_fail "$mode: the run's time holds $extra ns besides its op: the queue's setup"
    fi
done

# the trace: every op once, and no trace write while a request is in
# flight (a trace write there would delay the ops it times)
mkdir "$t_scratch/tracedir"
t_expect_status 0 "a traced aio run at qd8" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_REPORT_IN_FLIGHT_WRITES="$t_scratch/tracedir/" "$DISKIO" --mode aio \
    --iodepth 8 --bs 8k --size 64M --count 20000 --warmup 0 --trace "$t_scratch/tracedir/trace.csv" \
    --format json --output "$t_scratch/trace.json" "$mnt"
grep "fault-preload: write to" "$t_scratch/stderr" | head -n 3
grep -q "fault-preload: write to" "$t_scratch/stderr" &&
    t_fail "the trace was written while requests were in flight" ||
    t_ok "the trace is written only while no request is in flight"
"${PYTHON3:-python3}" - "$t_scratch/tracedir/trace.csv" <<'EOF' &&
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ops = sorted(int(r["op"]) for r in rows)
if ops != list(range(20000)):
    sys.exit(f"the trace has {len(ops)} rows, not ops 0..19999 once each")
if min(int(r["latency_ns"]) for r in rows) <= 0:
    sys.exit("a latency of 0 in the trace")
EOF
    t_ok "the trace holds every op once" || t_fail "the trace (above)"
t_done
