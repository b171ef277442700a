#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --repeat measures every run N times, interleaved, keeping each repetition's figures.
#
# --repeat N measures every run N times, interleaved (round 1
# of every mode and size, then round 2...): the result has one run per mode
# and size whose histograms merge all N and whose repetitions[] keep each
# one's figures in the order they ran; --trace writes a file per
# repetition; the table shows the repetitions' spread; an interrupted
# repetition keeps what was measured and marks the run incomplete.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to parse JSON"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
t_expect_status 0 "--repeat 3 over two modes and two sizes" -- "$DISKIO" --mode fdatasync,async \
    --bs 4k,8k --count 40 --size 256k --repeat 3 --output "$t_scratch/r.json" \
    --trace "$t_scratch/ops.csv" "$dir" || t_done
t_expect_empty_dir "$dir" "test file removed"
grep -q "3 repetitions, means from" "$t_scratch/stdout" ||
    t_fail "the table does not show the repetitions: $(cat "$t_scratch/stdout")"

"$PYTHON3" - "$t_scratch/r.json" <<'PY' || t_fail "JSON checks"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
assert [(r["mode"], r["parameters"]["block_size"]) for r in runs] == [
    ("fdatasync", 4096), ("async", 4096), ("fdatasync", 8192), ("async", 8192)], runs
for r in runs:
    reps = r["repetitions"]
    assert len(reps) == 3, reps
    assert all(x["complete"] and x["ops"] == 40 for x in reps)
    assert r["ops"] == 120 and r["latency"]["total"]["count"] == 120
    assert r["bytes"] == 120 * r["parameters"]["block_size"]
    assert r["duration_ns"] == sum(x["duration_ns"] for x in reps)
    assert min(x["latency"]["total"]["min"] for x in reps) == r["latency"]["total"]["min"]
    assert max(x["latency"]["total"]["max"] for x in reps) == r["latency"]["total"]["max"]
    mean = sum(x["latency"]["total"]["mean"] * x["ops"] for x in reps) / r["ops"]
    assert abs(mean - r["latency"]["total"]["mean"]) <= 1e-6 * mean, (mean, r)
# interleaved: every run's first repetition before any second one
order = sorted((x["start_offset_ns"], i, k) for i, r in enumerate(runs)
               for k, x in enumerate(r["repetitions"]))
assert [(i, k) for _, i, k in order] == [(i, k) for k in range(3) for i in range(4)], order
assert order[0][0] == 0
PY

for rep in 1 2 3; do
    for run in fdatasync-4096 async-4096 fdatasync-8192 async-8192; do
        f="$t_scratch/ops.$run-r$rep.csv"
        # a header and 40 rows
        [ "$(wc -l < "$f" 2>/dev/null)" = 41 ] || t_fail "trace $f: $(wc -l < "$f" 2>&1)"
    done
done
ls "$t_scratch"/ops.*.csv | grep -v -- '-r[123]\.csv$' && t_fail "a trace without its repetition"

# diskio-compare takes the repetitions of one result as its samples: a
# result compared with itself gets an interval from them, around 1, and
# is never called a change
if [ -f "${top_builddir:-.}/scripts/diskio-compare" ]; then
    cp "$t_scratch/r.json" "$t_scratch/again.json"
    sed 's/"label": null/"label": "again"/' "$t_scratch/r.json" > "$t_scratch/again.json"
    t_expect_status 0 "diskio-compare of --repeat results" -- "$PYTHON3" \
        "${top_builddir:-.}/scripts/diskio-compare" --format json "$t_scratch/r.json" \
        "$t_scratch/again.json"
    "$PYTHON3" - "$t_scratch/stdout" <<'PY' || t_fail "compare of the repetitions"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["comparisons"]
# one invocation a side: never a change; same only where the interval,
# widened by the default between-invocation noise, shows it
assert rows and all(c["verdict"] in ("same", "inconclusive", "disturbed")
                    for c in rows), rows
assert all(c["ratio"] == 1.0 for c in rows), rows
assert all(len(c["baseline_values"]) == 3 for c in rows), rows[0]
assert all(c["basis"] == "interval" for c in rows), rows[0]
PY
else
    t_unbuilt "${top_builddir:-.}/scripts/diskio-compare"
fi

# Interrupted during the second round: the runs keep the first round and
# what the second measured, and say they are incomplete.  The first
# round's end is seen, whatever the machine's load, by its last trace
# file getting its name (a trace is named when its run ends).
mkdir "$t_scratch/int" "$t_scratch/int-traces"
t_spawn "$DISKIO" --mode fdatasync,async --runtime 1 --size 256k --repeat 4 \
    --trace "$t_scratch/int-traces/t.csv" --output "$t_scratch/int.json" "$t_scratch/int"
waited=0
while [ ! -e "$t_scratch/int-traces/t.async-8192-r1.csv" ] && [ $waited -lt 600 ]; do
    sleep 0.1
    waited=$((waited + 1))
done
[ -e "$t_scratch/int-traces/t.async-8192-r1.csv" ] || t_fail "the first round did not end in 60 s"
sleep 0.3
kill -INT "$t_pid"
wait "$t_pid"
status=$?
[ "$status" -eq 130 ] || t_fail "interrupted --repeat: exit $status, expected 130"
t_expect_empty_dir "$t_scratch/int" "test file removed after the interrupt"
"$PYTHON3" - "$t_scratch/int.json" <<'PY' || t_fail "interrupted JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False
runs = d["runs"]
assert len(runs) == 2, runs
first = runs[0]["repetitions"]
assert len(first) >= 2 and first[0]["complete"], first
# the repetition the signal stopped is kept, marked incomplete (unless
# the signal fell between two runs); a run measured once has no list
for r in runs:
    reps = r["repetitions"] or [r]
    assert r["complete"] is all(x["complete"] for x in reps), r
assert sum(not x["complete"] for r in runs for x in r["repetitions"] or [r]) <= 1
PY
t_done
