#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the table, JSON and CSV give each run's ops and MB/s as ops x block size over duration.
#
# the table has an ops column and the run's throughput in
# MB/s (10^6 bytes per second), the JSON's mb_per_s is the run's bytes
# over its duration (and ops x block size over it), the CSV has it too,
# and --mbps shows megabits per second (8 x MB/s) in the table while the
# JSON keeps MB/s.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PY=${PYTHON3:-python3}
dir="$t_scratch/dir"
mkdir "$dir"

t_expect_status 0 "a run with a JSON result" -- "$DISKIO" --mode async --bs 64k --count 500 \
    --size 4M --output "$t_scratch/r.json" "$dir"
grep -Eq '^mode +bs +ops +ops/s +MB/s +mean' "$t_scratch/stdout" &&
    t_ok "header: mode bs ops ops/s MB/s mean" ||
    t_fail "header: $(grep '^mode' "$t_scratch/stdout")"
"$PY" - "$t_scratch/r.json" "$t_scratch/stdout" <<'EOF' && t_ok "MB/s = ops x bs / duration, in the JSON and the table" || t_fail "MB/s figures"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
seconds = run["duration_ns"] / 1e9
expected = run["ops"] * run["parameters"]["block_size"] / 1e6 / seconds
assert run["ops"] == 500 and run["bytes"] == 500 * 65536, (run["ops"], run["bytes"])
assert abs(run["mb_per_s"] - expected) <= 1e-9 * expected, (run["mb_per_s"], expected)
assert abs(run["mb_per_s"] - run["ops_per_s"] * 65536 / 1e6) <= 1e-6 * expected
row = [line for line in open(sys.argv[2]) if line.startswith("async ")][0].split()
# async 64 KiB 500 OPS/S MB/S mean...
assert row[3] == "500", row
assert abs(float(row[5]) - expected) <= 0.01 * expected, (row, expected)
EOF

t_expect_status 0 "--mbps" -- "$DISKIO" --mode async --bs 64k --count 500 --size 4M --mbps \
    --output "$t_scratch/m.json" "$dir"
grep -Eq '^mode +bs +ops +ops/s +Mbit/s +mean' "$t_scratch/stdout" &&
    t_ok "header says Mbit/s" || t_fail "header: $(grep '^mode' "$t_scratch/stdout")"
"$PY" - "$t_scratch/m.json" "$t_scratch/stdout" <<'EOF' && t_ok "Mbit/s = 8 x MB/s; the JSON keeps MB/s" || t_fail "Mbit/s figures"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
expected = run["bytes"] / 1e6 / (run["duration_ns"] / 1e9)
assert abs(run["mb_per_s"] - expected) <= 1e-9 * expected
row = [line for line in open(sys.argv[2]) if line.startswith("async ")][0].split()
assert abs(float(row[5]) - 8 * expected) <= 0.01 * 8 * expected, (row, expected)
EOF

t_expect_status 0 "CSV" -- "$DISKIO" --mode async --bs 64k --count 100 --size 4M --format csv "$dir"
"$PY" - "$t_scratch/stdout" <<'EOF' && t_ok "CSV mb_per_s = ops x bs / duration_s" || t_fail "CSV mb_per_s"
import csv, sys
row = next(r for r in csv.DictReader(open(sys.argv[1])) if r["part"] == "total")
expected = int(row["ops"]) * int(row["block_size"]) / 1e6 / float(row["duration_s"])
assert abs(float(row["mb_per_s"]) - expected) <= 0.001 + 1e-4 * expected, (row["mb_per_s"], expected)
EOF
t_expect_empty_dir "$dir" "test file removed"
t_done
