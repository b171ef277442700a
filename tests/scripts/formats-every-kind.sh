#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio-compare and diskio-correlate write every format for every kind of result.
#
# diskio-compare (text, markdown, csv, json) and
# diskio-correlate (the same four, with --details) on real results of
# every kind diskio writes, two labels each: a suite (crystal, smoke
# form), a --jobs sweep, the read modes (uncached and --cached), --repeat
# repetitions, an --interval series and a --durability run (when the
# listener can be started).  Every format of every kind exits 0 and is
# whole: the JSON parses and names each run's key (a suite's row
# included), the CSV has one row per ratio under its header, the
# markdown and the text have their headings; two --durability runs (whose
# run ids differ) are compared as one workload.
set -u
: "${DISKIO:?DISKIO not set}" "${top_builddir:?top_builddir not set}" "${top_srcdir:?top_srcdir not set}"
py=${PYTHON3:-python3}
compare="$py $top_builddir/scripts/diskio-compare"
correlate="$py $top_builddir/scripts/diskio-correlate"
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-formats.XXXXXX") || exit 99
lpid=""
cleanup() {
    [ -n "$lpid" ] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
status=0
fail() { echo "FAIL: $*"; status=1; }
mkdir "$work/t"

fast="--quiet --count 60 --warmup 1 --size 4m"
kinds="suite jobs reads repeat interval"
for label in a b; do
    # shellcheck disable=SC2086
    DISKIO_SUITE_PATH="$top_srcdir/suites" "$DISKIO" --suite crystal --suite-runs 2 --size 8m \
        --runtime 0.05 --count 100 --warmup 1 --quiet --label $label \
        -o "$work/suite-$label.json" "$work/t" >/dev/null || fail "suite ($label): exit $?"
    # shellcheck disable=SC2086
    "$DISKIO" $fast --mode fdatasync --jobs 1,2 --label $label -o "$work/jobs-$label.json" \
        "$work/t" || fail "jobs ($label): exit $?"
    # shellcheck disable=SC2086
    "$DISKIO" $fast --mode read,direct-read --bs 4k --pattern rand --label $label \
        -o "$work/reads-$label.json" "$work/t" || fail "reads ($label): exit $?"
    # shellcheck disable=SC2086
    "$DISKIO" $fast --mode read --cached --bs 4k --label $label \
        -o "$work/reads-cached-$label.json" "$work/t" || fail "reads --cached ($label): exit $?"
    # shellcheck disable=SC2086
    "$DISKIO" $fast --mode fsync,async --repeat 3 --label $label -o "$work/repeat-$label.json" \
        "$work/t" || fail "repeat ($label): exit $?"
    # shellcheck disable=SC2086
    "$DISKIO" --quiet --mode fdatasync --runtime 0.3 --interval 0.1 --warmup 1 --size 4m \
        --label $label -o "$work/interval-$label.json" "$work/t" || fail "interval ($label): exit $?"
done

# --durability: a listener on loopback, any free port
if [ -x "${DISKIO_DURABLE:-}" ]; then
    mkdir "$work/acks"
    "$DISKIO_DURABLE" listen --dir "$work/acks" --port 0 --expect run-a --expect run-b \
        >"$work/listener.log" 2>&1 &
    lpid=$!
    port=""
    for _ in $(seq 100); do
        port=$(sed -n 's/^diskio-durable: listening on 127\.0\.0\.1 port \([0-9]*\);.*/\1/p' \
            "$work/listener.log")
        [ -n "$port" ] && break
        sleep 0.05
    done
    if [ -n "$port" ]; then
        for label in a b; do
            mkdir "$work/d-$label"
            # shellcheck disable=SC2086
            "$DISKIO" $fast --mode fdatasync --durability "127.0.0.1:$port" --run-id "run-$label" \
                --label $label -o "$work/durability-$label.json" "$work/d-$label" 2>/dev/null ||
                fail "durability ($label): exit $?"
        done
        kinds="$kinds durability"
    else
        echo "note: the listener did not start ($(cat "$work/listener.log")); no --durability run"
    fi
else
    echo "note: no diskio-durable (\$DISKIO_DURABLE); no --durability run"
fi

check_output() { # KIND COMMAND FORMAT FILE
    "$py" - "$@" <<'PY'
import csv, json, sys
kind, command, fmt, path = sys.argv[1:5]
text = open(path, encoding="utf-8").read()
bad = []
if fmt == "json":
    doc = json.loads(text)
    if command == "compare":
        rows = doc["comparisons"]
        if not rows:
            bad.append("no comparison")
        for row in rows:
            keys = set(row["run"])
            want = {"mode", "block_size", "pattern", "iodepth", "sync_every", "batch",
                    "jobs", "shared_file", "cached", "suite_row", "capacity"}
            if keys != want:
                bad.append(f"run key {sorted(keys)}")
        if kind == "suite" and not all(r["run"]["suite_row"] for r in rows):
            bad.append("a suite's run without its row")
    elif not doc["comparisons"]:
        bad.append("no comparison")
elif fmt == "csv":
    rows = list(csv.reader(text.splitlines()))
    if len(rows) < 2 or any(len(r) != len(rows[0]) for r in rows):
        bad.append(f"{len(rows)} rows, not all as long as the header")
elif fmt == "markdown":
    if not text.startswith("# "):
        bad.append("no heading")
elif " vs " not in text:
    bad.append("no 'vs' line")
print(("ok: " if not bad else "FAIL: ") + f"{command} {kind} --format {fmt}"
      + (": " + "; ".join(bad) if bad else ""))
sys.exit(1 if bad else 0)
PY
}

for kind in $kinds; do
    files="$work/$kind-a.json $work/$kind-b.json"
    [ "$kind" = reads ] && files="$files $work/reads-cached-a.json $work/reads-cached-b.json"
    # the environment directories diskio-correlate reads: the result(s)
    # and phase times (b 10% slower)
    for label in a b; do
        mkdir "$work/env-$kind-$label"
        cp "$work/$kind-$label.json" "$work/env-$kind-$label/result.json"
        [ "$kind" = reads ] && cp "$work/reads-cached-$label.json" "$work/env-$kind-$label/"
        factor=1.0
        [ $label = b ] && factor=1.1
        awk -F, -v f=$factor 'NR == 1 { print; next } { printf "%s,%g\n", $1, $2 * f }' \
            "$top_srcdir/tests/scripts/fixtures/env-c/phases.csv" >"$work/env-$kind-$label/phases.csv"
    done
    for fmt in text markdown csv json; do
        out="$work/compare-$kind.$fmt"
        # shellcheck disable=SC2086
        if $compare --metrics all --format $fmt $files >"$out" 2>"$out.err"; then
            check_output "$kind" compare "$fmt" "$out" || status=1
        else
            fail "diskio-compare --format $fmt on $kind: exit $?: $(cat "$out.err")"
        fi
        out="$work/correlate-$kind.$fmt"
        if $correlate --details --metrics all --format $fmt "$work/env-$kind-a" \
            "$work/env-$kind-b" >"$out" 2>"$out.err"; then
            check_output "$kind" correlate "$fmt" "$out" || status=1
        else
            fail "diskio-correlate --format $fmt on $kind: exit $?: $(cat "$out.err")"
        fi
    done
done
[ $status -eq 0 ] && echo "formats-every-kind: all checks passed"
exit $status
