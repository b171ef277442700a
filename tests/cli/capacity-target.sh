#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --target finds a serialised store's capacity (1 / service time) within 10%, with its curve.
#
# A store written for the test (tests/lib/timed-store-preload.c,
# DISKIO_STORE=serial) takes 20 ms per sync, one at a time: its capacity
# is 50 syncs per second, and fdatasync's writes in memory add
# microseconds.  A search for the highest rate whose p90 stays within
# 30 ms (15 s of budget, points of 0.5 s) must find it within 10% of
# what the store gave flat out in the same run (near 50/s; less where a
# busy machine stretches the store's 20 ms) (a
# point 2% above the capacity queues past 30 ms in its half second,
# while a busy machine's scheduling has 10 ms before a point misses):
# confirmed, its answer the confirming run's rate (the run in the
# result), the saturation point first and the confirming run last, every
# point's offered and achieved rate and latencies kept (the curve: the
# missed points above the answer, their p90 past the target), the
# budget recorded and the points' runtimes within it.  The answer and
# the curve are in the table; each step is said on stderr.  --target is
# refused with what it cannot go with (--rate, --count, --steady,
# --trace, aio, --jobs of a plain pattern) and a spec it cannot read,
# naming it.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read the JSON"; exit 77; }
store="${top_builddir:-.}/tests/.libs/timed-store-preload.so"
t_built "$store"
t_memory_dir
dir="$t_memory"

t_expect_status 0 "a search on a store of 20 ms per sync" -- env LD_PRELOAD="$store" \
    DISKIO_STORE=serial DISKIO_STORE_BASE_US=20000 "$DISKIO" --mode fdatasync --size 1m \
    --target p90=30ms,time=15s,point=0.5s --output "$t_scratch/capacity.json" "$dir" || t_done
grep -q "^  ^ capacity at p90 <= 30.0 ms: .* ops/s with 1 committer" "$t_scratch/stdout" &&
    t_ok "the table gives the answer" || t_fail "the table: $(cat "$t_scratch/stdout")"
grep -q "committers    offered/s   achieved/s" "$t_scratch/stdout" &&
    t_ok "and the curve" || t_fail "no curve in the table"
grep -q "^diskio: --target p90=30 ms: fdatasync 8192 B x1: saturation: as fast as it can" \
    "$t_scratch/stderr" && t_ok "the steps are said" || t_fail "stderr: $(cat "$t_scratch/stderr")"

"$PYTHON3" - "$t_scratch/capacity.json" <<'PY' || t_fail "the capacity"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
c = run["capacity"]
steps = c["steps"]
rate = lambda v: "none" if v is None else "%.1f/s" % v
print("capacity %s (missed at %s), confirmed %s, %d steps in %.1f s"
      % (rate(c["ops_per_s"]), rate(c["high_ops_per_s"]), c["confirmed"], len(steps),
         c["duration_ns"] / 1e9))
for s in steps:
    print("  %-10s offered %7s achieved %6.1f p90 %6.1f ms %s"
          % (s["phase"], "%.1f" % s["offered_ops_per_s"] if s["offered_ops_per_s"] else "max",
             s["achieved_ops_per_s"], s["pct_ns"] / 1e6, "met" if s["met"] else "missed"))
# whatever the machine did: the search's record
assert (c["percentile"], c["target_ns"], c["budget_ns"]) == (90, 30 * 10**6, 15 * 10**9)
assert steps[0]["phase"] == "saturation" and steps[0]["offered_ops_per_s"] is None
# what the search planned fits its budget
assert sum(s["duration_ns"] for s in steps) <= c["budget_ns"]


def accurate():
    assert c["found"] and c["confirmed"]
    # the store's capacity is 50/s where its 20 ms are 20 ms; on a busy
    # machine a sync takes longer, and the rate the store gave when driven
    # flat out (the saturation point) is its capacity in this run: the
    # answer is within 10% of that, and that near 50/s
    saturated = steps[0]["achieved_ops_per_s"]
    assert 40.0 <= saturated <= 55.0, "the store gave %.1f/s flat out, not about 50" % saturated
    assert 0.9 * saturated <= c["ops_per_s"] <= 1.1 * saturated, \
        "%.1f/s not within 10%% of the store's %.1f/s" % (c["ops_per_s"], saturated)
    assert steps[-1]["phase"] == "confirm" and steps[-1]["met"]
    assert steps[-1]["offered_ops_per_s"] == c["ops_per_s"]
    # the run is the confirming run, at the answer
    assert abs(run["parameters"]["rate_ops_per_s"] - c["ops_per_s"]) < 1e-6 * c["ops_per_s"]
    assert run["ops"] == steps[-1]["ops"]
    # the curve: what missed above the answer missed by its p90
    missed = [s for s in steps if s["phase"] == "search" and not s["met"]]
    assert missed and all(s["offered_ops_per_s"] > c["ops_per_s"] for s in missed)
    assert all(s["pct_ns"] > c["target_ns"] for s in missed if s["error"] is None)
    above = [s["offered_ops_per_s"] for s in steps if not s["met"] and s["offered_ops_per_s"]
             and s["offered_ops_per_s"] > c["ops_per_s"]]
    assert c["high_ops_per_s"] == min(above)


try:
    accurate()
except AssertionError:
    # 10 ms of scheduling is the margin a p90 of 30 ms leaves over 20 ms
    # syncs: a machine that took more was busy, and the run says so
    # itself; the search's accuracy is then bench/capacity-search's, on
    # a quiet machine.  A run not disturbed has no such excuse.
    if not run.get("disturbed"):
        raise
    why = "; ".join(d.get("reason", str(d)) if isinstance(d, dict) else str(d)
                    for d in run.get("disturbances", [])[:2])
    assert c["found"] or c["ops_per_s"] is None
    print("note: the machine was busy during the search, and the run says so (%s): "
          "its accuracy is judged by bench/capacity-search on a quiet machine" % why)
PY

t_expect_status 2 "--target with --rate" -- "$DISKIO" --target p99=2ms --rate 100 "$dir"
grep -q "does not go with --rate" "$t_scratch/stderr" && t_ok "said" ||
    t_fail "not said: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--target with --count" -- "$DISKIO" --target p99=2ms --count 100 "$dir"
grep -q "does not go with --count" "$t_scratch/stderr" && t_ok "said" ||
    t_fail "not said: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--target with --steady" -- "$DISKIO" --target p99=2ms --steady "$dir"
grep -q "does not go with --steady" "$t_scratch/stderr" && t_ok "said" ||
    t_fail "not said: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--target with --trace" -- "$DISKIO" --target p99=2ms --trace "$t_scratch/t.csv" \
    "$dir"
grep -q "does not go with --trace" "$t_scratch/stderr" && t_ok "said" ||
    t_fail "not said: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--target in a queued mode" -- "$DISKIO" --target p99=2ms --mode aio "$dir"
grep -q "^diskio: --target (it offers a fixed rate): applies to the synchronous modes" \
    "$t_scratch/stderr" && t_ok "said" || t_fail "not said: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--target with jobs of a plain pattern" -- "$DISKIO" --target p99=2ms \
    --mode fsync --jobs 1,4 "$dir"
grep -q "or --pattern wal" "$t_scratch/stderr" && t_ok "said" ||
    t_fail "not said: $(cat "$t_scratch/stderr")"
t_expect_status 2 "a spec without a percentile" -- "$DISKIO" --target 2ms "$dir"
grep -q "'2ms' is not pP=DURATION" "$t_scratch/stderr" && t_ok "named" ||
    t_fail "not named: $(cat "$t_scratch/stderr")"
t_expect_status 2 "an unknown spec key" -- "$DISKIO" --target p99=2ms,budget=3s "$dir"
grep -q "unknown key 'budget'" "$t_scratch/stderr" && t_ok "named" ||
    t_fail "not named: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$dir"
t_done
