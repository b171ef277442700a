#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: percentile keys are one rule, the C library's and the analysis package's alike.
#
# the percentile keys and names diskio writes (the JSON's HIST and
# SUMMARY keys, the CSV's pN_ns columns, the table's header) are the ones
# diskio_analysis.result.percentile_key() derives from the same
# percentiles: the summary's five (p50 p90 p99 p99_9 p99_99, numbers in
# src/lib/result.c and result.py, keys derived in both) and --percentiles
# of every shape: out of order, one of the summary's, with ten
# significant digits and more, below 1e-4 (printed without an exponent)
# and 100.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
n=0
for list in 95,99.999,100,50 33.333333333333,1e-5,0.0001,12.5 \
    0.0000123456789012,99.99999999999,99.9,7; do
    n=$((n + 1))
    t_expect_status 0 "--percentiles $list, JSON" -- "$DISKIO" --mode fsync --count 20 \
        --size 256k --bs 4k --repeat 2 --percentiles "$list" --output "$t_scratch/$n.json" \
        --quiet "$dir"
    t_expect_status 0 "--percentiles $list, CSV and table" -- "$DISKIO" --mode async \
        --count 20 --size 256k --bs 4k --percentiles "$list" --output "$t_scratch/$n.csv" "$dir"
    cp "$t_scratch/stdout" "$t_scratch/$n.txt"
    "$PYTHON3" - "$list" "$t_scratch/$n" <<'PY' && t_ok "$list: the keys agree" ||
import json, sys
from diskio_analysis.result import (PERCENTILE_KEY, PERCENTILES, SUMMARY_PERCENTILES,
                                    percentile_key)
asked = sorted({float(p) for p in sys.argv[1].split(",")})
stem = sys.argv[2]
every = sorted(set(SUMMARY_PERCENTILES) | set(asked))
keys = [percentile_key(p) for p in every]

run = json.load(open(stem + ".json"))["runs"][0]
for part, hist in run["latency"].items():
    if hist:
        got = [k for k in hist if PERCENTILE_KEY.match(k)]
        assert got == keys, (part, got, keys)
for rep in run["repetitions"]:
    got = [k for k in rep["latency"]["total"] if PERCENTILE_KEY.match(k)]
    assert got == list(PERCENTILES), got

header = open(stem + ".csv").readline().rstrip("\n").split(",")
got = [c for c in header if c.startswith("p") and c.endswith("_ns")]
assert got == [k + "_ns" for k in keys], (got, keys)

table = next(line for line in open(stem + ".txt") if line.startswith("mode"))
names = [w for w in table.split() if w.startswith("p") and w[1:2].isdigit()]
assert names == [percentile_key(p, ".") for p in asked], (names, asked)
print("keys:", " ".join(keys))
PY
        t_fail "$list: the keys differ"
done
t_done
