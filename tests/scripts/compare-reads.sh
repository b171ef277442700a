#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio-compare matches real read runs only with runs of the same mode and cache.
#
# diskio-compare on real results of the read modes matches a
# read run only with a read run of the same mode and cache: two labels
# each run read (uncached), read --cached on one side only, direct-read
# and async; read, direct-read and async are compared (the runs carry
# direction "read" or "write"), the cached read has no counterpart and is
# listed as missing, never set against the uncached one (whose latencies
# differ by the device's), and diskio-correlate names the cached run
# apart (read@cached) even when it comes from another file of the same
# environment, where a run of the same name would be a repetition.
set -u
: "${DISKIO:?DISKIO not set}" "${top_builddir:?top_builddir not set}"
compare="${PYTHON3:-python3} $top_builddir/scripts/diskio-compare"
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-compare-reads.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT INT TERM
status=0
fail() { echo "FAIL: $*"; status=1; }

mkdir "$work/t" "$work/b"
common="--quiet --count 100 --size 1m --bs 4k --pattern rand"
for label in a b; do
    # shellcheck disable=SC2086
    "$DISKIO" $common --mode read,direct-read,async --label "$label" \
        --output "$work/$label.json" "$work/t" || fail "diskio ($label) exited $?"
done
# shellcheck disable=SC2086
"$DISKIO" $common --mode read --cached --label a --output "$work/a-cached.json" "$work/t" ||
    fail "diskio --cached exited $?"

$compare --format json "$work/a.json" "$work/a-cached.json" "$work/b.json" \
    >"$work/report.json" || fail "diskio-compare exited $?"
"${PYTHON3:-python3}" - "$work/report.json" <<'PY' || status=1
import json, sys
doc = json.load(open(sys.argv[1]))
pairs = sorted({(c["run"]["mode"], c["run"]["cached"]) for c in doc["comparisons"]})
print("compared:", pairs)
bad = []
if pairs != [("async", False), ("direct-read", False), ("read", False)]:
    bad.append(f"compared {pairs}, expected async, direct-read and uncached read")
for c in doc["comparisons"]:
    if c["run"]["mode"] == "read" and len(c["baseline_values"]) != 1:
        bad.append("the cached read was taken as a repetition of the uncached one")
missing = json.dumps(doc.get("missing"))
print("missing:", missing)
if "cached" not in missing:
    bad.append("the cached read is not listed as missing its counterpart")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY

# diskio-correlate's names: the two reads of label a apart
mkdir "$work/env-a"
cp "$work/a.json" "$work/a-cached.json" "$work/env-a/"
"${PYTHON3:-python3}" - "$top_builddir/python" "$work/env-a" <<'PY' || status=1
import sys
sys.path.insert(0, sys.argv[1])
from diskio_analysis.correlate.environment import load_environment
env = load_environment(sys.argv[2], need_phases=False)
names = sorted(n for n in env.metrics if n.startswith("read") and n.endswith(".mean_us"))
print("metrics:", names)
ok = names == ["read.mean_us", "read@cached.mean_us"]
print(("ok: " if ok else "FAIL: ") + "cached and uncached reads have metrics of their own")
sys.exit(0 if ok else 1)
PY
[ $status -eq 0 ] && echo "compare-reads: all checks passed"
exit $status
