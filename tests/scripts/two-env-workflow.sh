#!/bin/bash
# Description: the two-machine workflow runs end to end: measure, correlate, compare, plot.
#
# The two-machine workflow end to end with the real diskio binary: measure
# fsync and async in two directories (standing in for two machines), add
# each environment's DB phase timings, correlate (a one-screen summary, the
# details into a file in a directory it creates), plot.
# Needs $DISKIO (the built diskio: fails without it); skips (77) without gnuplot.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
python=${PYTHON:-python3}

if [ -z "${DISKIO:-}" ] || [ ! -x "${DISKIO}" ]; then
    echo "FAIL: \$DISKIO (${DISKIO:-unset}) is not an executable diskio, yet make check builds it"
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-workflow.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failures=0
check() {   # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}

for env in A B; do
    mkdir -p "$work/$env" "$work/target-$env"
    "$DISKIO" --mode fsync,async --count 200 --format json \
        --output "$work/$env/result.json" --label "$env" --quiet \
        "$work/target-$env" >"$work/$env.out" 2>"$work/$env.err"
    check "diskio run in environment $env exits 0" test $? -eq 0
    check "diskio wrote $env/result.json" test -s "$work/$env/result.json"
    check "diskio left no test file behind in target-$env" \
        test -z "$(ls -A "$work/target-$env")"
done
printf 'phase,seconds\nload,100\npower,20\nthroughput,40\n' >"$work/A/phases.csv"
printf 'phase,seconds\nload,130\npower,25\nthroughput,44\n' >"$work/B/phases.csv"

"$python" "$top_builddir/scripts/diskio-correlate" "$work/A" "$work/B" \
    >"$work/report.txt" 2>"$work/correlate.err"
check "diskio-correlate text report exits 0" test $? -eq 0
check "report compares B with baseline A" grep -q '^== B vs A (baseline) ==' "$work/report.txt"
check "report has a verdict for power" grep -q '^  power: 1.25× (slower); ' "$work/report.txt"
check "the summary fits one screen" test "$(wc -l <"$work/report.txt")" -le 40
"$python" "$top_builddir/scripts/diskio-correlate" --details --output "$work/out/details.txt" \
    "$work/A" "$work/B" 2>>"$work/correlate.err"
check "--details --output into a new directory exits 0" test $? -eq 0
check "details have fsync.mean_us" grep -q '^  metric  fsync.mean_us ' "$work/out/details.txt"
check "details have async.mean_us" grep -q '^  metric  async.mean_us ' "$work/out/details.txt"

"$python" "$top_builddir/scripts/diskio-correlate" --format json "$work/A" "$work/B" \
    >"$work/report.json" 2>>"$work/correlate.err"
check "diskio-correlate JSON report exits 0" test $? -eq 0
"$python" - "$work/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
comparison = report["comparisons"][0]
metrics = comparison["metrics"]
for name in ("fsync.mean_us", "async.mean_us", "fsync.sync_mean_us"):
    row = metrics[name]
    assert row["baseline"] > 0 and row["value"] > 0, name
    assert abs(row["ratio"] - row["value"] / row["baseline"]) < 1e-12, name
assert abs(comparison["phases"]["power"]["ratio"] - 1.25) < 1e-12
PY
check "JSON report: ratios of the measured means are value/baseline" test $? -eq 0

if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    echo "SKIP (plot part): gnuplot not found"
    [ "$failures" -eq 0 ] && exit 77 || exit 1
fi
mkdir "$work/plots"
"$python" "$top_builddir/scripts/diskio-plot" --outdir "$work/plots" \
    "$work/A/result.json" "$work/B/result.json" "$work/report.json" \
    >"$work/plot.out" 2>"$work/plot.err"
check "diskio-plot exits 0" test $? -eq 0
for chart in diskio-hist-fsync diskio-hist-async diskio-percentiles-fsync \
             diskio-percentiles-async diskio-ratios; do
    png="$work/plots/$chart.png"
    check "$chart.png is a PNG over 2 KB" \
        test "$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a \
        -a "$(wc -c <"$png" 2>/dev/null || echo 0)" -gt 2048
done

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed; stderr of the tools:"
    cat "$work"/*.err
    exit 1
fi
echo "all checks passed"
exit 0
