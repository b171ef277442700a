#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: no two rows of the CSV share all its key columns, and the key list matches the docs.
#
# the CSV tells runs apart: its key columns (every parameter
# by which two runs of a result can differ) are the same list in the CSV,
# the intervals CSV, doc/result-schema.md and diskio-results(5), and no two rows
# share all of them and their part: a --jobs 1,2 run (jobs), two modes,
# --shared-file, a suite whose rows differ only in their label and column
# (suite_row, suite_column), a --repeat run (repetitions), and the
# intervals CSV of a --jobs 1,2 run (with repetition and interval).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
dir="$t_scratch/target"
mkdir "$dir"

t_expect_status 0 "--jobs 1,2, two modes, CSV" -- "$DISKIO" -q --mode fsync,async --jobs 1,2 \
    --count 20 --size 1m --format csv --output "$t_scratch/jobs.csv" "$dir" || t_done
t_expect_status 0 "--shared-file --jobs 2 and --repeat 2, CSV" -- "$DISKIO" -q --mode fsync \
    --jobs 1,2 --shared-file --repeat 2 --count 20 --size 1m --format csv \
    --output "$t_scratch/shared.csv" "$dir" || t_done
cat > "$t_scratch/twins.suite" <<'SUITE'
suite twins
runs 2
row "first"  a --mode fdatasync --bs 4k
row "first"  b --mode fdatasync --bs 4k
row "second" a --mode fdatasync --bs 4k
row "second" b --mode read --bs 4k
SUITE
t_expect_status 0 "a suite whose rows share their options, CSV" -- "$DISKIO" -q \
    --suite "$t_scratch/twins.suite" --count 20 --size 1m --format csv \
    --output "$t_scratch/suite.csv" "$dir" || t_done
t_expect_status 0 "--jobs 1,2 intervals" -- "$DISKIO" -q --mode fsync --jobs 1,2 \
    --runtime 0.3 --interval 0.1 --size 1m --format intervals \
    --output "$t_scratch/intervals.csv" "$dir" || t_done

"$PYTHON3" - "$t_scratch" "${top_srcdir:-.}" "${top_builddir:-.}" <<'PY' && t_ok "key columns" ||
import csv, os, re, sys
d, src, build = sys.argv[1:4]

def rows(name):
    with open(os.path.join(d, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))

header = next(csv.reader(open(os.path.join(d, "jobs.csv"), newline="")))
keys = header[:header.index("part")]
iv_header = next(csv.reader(open(os.path.join(d, "intervals.csv"), newline="")))
assert iv_header[:len(keys)] == keys, ("intervals CSV keys", iv_header, keys)

# the documented lists: doc/result-schema.md's table, diskio-results(5)'s header
doc = open(os.path.join(src, "doc", "result-schema.md"), encoding="utf-8").read()
section = doc[doc.index("## The CSV"):doc.index("## Strings")]
documented = re.findall(r"^\| `([a-z_]+)` \|", section, re.M)
assert documented == keys, ("doc/result-schema.md lists", documented, "the CSV has", keys)
man = open(os.path.join(build, "man", "diskio-results.5"), encoding="utf-8").read()
block = man[man.index(".SS CSV"):]
block = block[block.index(".EX") + 4:block.index(".EE")]
assert block.replace("\n", "").split(",") == header, ("diskio-results(5)", block, header)

def distinct(name, extra=()):
    rs = rows(name)
    assert rs, name
    seen = {}
    for i, r in enumerate(rs):
        k = tuple(r[c] for c in keys + list(extra))
        assert k not in seen, (name, "rows", seen[k], i, "share every key", k)
        seen[k] = i
    return rs

rs = distinct("jobs.csv", ("part",))
assert sorted({r["jobs"] for r in rs}) == ["1", "2"], rs
assert {r["mode"] for r in rs} == {"fsync", "async"}
assert all(r["suite_row"] == "" and r["direction"] == "write" for r in rs)
rs = distinct("shared.csv", ("part",))
assert {(r["jobs"], r["shared_file"]) for r in rs} == {("1", "true"), ("2", "true")}, rs
assert all(r["repetitions"] == "2" for r in rs), [r["repetitions"] for r in rs]
rs = distinct("suite.csv", ("part",))
cells = {(r["suite_row"], r["suite_column"]) for r in rs}
assert cells == {("first", "a"), ("first", "b"), ("second", "a"), ("second", "b")}, cells
assert all(r["repetitions"] == "2" for r in rs)
assert {r["direction"] for r in rs if r["suite_column"] == "b" and r["suite_row"] == "second"} == {"read"}
rs = distinct("intervals.csv", ("repetition", "interval"))
assert sorted({r["jobs"] for r in rs}) == ["1", "2"]
print("keys:", ",".join(keys))
PY
    t_fail "key columns"
t_done
