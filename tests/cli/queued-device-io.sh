#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: aio and uring time one device write per op by default, and
# their trace is written only while nothing is in flight.  On a loop
# device made here (4096-byte logical sectors, journaled ext4): at queue
# depth 1 and 32 each op is one device write (merges per op under 0.1,
# no "merged" verdict), as fio does with the same options (when fio is
# installed, device writes per op within 10% of fio's); with --batch 32
# the block layer merges and the run says so; the queue's setup (AIO
# context, ring and its registered buffers) is not in the run's time; a
# traced run at qd 8
# writes every op once, and the ops completing right after each 4096-row
# trace write are not slower than the others (median ratio under 1.3).
# Needs root, losetup and mkfs.ext4; skipped otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
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
        --iodepth "$qd" --bs 8k --size 64M --runtime 1s --format json \
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
    --size 64M --runtime 1s --format json --output "$t_scratch/b32.json" "$mnt"
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
                --iodepth="$qd" --direct=1 --size=64m --runtime=1 --time_based \
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

# the AIO context and the ring (with 192 MiB of registered buffers) are
# set up before the run's clock starts: one op's run lasts that op.  Up
# to three attempts, the best kept: a setup inside the run's time is in
# every attempt, while a preemption between the start of the run and the
# submit (a parallel make check on two cores) is in one now and then.
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
    best=""
    for attempt in 1 2 3; do
        rm -f "$t_scratch/setup.json"
        t_expect_status 0 "$mode: one 8 MiB op at iodepth 24 (attempt $attempt)" -- "$DISKIO" \
            --mode "$mode" --iodepth 24 --bs 8m --size 192m --count 1 --warmup 0 --format json \
            --output "$t_scratch/setup.json" "$mnt" || break
        extra=$(setup_extra "$t_scratch/setup.json") || break
        if [ -z "$best" ] || [ "$extra" -lt "$best" ]; then best=$extra; fi
        [ "$best" -le 1000000 ] && break
    done
    if [ -n "$best" ] && [ "$best" -le 1000000 ]; then
        t_ok "$mode: the run's time is its op's, not the queue's setup ($best ns besides it)"
    else
        t_fail "$mode: the run's time includes more than 1 ms besides its op in every attempt (queue setup?)"
    fi
done

# the trace: every op once, and no op slower for a trace write.  Every
# attempt must trace every op once; the slowdown is judged on the best of
# up to three attempts, for the reason given for the setup check above (a
# trace write inside the ops' time was 2.7x in every run; a parallel make
# check on two cores has been seen to slow the ops after a drain to 1.35x
# once, where a quiet run gives 1.06x).
trace_ratio() {
    "${PYTHON3:-python3}" - "$1" 8 <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
qd = int(sys.argv[2])
ops = sorted(int(r["op"]) for r in rows)
if ops != list(range(len(ops))) or len(ops) != 40000:
    sys.exit(f"the trace has {len(ops)} rows, not ops 0..39999 once each")
lat = [int(r["latency_ns"]) for r in rows]
if min(lat) <= 0:
    sys.exit("a latency of 0 in the trace")
# rows are in completion order; a trace write follows every 4096 rows
after = [i for k in range(4096, len(lat), 4096) for i in range(k, min(k + qd, len(lat)))]
others = [lat[i] for i in range(len(lat)) if i not in set(after)]
ratio = statistics.median(lat[i] for i in after) / statistics.median(others)
print(f"ops completing right after a trace write: median {ratio:.2f}x the others'",
      file=sys.stderr)
print(f"{ratio:.3f}")
EOF
}
best=""
for attempt in 1 2 3; do
    rm -f "$t_scratch/trace.csv" "$t_scratch/trace.json"
    t_expect_status 0 "a traced aio run at qd8 (attempt $attempt)" -- "$DISKIO" --mode aio \
        --iodepth 8 --bs 8k --size 64M --count 40000 --warmup 0 --trace "$t_scratch/trace.csv" \
        --format json --output "$t_scratch/trace.json" "$mnt" || break
    ratio=$(trace_ratio "$t_scratch/trace.csv") || { t_fail "the trace (above)"; break; }
    best=$("${PYTHON3:-python3}" -c "import sys; print(min(float(x) for x in sys.argv[1:] if x))" \
        "$ratio" "$best")
    "${PYTHON3:-python3}" -c "import sys; sys.exit(float(sys.argv[1]) >= 1.3)" "$best" && break
done
if [ -n "$best" ] && "${PYTHON3:-python3}" -c "import sys; sys.exit(float(sys.argv[1]) >= 1.3)" "$best"; then
    t_ok "ops after a trace write are not slower (best median ratio ${best}x)"
else
    t_fail "ops after a trace write are ${best:-?}x slower (median) in every attempt"
fi
t_done
