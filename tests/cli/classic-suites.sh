#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: each classic tool's table runs as a suite and prints its rows in the tool's order and units.
#
# the classic tools' tables as suites, each run in a smoke
# form (a small file, 50 ms rows, 2 runs a row): crystal (CrystalDiskMark
# 8), crystal-nvme (its NVMe SSD profile, RND4K Q32T16 as 16 jobs of 32 in
# flight on one file), crystal3 (CrystalDiskMark 3.0), xbench, hdparm
# (-tT), bonnie (bonnie++'s block rows) and thput-fsys.  Each parses and
# runs; its view prints the tool's rows and columns in the tool's order,
# each cell in the tool's unit (MB/s and IOPS, MiB/s, KiB/s, IOPS, B/s),
# and each cell is the summary of its row's runs in that unit as the JSON
# result's repetitions give it; the rows' runs have the parameters the
# tool's test has (threads as jobs, queue depth, block size, write-back).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
DISKIO_SUITE_PATH="${top_srcdir:-.}/suites"
export DISKIO_SUITE_PATH
dir="$t_scratch/target"
mkdir "$dir"
smoke="--suite-runs 2 --size 8m --runtime 0.05 --count 200 --warmup 1"

for suite in crystal crystal-nvme crystal3 xbench hdparm bonnie thput-fsys; do
    t_expect_status 0 "suite $suite, smoke form" -- "$DISKIO" --suite "$suite" $smoke \
        -o "$t_scratch/$suite.json" "$dir" || continue
    sed -n '/^suite /,$p' "$t_scratch/stdout" > "$t_scratch/$suite.view"
    "$PYTHON3" - "$suite" "$t_scratch/$suite.json" "$t_scratch/$suite.view" <<'PY' &&
import json, re, statistics, sys

name, result, view = sys.argv[1:4]
MB, MIB, KIB, B, IOPS = "MB/s", "MiB/s", "KiB/s", "B/s", "IOPS"
# per suite: rows in the tool's order, columns in its order, the unit of
# each row, and what the runs of some rows must be
CDM8 = ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]
EXPECT = {
    "crystal": (CDM8, ["read", "write"], {}, {
        "RND4K Q32T1": dict(iodepth=32, jobs=1, block_size=4096, pattern="rand")}),
    "crystal-nvme": (["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"],
                     ["read", "write"], {}, {
        "SEQ128K Q32T1": dict(iodepth=32, jobs=1, block_size=131072, pattern="seq"),
        "RND4K Q32T16": dict(iodepth=32, jobs=16, shared_file=True, block_size=4096,
                             pattern="rand")}),
    "crystal3": (["Seq", "512K", "4K", "4K QD32"], ["read", "write"], {}, {
        "Seq": dict(block_size=1 << 20, iodepth=1, pattern="seq"),
        "512K": dict(block_size=512 << 10, iodepth=1, pattern="rand"),
        "4K": dict(block_size=4096, iodepth=1, pattern="rand"),
        "4K QD32": dict(block_size=4096, iodepth=32, pattern="rand")}),
    "xbench": (["Sequential Uncached Write", "Sequential Uncached Read",
                "Random Uncached Write", "Random Uncached Read"],
               ["4K blocks", "256K blocks"], {}, {
        "Random Uncached Read": dict(pattern="rand", direction="read")}),
    "hdparm": (["Timing cached reads", "Timing buffered disk reads"], ["hdparm -tT"],
               {"Timing cached reads": MIB, "Timing buffered disk reads": MIB}, {
        "Timing cached reads": dict(cached=True, block_size=2 << 20),
        "Timing buffered disk reads": dict(cached=False, block_size=2 << 20)}),
    "bonnie": (["Sequential Output Block", "Sequential Output Rewrite",
                "Sequential Input Block", "Random Seeks"], ["bonnie++"],
               {"Sequential Output Block": KIB, "Sequential Output Rewrite": KIB,
                "Sequential Input Block": KIB, "Random Seeks": IOPS}, {
        "Sequential Output Block": dict(pattern="create", direction="write",
                                        block_size=8192),
        "Sequential Output Rewrite": dict(write_back=100, pattern="seq", block_size=8192),
        "Sequential Input Block": dict(write_back=0, pattern="seq", block_size=8192),
        "Random Seeks": dict(write_back=10, jobs=3, shared_file=True, pattern="rand")}),
    "thput-fsys": (["512", "1024", "8192", "65536", "262144", "1048576"], ["write", "read"],
                   {label: B for label in ["512", "1024", "8192", "65536", "262144", "1048576"]},
                   {"65536": dict(block_size=65536)}),
}
labels, columns, units, params = EXPECT[name]
doc = json.load(open(result))
suite = doc["suite"]
assert suite["name"] == name, suite["name"]
runs = {}
for row in suite["rows"]:
    assert row["run"] is not None, ("row not run", row)
    runs[(row["label"], row["column"])] = doc["runs"][row["run"]]

text = open(view, encoding="utf-8").read().splitlines()
header = text[1]
positions = [header.index("  " + c) for c in columns]
assert positions == sorted(positions), ("columns out of order", header, columns)
lines = text[2:2 + len(labels)]
got = [next((l for l in labels if line.startswith(l + "  ")), None) for line in lines]
assert got == labels, ("rows out of order", got, labels)

def value(rep, unit):
    seconds = rep["duration_ns"] / 1e9
    return {MB: rep["bytes"] / 1e6, MIB: rep["bytes"] / 2**20, KIB: rep["bytes"] / 1024,
            B: rep["bytes"], IOPS: rep["ops"]}[unit] / seconds

for label, line in zip(labels, lines):
    cells = re.findall(r"([0-9.]+)(?: ± ([0-9.]+))? (MB/s|MiB/s|KiB/s|B/s|IOPS)"
                       r"(?:\s+([0-9]+) IOPS)?", line[len(label):])
    assert len(cells) == len(columns), (label, line, cells)
    for column, (shown, sd, unit, iops) in zip(columns, cells):
        want_unit = units.get(label, MB)
        assert unit == want_unit, (label, column, unit, want_unit)
        run = runs[(label, column)]
        reps = run["repetitions"] or [run]
        values = [value(rep, unit) for rep in reps if rep["complete"]]
        best = suite["summary"] == "best"
        expect = max(values) if best else statistics.mean(values)
        decimals = 2 if unit in (MB, MIB) else 0
        assert abs(float(shown) - expect) <= 0.51 * 10 ** -decimals + 1e-9 * expect, \
            (label, column, shown, expect, values)
        if best and unit == MB:
            assert iops, (label, column, "no IOPS beside the best MB/s")
        for key, want in params.get(label, {}).items():
            assert run["parameters"][key] == want, (label, column, key, run["parameters"][key])
        if run["parameters"]["jobs"] > 1:
            assert len(run["per_job"]) == run["parameters"]["jobs"], (label, "per_job")
print("ok: %s: %d rows x %d columns in the tool's order and units, as the JSON's runs give"
      % (name, len(labels), len(columns)))
PY
        t_ok "suite $suite: the tool's rows, order and units" ||
        t_fail "suite $suite: $(cat "$t_scratch/$suite.view")"
done
t_expect_empty_dir "$dir" "the suites leave no test file behind"
t_done
