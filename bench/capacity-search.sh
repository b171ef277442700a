#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --target's default search finds a serialised store's capacity within 10% in at most a minute.
#
# make check-slow: the end-to-end check of diskio --target with its
# defaults (a budget of 60 s, points of 2 s, a confirming run of 5 s), on
# the store tests/lib/timed-store-preload.c makes (DISKIO_STORE=serial:
# 10 ms per sync, one at a time, so 100 syncs per second at most) in a
# directory in memory.  The p99 target is 15 ms: at 1.5 service times a
# queue that grows for 2 s shows within a few percent above the
# capacity.  Judged: the capacity found within 10% of 100/s, confirmed,
# and the whole search (its wall time, as the result records it) within
# its minute.  Timings are judged here, which is why it is not in make
# check.  Exit 0 pass, 1 fail, 77 skip (no python3, the preload not
# built, no /dev/shm).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
store="${top_builddir:-.}/tests/.libs/timed-store-preload.so"
[ -f "$store" ] || { echo "SKIP: $store not built (make check builds it)"; exit 77; }
t_memory_dir

t_expect_status 0 "the default search" -- env LD_PRELOAD="$store" DISKIO_STORE=serial \
    DISKIO_STORE_BASE_US=10000 "$DISKIO" --mode fdatasync --size 1m --target p99=15ms \
    --output "$t_scratch/capacity.json" "$t_memory" || t_done
"$PYTHON3" - "$t_scratch/capacity.json" <<'PY' || t_fail "the capacity or the budget"
import json, sys
c = json.load(open(sys.argv[1]))["runs"][0]["capacity"]
print("capacity %.1f/s (computed: 100/s), confirmed %s, %d steps in %.1f s of a %.0f s budget"
      % (c["ops_per_s"] or 0, c["confirmed"], len(c["steps"]), c["duration_ns"] / 1e9,
         c["budget_ns"] / 1e9))
assert c["budget_ns"] == 60 * 10**9
assert c["found"] and c["confirmed"]
assert 90.0 <= c["ops_per_s"] <= 110.0, "not within 10% of 100/s"
assert c["duration_ns"] <= c["budget_ns"], "over its minute"
PY
t_done
