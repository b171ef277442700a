#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: O_DIRECT that ext4 data=journal buffers is marked not direct; on plain ext4 it is not.
#
# ext4 mounted data=journal takes O_DIRECT and writes through the page
# cache all the same: the writes return at memory speed and reach the
# device later, and the row reads like a device's latency (with the
# journal's merges once called "merged").  On two loop devices made here,
# an ext4 with data=journal and a plain one, diskio --mode
# direct,direct-dsync --count 200: on the first, both rows end in
# "! not direct" with the kernel's evidence under them (STATX_DIOALIGN: no
# direct I/O for the file), the JSON's direct says honoured false from
# statx, the verdict is not_direct and never merged, and the CSV says
# false; on the plain ext4 nothing is marked and direct is honoured.
# diskio-compare of the two results makes no verdict on either row and
# says why.  Needs root, losetup and mkfs.ext4 (skipped otherwise), and a
# kernel that gives STATX_DIOALIGN for ext4 (Linux 6.1; skipped before).
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
case "$(uname -r)" in
[0-5].* | 6.0.*)
    echo "SKIP: Linux $(uname -r) gives no STATX_DIOALIGN (6.1 and later do)"
    exit 77
    ;;
esac
t_loop_fs journal 160M "" rw,data=journal
t_loop_fs plain 160M "" rw

t_expect_status 0 "direct, direct-dsync on ext4 data=journal" -- "$DISKIO" --label journal \
    --mode direct,direct-dsync --count 200 --output "$t_scratch/journal.json" \
    "$t_scratch/journal"
cp "$t_scratch/stdout" "$t_scratch/journal.txt"
cat "$t_scratch/journal.txt"
for mode in direct direct-dsync; do
    grep -Eq "^$mode .*  ! not direct" "$t_scratch/journal.txt" &&
        t_ok "data=journal: the $mode row is marked not direct" ||
        t_fail "data=journal: the $mode row is not marked not direct"
done
evidence="  ! not direct: the filesystem buffered these writes (statx: no direct I/O for this file, dio alignment 0)"
[ "$(grep -cxF "$evidence" "$t_scratch/journal.txt")" -eq 2 ] &&
    t_ok "data=journal: the statx evidence under both rows" ||
    t_fail "data=journal: not twice under the rows: $evidence"
grep -q "merged these requests" "$t_scratch/journal.txt" &&
    t_fail "data=journal: the journal's merges are still called the block layer's" ||
    t_ok "data=journal: no merged verdict"

t_expect_status 0 "direct as CSV on ext4 data=journal" -- "$DISKIO" --mode direct --count 50 \
    --quiet --output "$t_scratch/journal.csv" "$t_scratch/journal"

t_expect_status 0 "direct, direct-dsync on plain ext4" -- "$DISKIO" --label plain \
    --mode direct,direct-dsync --count 200 --output "$t_scratch/plain.json" "$t_scratch/plain"
cat "$t_scratch/stdout"
grep -q "not direct" "$t_scratch/stdout" &&
    t_fail "plain ext4: a row is marked not direct" ||
    t_ok "plain ext4: no row is marked not direct"

"${PYTHON3:-python3}" - "$t_scratch" <<'EOF' || t_fail "the results' direct (above)"
import csv, json, os, sys
scratch = sys.argv[1]
failures = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)

for name, honoured, align in (("journal", False, 0), ("plain", True, None)):
    doc = json.load(open(os.path.join(scratch, name + ".json")))
    for run in doc["runs"]:
        d, codes = run["direct"], [v["code"] for v in run["verdicts"]]
        what = f"{name} {run['mode']}"
        check(d is not None and d["honoured"] is honoured and d["source"] == "statx",
              f"{what}: direct.honoured {honoured} from statx ({d})")
        if align is not None:
            check(d["dio_offset_align"] == align, f"{what}: dio_offset_align {align}")
        else:
            check(d["dio_offset_align"] > 0, f"{what}: a dio_offset_align")
        check(("not_direct" in codes) is (not honoured), f"{what}: not_direct in {codes}")
        check("merged" not in codes, f"{what}: no merged verdict ({codes})")
rows = list(csv.DictReader(open(os.path.join(scratch, "journal.csv"))))
check(rows and rows[0]["direct_honoured"] == "false"
      and rows[0]["direct_evidence"].startswith("statx: no direct I/O"),
      f"CSV: direct_honoured false with the evidence ({rows[:1]})")
sys.exit(1 if failures else 0)
EOF

# the comparison makes no verdict on a row that was not direct on a side
compare="${top_builddir:-.}/scripts/diskio-compare"
t_expect_status 0 "diskio-compare plain journal" -- "${PYTHON3:-python3}" "$compare" \
    "$t_scratch/plain.json" "$t_scratch/journal.json"
cat "$t_scratch/stdout"
for run in "direct 8 KiB" "direct-dsync 8 KiB"; do
    grep -qF "$run: not direct on journal (the filesystem buffered it; journal: statx: no direct I/O for this file, dio alignment 0): no verdict" \
        "$t_scratch/stdout" && t_ok "compare: $run has no verdict, and the note says why" ||
        t_fail "compare: no note that $run was not direct"
    grep -Eq "^  $run +mean " "$t_scratch/stdout" &&
        t_fail "compare: $run has a row in the table" || t_ok "compare: no row for $run"
done
t_done
