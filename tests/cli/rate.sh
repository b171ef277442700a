#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --rate issues ops on a fixed schedule and measures each from
# when it was due.  One injected 300 ms stall (the 400th fdatasync, through
# a test preload) at 1000 ops/s holds up the ~300 ops due meanwhile: the
# corrected percentiles show it, the uncorrected service times hide it in
# a single op.  Without a stall the two agree and the rate is held.
. "${top_srcdir:-.}/tests/cli/lib.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read the JSON"; exit 77; }
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
[ -f "$preload" ] || { echo "SKIP: $preload not built"; exit 77; }
dir="$t_scratch/dir"
mkdir "$dir"

t_expect_status 0 "fixed rate with a stall" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_STALL_AT=400 DISKIO_TEST_STALL_MS=300 \
    "$DISKIO" --mode fdatasync --rate 1000 --count 2000 --warmup 0 --quiet \
    --output "$t_scratch/stall.json" "$dir" || t_done
t_expect_status 0 "fixed rate without a stall" -- "$DISKIO" --mode fdatasync --rate 200 \
    --count 400 --warmup 0 --output "$t_scratch/calm.json" "$dir" || t_done
grep -q "fixed rate 200.0/s" "$t_scratch/stdout" && t_ok "table states the rate" ||
    t_fail "table does not state the rate"

"$PYTHON3" - "$t_scratch/stall.json" "$t_scratch/calm.json" <<'PY' &&
import json, sys
stall = json.load(open(sys.argv[1]))["runs"][0]
calm = json.load(open(sys.argv[2]))["runs"][0]
ms = 1e6
for r, rate in ((stall, 1000.0), (calm, 200.0)):
    assert r["parameters"]["rate_ops_per_s"] == rate
    assert r["rate"]["requested_ops_per_s"] == rate
    assert r["latency"]["service"]["count"] == r["ops"] == r["latency"]["total"]["count"]
t, s = stall["latency"]["total"], stall["latency"]["service"]
print("stall: corrected p90 %.1f ms p99 %.1f ms; service p90 %.2f ms p99 %.2f ms max %.1f ms; "
      "max lag %.1f ms" % (t["p90"] / ms, t["p99"] / ms, s["p90"] / ms, s["p99"] / ms,
                           s["max"] / ms, stall["rate"]["max_start_lag_ns"] / ms))
# the stall itself: one op took >= 300 ms in both views
assert s["max"] >= 290 * ms and t["max"] >= 290 * ms
# the ~300 ops due during the stall waited: >10% of 2000 ops are late
assert t["p90"] >= 30 * ms, "corrected p90 does not show the stall"
assert t["p99"] >= 200 * ms, "corrected p99 does not show the stall"
# ... which the service times hide in a single op
assert s["p99"] < 30 * ms, "service p99 should not show a single stalled op"
assert stall["rate"]["max_start_lag_ns"] >= 250 * ms
ct, cs = calm["latency"]["total"], calm["latency"]["service"]
print("calm: corrected p50 %.3f ms, service p50 %.3f ms, held %s" %
      (ct["p50"] / ms, cs["p50"] / ms, calm["rate"]["held"]))
if calm["rate"]["held"]:
    # with no backlog an op is due when it starts: the two views agree
    assert ct["p50"] <= cs["p50"] * 1.5 + 0.2 * ms, "calm run: views disagree"
else:
    print("note: this machine could not hold 200 fdatasync/s just now; "
          "the calm comparison is not judged")
PY
    t_ok "corrected percentiles show the stall, service percentiles hide it" ||
    t_fail "rate checks"

t_expect_status 2 "--rate with aio refused" -- "$DISKIO" --mode aio --rate 100 "$dir"
t_expect_status 2 "--rate 0 refused" -- "$DISKIO" --mode fsync --rate 0 "$dir"
t_expect_empty_dir "$dir" "test file removed"
t_done
