#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --interval keeps each run's latency over time, through stalls, repeats, jobs and signals.
#
# A 0.6 s run at 0.1 s intervals has 6 intervals with increasing start times
# whose ops add up to the run's; the --interval-csv file has the same rows
# as the JSON; a queued mode (aio/uring) keeps a series too, a run at a
# fixed rate the corrected latencies; a stall of 1.2 s (the 5th fdatasync
# held up by a test preload) shows as at least three intervals with no op
# before an interval whose max is at least the stall, and the table says
# so under the run's row; stderr says where the series went; --repeat
# keeps every repetition's intervals; --format intervals prints the CSV;
# an interrupted run writes the series it measured; --jobs 3 merges the
# jobs' series interval by interval (they add up to the run's ops and
# bytes, and with every write held 10 ms by the preload each full interval
# holds more ops than one job can do in it); an existing --interval-csv
# file is refused (exit 3) and kept; bad values exit 2 naming --interval.
# Nothing here depends on how fast the machine is: the stall and the held
# writes are far longer than any scheduling delay.  The test files are
# 4 MiB or less (their size is not what is tested; a small one is filled
# sooner).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to parse JSON"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"

# ---- 0.6 s at 0.1 s: 6 intervals, ops adding up, JSON and CSV the same ----
t_expect_status 0 "--runtime 0.6s --interval 0.1" -- "$DISKIO" -q --size 4m --mode async --runtime 0.6s \
    --interval 0.1 --output "$t_scratch/r.json" --interval-csv "$t_scratch/iv.csv" "$dir" || t_done
t_expect_empty_dir "$dir" "test file removed"
t_expect_status 0 "the series' files are said" -- "$DISKIO" --size 4m --mode async --runtime 0.2s \
    --interval 0.1 --interval-csv "$t_scratch/said.csv" "$dir"
grep -q "the interval series is in $t_scratch/said.csv" "$t_scratch/stderr" &&
    t_ok "--interval-csv: where the series went" || t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_status 0 "--interval to the table only" -- "$DISKIO" --size 4m --mode async --runtime 0.2s \
    --interval 0.1 "$dir"
grep -q "give --output FILE.json or --interval-csv FILE" "$t_scratch/stderr" &&
    t_ok "a series kept nowhere is said" || t_fail "stderr: $(cat "$t_scratch/stderr")"
"$PYTHON3" - "$t_scratch/r.json" "$t_scratch/iv.csv" <<'PY' && t_ok "series: 6 intervals, ops add up, CSV = JSON" || t_fail "series checks"
import csv, json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
iv = r["intervals"]
assert iv["interval_ns"] == 100000000, iv["interval_ns"]
s = iv["series"]
assert len(s) == 6, [x["start_ns"] for x in s]
assert [x["start_ns"] for x in s] == [k * 100000000 for k in range(6)], s
assert all(x["duration_ns"] == 100000000 for x in s[:-1]), s
assert s[-1]["duration_ns"] >= 100000000, s[-1]
assert sum(x["ops"] for x in s) == r["ops"], (sum(x["ops"] for x in s), r["ops"])
assert sum(x["bytes"] for x in s) == r["bytes"]
# (an interval may be empty on a machine busy enough to hold one write
# for a tenth of a second: that is the machine's, not the series')
assert all(x["min_ns"] <= x["p50_ns"] <= x["p99_ns"] <= x["max_ns"] for x in s if x["ops"]), s
assert max(x["max_ns"] for x in s) == r["latency"]["total"]["max"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(s), (len(rows), len(s))
for row, x in zip(rows, s):
    assert row["mode"] == "async" and int(row["ops"]) == x["ops"], (row, x)
    assert abs(float(row["start_s"]) * 1e9 - x["start_ns"]) < 1, (row, x)
    assert int(row["p99_ns"]) == x["p99_ns"] and int(row["max_ns"]) == x["max_ns"], (row, x)
PY
t_expect_status 0 "without --interval" -- "$DISKIO" -q --size 4m --mode async --count 100 --format json "$dir" || t_done
grep -q '"intervals": null' "$t_scratch/stdout" && t_ok "no series without --interval" ||
    t_fail "a series without --interval"

# ---- a queued mode keeps a series too ----
for mode in uring aio; do
    # (the first that runs here: one op says whether it can)
    "$DISKIO" -q --mode $mode --count 1 --format json "$dir" >/dev/null 2>&1 || continue
    t_expect_status 0 "--mode $mode --interval 0.25" -- "$DISKIO" -q --size 4m --mode $mode --iodepth 4 \
        --runtime 1s --interval 0.25 --format json "$dir" || t_done
    "$PYTHON3" - "$t_scratch/stdout" <<'PY' && t_ok "$mode: 4 intervals, ops add up" || t_fail "$mode series"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
s = r["intervals"]["series"]
assert len(s) == 4 and sum(x["ops"] for x in s) == r["ops"], (len(s), r["ops"])
PY
    break
done

# ---- a fixed rate: the intervals hold the corrected latencies ----
t_expect_status 0 "--rate 400 --interval 0.25" -- "$DISKIO" -q --size 4m --mode fdatasync --rate 400 \
    --runtime 1s --interval 0.25 --format json "$dir" || t_done
"$PYTHON3" - "$t_scratch/stdout" <<'PY' && t_ok "rate: the series is of the total (corrected) latency" || t_fail "rate series"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
s = r["intervals"]["series"]
assert len(s) == 4 and sum(x["ops"] for x in s) == r["ops"], (len(s), r["ops"])
assert max(x["max_ns"] for x in s if x["ops"]) == r["latency"]["total"]["max"]
assert min(x["min_ns"] for x in s if x["ops"]) == r["latency"]["total"]["min"]
PY

# ---- a stall is visible: the 5th fdatasync stalls 1.2 s ----
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
if [ -f "$preload" ]; then
    t_expect_status 0 "a 1.2 s stall under --interval 0.25" -- env LD_PRELOAD="$preload" \
        DISKIO_TEST_STALL_AT=5 DISKIO_TEST_STALL_MS=1200 "$DISKIO" --size 4m --mode fdatasync \
        --warmup 0 --runtime 2.5s --interval 0.25 --output "$t_scratch/stall.json" "$dir" || t_done
    grep -q "^  ^ 10 intervals of 0.25 s: .*max [1-9]\.[0-9]* s in the interval at .*; [1-9][0-9]* with no op completed$" \
        "$t_scratch/stdout" && t_ok "the table says the stall" ||
        t_fail "no stall under the table: $(cat "$t_scratch/stdout")"
    "$PYTHON3" - "$t_scratch/stall.json" <<'PY' && t_ok "stall: 3 or more empty intervals, then max >= 1.2 s" || t_fail "stall not visible"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
s = r["intervals"]["series"]
assert len(s) == 10, len(s)
assert sum(x["ops"] for x in s) == r["ops"]
empty = [i for i, x in enumerate(s) if x["ops"] == 0]
assert all(s[i]["max_ns"] is None and s[i]["p99_ns"] is None for i in empty)
# the interval the stalled op ended in, and the 1.2 s before it: at least
# three whole intervals of 0.25 s in which no op could end (a slow disk
# may empty more intervals; it cannot fill these)
ends = [i for i, x in enumerate(s) if x["ops"] and x["max_ns"] >= 1200000000]
assert ends, [(x["ops"], x["max_ns"]) for x in s]
i = ends[0]
assert i >= 3 and all(s[k]["ops"] == 0 for k in range(i - 3, i)), [x["ops"] for x in s]
print("intervals without ops: %s; the stall ended in interval %d (max %.3f s)"
      % (empty, i, s[i]["max_ns"] / 1e9))
PY
else
    t_unbuilt "$preload"
fi

# ---- --repeat keeps every repetition's intervals ----
t_expect_status 0 "--repeat 2 --interval 0.25" -- "$DISKIO" -q --size 4m --mode async --runtime 0.5s \
    --interval 0.25 --repeat 2 --format json "$dir" || t_done
"$PYTHON3" - "$t_scratch/stdout" <<'PY' && t_ok "repeat: both repetitions' intervals" || t_fail "repeat series"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
s = r["intervals"]["series"]
assert [x["repetition"] for x in s] == [1, 1, 2, 2], s
starts = [x["start_ns"] for x in s]
assert starts == sorted(starts) and starts[2] >= starts[1] + 250000000, starts
assert sum(x["ops"] for x in s) == r["ops"]
PY

# ---- --format intervals: the series CSV on standard output ----
t_expect_status 0 "--format intervals" -- "$DISKIO" -q --size 4m --mode async --runtime 0.3s \
    --interval 0.1 --format intervals "$dir" || t_done
head -n 1 "$t_scratch/stdout" | grep -q "^label,mode,block_size,.*,repetition,interval,start_s," &&
    [ "$(grep -c ',async,' "$t_scratch/stdout")" -eq 3 ] && t_ok "3 interval rows on stdout" ||
    t_fail "--format intervals: $(cat "$t_scratch/stdout")"

# ---- interrupted: the series measured so far is written ----
t_spawn "$DISKIO" -q --mode fdatasync --runtime 60 --interval 0.1 --size 1m --output "$t_scratch/int.json" \
    --interval-csv "$t_scratch/int.csv" "$dir"
t_wait_for_file "$dir"
sleep 0.5
kill -s INT $t_pid
wait $t_pid
status=$?
[ $status -eq 130 ] && t_ok "SIGINT: exit 130" || t_fail "SIGINT: exit $status"
"$PYTHON3" - "$t_scratch/int.json" "$t_scratch/int.csv" <<'PY' && t_ok "interrupted: the series so far, in JSON and CSV" || t_fail "interrupted series"
import csv, json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
assert r["complete"] is False
s = r["intervals"]["series"]
assert 1 <= len(s) < 600 and sum(x["ops"] for x in s) == r["ops"] > 0, (len(s), r["ops"])
assert len(list(csv.DictReader(open(sys.argv[2])))) == len(s)
PY
t_expect_empty_dir "$dir" "test file removed after SIGINT"

# ---- an existing --interval-csv file: refused before measuring, kept ----
echo "mine" > "$t_scratch/mine.csv"
t_expect_status 3 "an existing --interval-csv" -- "$DISKIO" -q --mode async --runtime 0.2s \
    --interval 0.1 --interval-csv "$t_scratch/mine.csv" "$dir"
[ "$(cat "$t_scratch/mine.csv")" = "mine" ] && t_ok "the existing file is kept" ||
    t_fail "mine.csv changed"
t_expect_empty_dir "$dir" "nothing measured for a refused --interval-csv"

# ---- concurrent jobs: one series, the jobs' intervals merged ----
# every write of a test file is held 10 ms (the preload), so one job does
# at most 25 writes in an interval of 0.25 s, whatever the machine
if [ -f "$preload" ]; then
    slow_writes="env LD_PRELOAD=$preload DISKIO_TEST_SLOW_WRITE_US=10000"
else
    slow_writes=""
fi
# shellcheck disable=SC2086
t_expect_status 0 "--jobs 3 --interval 0.25" -- $slow_writes "$DISKIO" -q --mode async --bs 64k \
    --size 1m --jobs 3 --runtime 1 --interval 0.25 --format json --output "$t_scratch/jobs.json" "$dir"
"$PYTHON3" - "$t_scratch/jobs.json" "$slow_writes" <<'PY' && t_ok "the jobs' series merged" || t_fail "jobs' series"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
held = bool(sys.argv[2])
series = run["intervals"]["series"]
print("jobs:", [j["ops"] for j in run["per_job"]], "intervals:", [iv["ops"] for iv in series])
assert len(series) in (4, 5), len(series)
assert sum(iv["ops"] for iv in series) == run["ops"], "ops do not add up"
assert sum(iv["bytes"] for iv in series) == run["bytes"], "bytes do not add up"
# each full interval holds the ops of more than one job: more than the
# 25 writes of 10 ms one job can do in 0.25 s
if held:
    assert all(iv["ops"] > 30 for iv in series[:4]), [iv["ops"] for iv in series]
PY
t_expect_empty_dir "$dir" "the jobs' files removed"

# ---- bad values: exit 2, the option named, nothing created ----
for bad in 0 -1 abc 5ms 4s 1x; do
    t_expect_status 2 "--interval $bad" -- "$DISKIO" --runtime 3s --interval "$bad" "$dir" || continue
    grep -q -- "--interval" "$t_scratch/stderr" && t_ok "--interval $bad named" ||
        t_fail "--interval $bad: $(cat "$t_scratch/stderr")"
done
t_expect_status 2 "more than 100000 intervals" -- "$DISKIO" --runtime 1001s --interval 10ms "$dir" &&
    grep -q -- "--interval: .*use at least 11 ms" "$t_scratch/stderr" && t_ok "the shortest is said"
t_expect_status 2 "--interval-csv without --interval" -- "$DISKIO" --interval-csv \
    "$t_scratch/x.csv" "$dir"
grep -q -- "--interval-csv" "$t_scratch/stderr" && t_ok "--interval-csv named" ||
    t_fail "--interval-csv: $(cat "$t_scratch/stderr")"
[ -e "$t_scratch/x.csv" ] && t_fail "x.csv created by a usage error"
t_expect_empty_dir "$dir" "nothing left in the target"
t_done
