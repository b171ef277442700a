#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --steady calls a rising disk not steady with its trend, and steady on its plateau or baseline.
#
# A store written for the test (tests/lib/timed-store-preload.c) whose
# sync latency is known at every moment:
#  - rising from 2 ms to 8 ms over 2.5 s, then flat: a run that ends
#    while it rises (2 s) is NOT STEADY, its trend rising (by how much a
#    minute: positive), with no steady figures; one given 20 s is steady
#    on the plateau, its window ending after the rise, its steady figures
#    the plateau's (within 15%) and above the whole run's, and it ended
#    there (its intervals end before the runtime);
#  - burst credits: 1 ms for 1 s, then its 6 ms baseline: with a ramp of
#    1.5 s (the credits run out inside it) the steady window starts after
#    the ramp and its figures are the baseline's, while the whole run's
#    mean is the burst's and the baseline's mixed;
#  - the same spec given badly is refused naming the item, and a window
#    that cannot fit the runtime is refused before anything is made.
# Bounds are a factor of three or more from what a busy machine does
# (the store sleeps to an absolute deadline; a late wake-up only adds).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read the JSON"; exit 77; }
store="${top_builddir:-.}/tests/.libs/timed-store-preload.so"
t_built "$store"
t_memory_dir
dir="$t_memory"
common="--mode fdatasync --size 1m --warmup 2 --interval 250ms"

t_expect_status 0 "rising, ended while it rises" -- env LD_PRELOAD="$store" DISKIO_STORE=rise \
    DISKIO_STORE_BASE_US=2000 DISKIO_STORE_PEAK_US=8000 DISKIO_STORE_RISE_MS=2500 \
    "$DISKIO" $common --steady --runtime 2 --output "$t_scratch/rising.json" "$dir" || t_done
grep -q "NOT STEADY by the end of the run: .*mean rising by" "$t_scratch/stdout" &&
    t_ok "the table says not steady, and rising" ||
    t_fail "the table does not say not steady and rising: $(grep steady "$t_scratch/stdout")"
t_expect_status 0 "rising, then its plateau" -- env LD_PRELOAD="$store" DISKIO_STORE=rise \
    DISKIO_STORE_BASE_US=2000 DISKIO_STORE_PEAK_US=8000 DISKIO_STORE_RISE_MS=2500 \
    "$DISKIO" $common --steady --runtime 20 --output "$t_scratch/plateau.json" "$dir" || t_done
grep -q "steady after" "$t_scratch/stdout" && t_ok "the table says steady" ||
    t_fail "the table does not say steady: $(grep steady "$t_scratch/stdout")"
t_expect_status 0 "burst credits spent in the ramp" -- env LD_PRELOAD="$store" \
    DISKIO_STORE=burst DISKIO_STORE_PEAK_US=1000 DISKIO_STORE_BASE_US=6000 \
    DISKIO_STORE_RISE_MS=1000 "$DISKIO" $common --steady=ramp=1.5s --runtime 20 \
    --output "$t_scratch/burst.json" "$dir" || t_done

"$PYTHON3" - "$t_scratch" <<'PY' || t_fail "the steady states"
import json, os, sys
ms = 1e6
def run(name):
    return json.load(open(os.path.join(sys.argv[1], name + ".json")))["runs"][0]

rising = run("rising")
st = rising["steady"]
w = st["windows"][0]
print("rising: attained %s, trend %s %+.1f ms/min, range %.0f%%, slope %.0f%%"
      % (st["attained"], w["trend"], w["trend_per_min"] / ms, w["range_pct"], w["slope_pct"]))
assert rising["complete"]
assert not st["attained"] and not w["attained"], "called steady while it rises"
assert w["trend"] == "rising" and w["trend_per_min"] > 0 and w["trend_pct_per_min"] > 0
assert w["latency"] is None, "a window that is not steady has no steady figures"
assert (st["window"], st["range_limit_pct"], st["slope_limit_pct"]) == (5, 20, 10)

plateau = run("plateau")
st = plateau["steady"]
w = st["windows"][0]
series = plateau["intervals"]["series"]
steady_mean, whole_mean = w["latency"]["mean"], plateau["latency"]["total"]["mean"]
print("plateau: steady at %.2f s, window %.2f-%.2f s, mean %.2f ms (whole run %.2f ms)"
      % (w["end_ns"] / 1e9, w["start_ns"] / 1e9, w["end_ns"] / 1e9, steady_mean / ms,
         whole_mean / ms))
assert st["attained"] and w["attained"]
# never while it rises: the window ends after the rise (the store's clock
# starts at the warmup, a few ms before the run's)
assert w["end_ns"] >= 2.4e9, "steady before the rise ended"
assert 8 * ms * 0.85 <= steady_mean <= 8 * ms * 1.15, "not the plateau's figures"
assert whole_mean < steady_mean
assert series[w["first_interval"]]["start_ns"] == w["start_ns"]
# it ended at the steady window: no interval after the one running then
assert series[-1]["start_ns"] <= w["end_ns"] + st["interval_ns"], "it did not end when steady"
assert plateau["complete"] and plateau["error"] is None

burst = run("burst")
st = burst["steady"]
w = st["windows"][0]
steady_mean, whole_mean = w["latency"]["mean"], burst["latency"]["total"]["mean"]
print("burst: steady window %.2f-%.2f s, mean %.2f ms (whole run %.2f ms)"
      % (w["start_ns"] / 1e9, w["end_ns"] / 1e9, steady_mean / ms, whole_mean / ms))
assert st["attained"] and st["ramp_ns"] == 1500 * ms
assert w["start_ns"] >= st["ramp_ns"], "the window holds the ramp"
assert 6 * ms * 0.85 <= steady_mean <= 6 * ms * 1.15, "not the baseline's figures"
assert whole_mean < steady_mean * 0.95, "the burst is not in the whole run's figures"
PY
[ $? -eq 0 ] && t_ok "not steady while rising; the plateau's and the baseline's figures"

t_expect_status 2 "a bad spec item" -- "$DISKIO" --steady=window=1 "$dir"
grep -q "window='1'" "$t_scratch/stderr" && t_ok "named" || t_fail "not named: $(cat "$t_scratch/stderr")"
t_expect_status 2 "an unknown spec key" -- "$DISKIO" --steady=limit=5 "$dir"
grep -q "unknown key 'limit'" "$t_scratch/stderr" && t_ok "named" ||
    t_fail "not named: $(cat "$t_scratch/stderr")"
t_expect_status 2 "a window longer than the runtime" -- "$DISKIO" --steady --runtime 3 "$dir"
grep -q "more than the --runtime" "$t_scratch/stderr" && t_ok "said" ||
    t_fail "not said: $(cat "$t_scratch/stderr")"
t_expect_status 2 "steady on the wal pattern" -- "$DISKIO" --steady --pattern wal "$dir"
grep -q "steady does not apply" "$t_scratch/stderr" && t_ok "said" ||
    t_fail "not said: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$dir"
t_done
