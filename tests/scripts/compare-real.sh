#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio-compare on real results calls a disk slower than tmpfs, with its interval.
#
# diskio-compare on real diskio results: fsync on a disk-backed
# directory against fsync on tmpfs is called slower with an interval from
# the repetitions (five results per label, interleaved), async on the disk
# against itself gets an interval that holds 1, and every output format
# carries the same verdicts.  The verdict asserted is the median's: on a
# busy machine one stalled sync in a repetition moves that repetition's
# mean by an order of magnitude, and an honest interval over five means
# may then hold 1 (the mean is only asserted never to be called slower).  Skips (77) when there is no tmpfs at /dev/shm
# or the temporary directory is itself on tmpfs.
set -u
: "${DISKIO:?DISKIO not set}" "${top_builddir:?top_builddir not set}"
compare="${PYTHON3:-python3} $top_builddir/scripts/diskio-compare"
fstype() { stat -f -c %T "$1"; }
disk=$(mktemp -d "${TMPDIR:-/tmp}/diskio-compare-disk.XXXXXX") || exit 99
shm=$(mktemp -d /dev/shm/diskio-compare-shm.XXXXXX 2>/dev/null) || { rmdir "$disk"; echo "SKIP: no /dev/shm"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-compare-work.XXXXXX") || exit 99
trap 'rm -rf "$disk" "$shm" "$work"' EXIT INT TERM
[ "$(fstype "$shm")" = tmpfs ] || { echo "SKIP: /dev/shm is not tmpfs"; exit 77; }
[ "$(fstype "$disk")" != tmpfs ] || { echo "SKIP: ${TMPDIR:-/tmp} is tmpfs"; exit 77; }
status=0
fail() { echo "FAIL: $*"; status=1; }

for i in 1 2 3 4 5; do
    for where in disk shm; do
        eval dir=\$$where
        "$DISKIO" --quiet --mode fsync,async --count 200 --size 1m --label "$where" \
            --output "$work/$where-$i.json" "$dir" >/dev/null || fail "diskio on $where exited $?"
    done
done

$compare --metrics mean,p50 --format json "$work"/disk-*.json "$work"/shm-*.json \
    > "$work/report.json" || fail "diskio-compare exited $?"
"${PYTHON3:-python3}" - "$work/report.json" <<'PY' || status=1
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {(c["run"]["mode"], c["metric"]): c for c in doc["comparisons"]}
bad = []
for metric in ("p50", "mean"):
    fsync = rows[("fsync", metric)]
    print(f"fsync {metric} shm/disk {fsync['ratio']:.3g}x, interval {fsync['interval']}, "
          f"{fsync['verdict']}; disk {fsync['baseline_values']}, shm {fsync['other_values']}")
    if fsync["interval"] is None or len(fsync["other_values"]) != 5:
        bad.append("five repetitions per label gave no interval")
    elif not fsync["interval"][0] <= fsync["ratio"] <= fsync["interval"][1]:
        bad.append("the ratio lies outside its own interval")
# a machine busy enough to disturb the disk's repetitions makes the
# verdict "disturbed"; the numbers alone must still say faster
p50 = rows[("fsync", "p50")]
if p50["verdict"] != "faster" and not (p50["verdict"] == "disturbed"
                                       and p50["undisturbed_verdict"] == "faster"):
    bad.append("fsync p50 on tmpfs is not called faster than on the disk")
if rows[("fsync", "mean")]["verdict"] == "slower":
    bad.append("fsync mean on tmpfs is called slower than on the disk")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY

# the same environment against itself: an interval that holds 1 exactly,
# never a change (same where the interval shows it, else inconclusive or
# disturbed)
sed 's/"label": "disk"/"label": "again"/' "$work/disk-1.json" > "$work/again-1.json"
sed 's/"label": "disk"/"label": "again"/' "$work/disk-2.json" > "$work/again-2.json"
$compare "$work/disk-1.json" "$work/disk-2.json" "$work/again-1.json" "$work/again-2.json" \
    > "$work/self.txt" || fail "diskio-compare on identical results exited $?"
head -n 1 "$work/self.txt"
first=$(head -n 1 "$work/self.txt")
case $first in
    "again vs disk (mean): same in "*" of 2") ;;
    *) fail "identical results: $first" ;;
esac
case $first in
    *"slower in"* | *"faster in"*) fail "identical results called a change: $first" ;;
esac

# every format gives the same verdicts
for format in text markdown csv; do
    $compare --metrics p50 --format $format "$work"/disk-*.json "$work"/shm-*.json > "$work/out.$format" ||
        fail "--format $format exited $?"
done
grep -Eq "^shm vs disk \(p50\): (faster in fsync|.*disturbed in)" "$work/out.text" ||
    fail "text summary: $(head -n 1 "$work/out.text")"
grep -Eq "^shm,disk,fsync .*,p50,ns,.*,(faster|disturbed),[0-9]*," "$work/out.csv" ||
    fail "csv row for fsync"
grep -q "^| fsync " "$work/out.markdown" || fail "markdown table row for fsync"

# bad input: one environment only, and a file that is not a result
$compare "$work/disk-1.json" "$work/disk-2.json" > /dev/null 2> "$work/err"
[ $? -eq 1 ] && grep -q "only one environment" "$work/err" || fail "one environment: $(cat "$work/err")"
echo '{"schema": "something-else"}' > "$work/other.json"
$compare "$work/disk-1.json" "$work/other.json" > /dev/null 2> "$work/err"
[ $? -eq 1 ] && grep -q "not a diskio result" "$work/err" || fail "not a result: $(cat "$work/err")"
$compare --metrics nonsense "$work/disk-1.json" "$work/shm-1.json" > /dev/null 2> "$work/err"
[ $? -eq 2 ] || fail "--metrics nonsense is not a usage error"
[ $status -eq 0 ] && echo "compare-real: all checks passed"
exit $status
