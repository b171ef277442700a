#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio-compare and diskio-correlate write every format for every kind of result.
#
# diskio-compare (text, markdown, csv, json) and
# diskio-correlate (the same four, with --details) on real results of
# every kind diskio writes, two labels each: a suite (crystal, smoke
# form), a --jobs sweep, the read modes (uncached and --cached), --repeat
# repetitions, an --interval series and a --durability run.  Every format
# of every kind exits 0 and is whole: the JSON parses and names each
# run's key (a suite's row included), the CSV has one row per ratio under
# its header, the markdown and the text have their headings; two
# --durability runs (whose run ids differ) are compared as one workload.
set -u
: "${DISKIO:?DISKIO not set}" "${top_builddir:?top_builddir not set}" "${top_srcdir:?top_srcdir not set}"
py=${PYTHON3:-python3}
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
        fail "the listener did not start ($(cat "$work/listener.log")): no --durability run"
    fi
else
    fail "no diskio-durable at \$DISKIO_DURABLE (${DISKIO_DURABLE:-unset}), yet make check builds it"
fi

# Every kind in every format, by both commands: one Python, each command
# run in a child forked from it (tests/lib/scriptlib.py's run_forked: a
# process of its own, without an interpreter's start each time); the
# environment directories diskio-correlate reads hold the result(s) and
# phase times (b 10% slower)
"$py" - "$work" "$top_srcdir" "$top_builddir" $kinds <<'PY' || status=1
import csv, io, json, os, shutil, sys
work, srcdir, builddir, kinds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
sys.path.insert(0, os.path.join(srcdir, "tests", "lib"))
from scriptlib import run_forked
COMPARE = os.path.join(builddir, "scripts", "diskio-compare")
CORRELATE = os.path.join(builddir, "scripts", "diskio-correlate")
with open(os.path.join(srcdir, "tests", "scripts", "fixtures", "env-c", "phases.csv"),
          encoding="utf-8") as f:
    phases = list(csv.reader(f))


def problems(kind, command, fmt, text):
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
    return bad


failed = 0
for kind in kinds:
    files = [os.path.join(work, f"{kind}-{label}.json") for label in "ab"]
    if kind == "reads":
        files += [os.path.join(work, f"reads-cached-{label}.json") for label in "ab"]
    envs = []
    for label, factor in (("a", 1.0), ("b", 1.1)):
        env = os.path.join(work, f"env-{kind}-{label}")
        os.mkdir(env)
        shutil.copy(os.path.join(work, f"{kind}-{label}.json"), os.path.join(env, "result.json"))
        if kind == "reads":
            shutil.copy(os.path.join(work, f"reads-cached-{label}.json"), env)
        with open(os.path.join(env, "phases.csv"), "w", encoding="utf-8") as out:
            out.write(",".join(phases[0]) + "\n" + "".join(
                f"{name},{float(value) * factor:g}\n" for name, value in phases[1:]))
        envs.append(env)
    for fmt in ("text", "markdown", "csv", "json"):
        for command, argv in (
                ("compare", [COMPARE, "--metrics", "all", "--format", fmt, *files]),
                ("correlate", [CORRELATE, "--details", "--metrics", "all", "--format", fmt,
                               *envs])):
            code, out, err = run_forked(*argv)
            if code != 0:
                print(f"FAIL: diskio-{command} --format {fmt} on {kind}: exit {code}: "
                      + err.decode("utf-8", "replace"))
                failed += 1
                continue
            bad = problems(kind, command, fmt, out.decode("utf-8"))
            print(("ok: " if not bad else "FAIL: ") + f"{command} {kind} --format {fmt}"
                  + (": " + "; ".join(bad) if bad else ""))
            failed += bool(bad)
sys.exit(1 if failed else 0)
PY
[ $status -eq 0 ] && echo "formats-every-kind: all checks passed"
exit $status
