#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: NAME=FILE names the sides of a comparison, and a side's other invocations leave its rows alone.
#
# Real diskio results of one directory and no label (an A/A test as a new
# user makes it): diskio-compare refuses them as one environment and
# says how to name the sides; A=aa1.json B=aa2.json compares them without
# editing, several files may share a name, ./x=y.json is a file and
# x=y.json (no such file y.json) is refused with that hint, an empty name
# is a usage error.  diskio-correlate names ENVDIRs the same way.  A
# second invocation of each side that measured other runs (--pattern
# wal) leaves the first runs' intervals, verdicts and advice exactly as
# they were, and its own runs are never widened by the busy machine's
# default merely because the wal pattern records no CPU figures when the
# side's other invocation did.  No advice asks for more than 30
# repetitions or 10 invocations.
set -u
: "${DISKIO:?DISKIO not set}" "${top_builddir:?top_builddir not set}"
py=${PYTHON3:-python3}
compare="$py $top_builddir/scripts/diskio-compare"
correlate="$py $top_builddir/scripts/diskio-correlate"
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-named.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT INT TERM
status=0
fail() { echo "FAIL: $*"; status=1; }

mkdir "$work/target" "$work/lab"
cd "$work/lab" || exit 99
for name in aa1 aa2 aa3; do
    "$DISKIO" --quiet --mode fsync,async --count 200 --size 1m --repeat 3 \
        -o "$name.json" "$work/target" >/dev/null || fail "diskio $name exited $?"
done
for name in wal1 wal2; do
    "$DISKIO" --quiet --pattern wal --mode fdatasync --count 100 --repeat 3 \
        -o "$name.json" "$work/target" >/dev/null || fail "diskio $name exited $?"
done

# one directory, no label: one environment, and the way out named
$compare aa1.json aa2.json >"$work/out" 2>"$work/err"
[ $? -eq 1 ] && grep -q "only one environment (lab)" "$work/err" &&
    grep -q "A=first.json B=second.json" "$work/err" ||
    fail "two results of one directory: $(cat "$work/err")"

$compare A=aa1.json B=aa2.json >"$work/out" 2>"$work/err" || fail "A=aa1.json B=aa2.json exited $?: $(cat "$work/err")"
grep -q "^B vs A (mean): " "$work/out" || fail "A/A named: $(head -1 "$work/out")"

$compare --format json A=aa1.json A=aa3.json B=aa2.json >"$work/two.json" ||
    fail "A=aa1.json A=aa3.json B=aa2.json exited $?"
"$py" - "$work/two.json" <<'PY' || status=1
import json, sys
doc = json.load(open(sys.argv[1]))
envs = {e["name"]: e["results"] for e in doc["environments"]}
fsync = [c for c in doc["comparisons"] if c["run"]["mode"] == "fsync"][0]
# both of A's files are its invocations; on a busy machine an invocation
# whose every repetition was disturbed is left out of the ratio (and
# left_out counts its repetitions), so only then may fewer remain
left = fsync["left_out"].get("baseline", 0)
if envs != {"A": ["aa1.json", "aa3.json"], "B": ["aa2.json"]} or \
        fsync["baseline_invocations"] != 2 and not (left and fsync["baseline_invocations"] == 1):
    print(f"FAIL: several files of one name: {envs}, {fsync['baseline_invocations']} "
          f"invocations ({left} disturbed repetitions left out)")
    sys.exit(1)
PY

cp aa2.json "x=y.json"
$compare A=aa1.json ./x=y.json >"$work/out" 2>"$work/err" ||
    fail "./x=y.json exited $?: $(cat "$work/err")"
grep -q "^lab vs A (mean): " "$work/out" || fail "./x=y.json: $(head -1 "$work/out")"
$compare A=aa1.json x=y.json >"$work/out" 2>"$work/err"
[ $? -eq 1 ] && grep -q "write ./x=y.json to read the file x=y.json" "$work/err" ||
    fail "x=y.json: $(cat "$work/err")"
$compare =aa1.json aa2.json >"$work/out" 2>"$work/err"
[ $? -eq 2 ] && grep -q "no name before '='" "$work/err" || fail "=aa1.json: $(cat "$work/err")"

# diskio-correlate: two ENVDIRs of one label
mkdir -p "$work/d1/run" "$work/d2/run"
"$DISKIO" --quiet --mode fsync --count 100 --size 1m --repeat 3 --label same \
    -o "$work/d1/run/r.json" "$work/target" >/dev/null || fail "diskio d1 exited $?"
"$DISKIO" --quiet --mode fsync --count 100 --size 1m --repeat 3 --label same \
    -o "$work/d2/run/r.json" "$work/target" >/dev/null || fail "diskio d2 exited $?"
$correlate "$work/d1/run" "$work/d2/run" >"$work/out" 2>"$work/err"
[ $? -eq 1 ] && grep -q "A=DIR1 B=DIR2" "$work/err" || fail "correlate, one label: $(cat "$work/err")"
$correlate "A=$work/d1/run" "B=$work/d2/run" >"$work/out" 2>"$work/err" ||
    fail "correlate A= B= exited $?: $(cat "$work/err")"
grep -q "^B vs A (mean): " "$work/out" || fail "correlate named: $(cat "$work/out")"

# a second invocation of other runs leaves the first runs' rows alone
$compare --format json --metrics mean,ops_per_s A=aa1.json B=aa2.json >"$work/first.json" ||
    fail "first invocations exited $?"
$compare --format json --metrics mean,ops_per_s A=aa1.json A=wal1.json \
    B=aa2.json B=wal2.json >"$work/more.json" || fail "with wal invocations exited $?"
$compare --metrics mean,ops_per_s A=aa1.json A=wal1.json B=aa2.json B=wal2.json \
    >"$work/more.txt" || fail "text with wal invocations exited $?"
"$py" - "$work/first.json" "$work/more.json" "$work/more.txt" <<'PY' || status=1
import json, re, sys
first, more = (json.load(open(p)) for p in sys.argv[1:3])
text = open(sys.argv[3]).read()
KEYS = ("ratio", "interval", "interval_90", "verdict", "undisturbed_verdict",
        "advice", "baseline_value", "other_value", "notes")
def rows(doc):
    return {(c["run_label"], c["metric"]): {k: c[k] for k in KEYS}
            for c in doc["comparisons"]}
bad = []
before, after = rows(first), rows(more)
for key, row in before.items():
    if after.get(key) != row:
        bad.append(f"{key} changed: {row} -> {after.get(key)}")
if not any("wal" in label for label, _ in after):
    bad.append(f"no wal rows: {sorted(after)}")
# the wal invocations recorded no CPU figures: their default is the
# side's other invocation's, whatever that is, and says so
default = {n: re.search(r"noise (\d+)%", n).group(1) for c in more["comparisons"]
           for n in c["notes"]}
for side, first_file, wal in (("A", "aa1.json", "wal1.json"), ("B", "aa2.json", "wal2.json")):
    notes = [n for n in default if n.startswith(f"{side}: ")]
    got = {f: default[n] for n in notes for f in (first_file, wal) if f"({f})" in n}
    if len(got) == 2 and got[first_file] != got[wal]:
        bad.append(f"{side}: {wal} widened otherwise than {first_file}: {notes}")
for n, r in re.findall(r"--repeat (\d+)|(\d+) invocations", text):
    if (n and int(n) > 30) or (r and int(r) > 10):
        bad.append(f"advice beyond the caps: {n or r}")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
exit $status
