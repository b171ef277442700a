#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every repetition records when it ran, what else the machine did, and whether that disturbed it.
#
# every repetition of a run records when it ran and what else
# the machine did (other CPU, steal, run queue, pressure, dirty pages, the
# devices' foreign I/O), and whether that disturbed it, with each reason's
# figure and threshold; a run measured once carries the same at run
# level; the text table marks a disturbed run and says why on the line
# under it, and only then; --repeat-pause spaces the rounds.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to parse JSON"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
t_expect_status 0 "--repeat 3 --repeat-pause 200ms" -- "$DISKIO" --mode fdatasync,async \
    --count 30 --size 256k --repeat 3 --repeat-pause 200ms --output "$t_scratch/r.json" "$dir" ||
    t_done
cp "$t_scratch/stdout" "$t_scratch/table.txt"
t_expect_status 0 "a run measured once" -- "$DISKIO" --mode fdatasync --count 30 --size 256k \
    --output "$t_scratch/once.json" "$dir" || t_done
cp "$t_scratch/stdout" "$t_scratch/once.txt"

"$PYTHON3" - "$t_scratch/r.json" "$t_scratch/table.txt" "$t_scratch/once.json" \
    "$t_scratch/once.txt" <<'PY' || t_fail "interference checks"
import datetime, json, math, sys

REASONS = {"other_cpu": "CPUs", "run_delay": "share", "steal": "share",
           "cpu_pressure": "share", "memory_pressure": "share", "dirty": "MiB",
           "device_io": "share", "writeback": "share"}

def number(v, nullable=True):
    assert (v is None and nullable) or (isinstance(v, (int, float)) and
                                        not isinstance(v, bool) and math.isfinite(v)), v
    return v

def check_interference(f):
    assert set(f) == {"start_time", "wall_s", "cpus", "waits_for", "cpu", "thread",
                      "run_queue", "pressure", "memory", "devices"}, sorted(f)
    assert f["waits_for"] in ("cpu", "device")
    datetime.datetime.strptime(f["start_time"], "%Y-%m-%dT%H:%M:%S.%fZ")
    assert number(f["wall_s"], False) >= 0
    assert f["cpus"] is None or f["cpus"] >= 1
    assert set(f["cpu"]) == {"own_s", "other_s", "other_cpus", "steal_share", "resolution_s"}
    for v in f["cpu"].values():
        assert number(v) is None or v >= 0
    if f["cpu"]["steal_share"] is not None:
        assert f["cpu"]["steal_share"] <= 1
    if f["run_queue"] is not None:
        assert set(f["run_queue"]) == {"before", "after"}
        assert all(isinstance(v, int) and v >= 0 for v in f["run_queue"].values())
    if f["pressure"] is not None:
        assert set(f["pressure"]) == {f"{k}_{w}" for k in ("cpu", "io", "memory")
                                      for w in ("some", "full")}
        for v in f["pressure"].values():
            assert number(v) is None or 0 <= v <= 1, v
    if f["memory"] is not None:
        assert set(f["memory"]) == {"dirty_kib_before", "writeback_kib_before",
                                    "dirty_kib_after", "writeback_kib_after"}
        assert all(v is None or (isinstance(v, int) and v >= 0) for v in f["memory"].values())
    for d in f["devices"]:
        assert set(d) == {"name", "depth", "bytes", "foreign_bytes", "foreign_share"}
        assert d["name"] and 0 <= d["foreign_bytes"] <= d["bytes"] or d["bytes"] == 0
        assert 0 <= d["foreign_share"] <= 1

def check_disturbances(items, disturbed, repetition_key=False):
    assert disturbed == bool(items), (disturbed, items)
    for d in items:
        keys = {"reason", "figure", "threshold", "unit", "device", "message"}
        assert set(d) == keys | ({"repetition"} if repetition_key else set()), d
        assert REASONS[d["reason"]] == d["unit"]
        assert number(d["figure"], False) > number(d["threshold"], False)
        assert (d["device"] is not None) == (d["reason"] in ("device_io", "writeback"))
        assert "threshold" in d["message"]

d = json.load(open(sys.argv[1]))
table = open(sys.argv[2]).read()
for r in d["runs"]:
    reps = r["repetitions"]
    assert len(reps) == 3
    assert r["interference"] is None
    starts = []
    for x in reps:
        check_interference(x["interference"])
        assert x["start_time"] == x["interference"]["start_time"]
        starts.append(datetime.datetime.strptime(x["start_time"], "%Y-%m-%dT%H:%M:%S.%fZ"))
        check_disturbances(x["disturbances"], x["disturbed"])
    assert r["disturbed_repetitions"] == sum(x["disturbed"] for x in reps)
    assert r["disturbed"] == (r["disturbed_repetitions"] > 0)
    check_disturbances(r["disturbances"], r["disturbed"], repetition_key=True)
    assert sum(len(x["disturbances"]) for x in reps) == len(r["disturbances"])
# the rounds are 200 ms apart at least: each run's repetitions too
for r in d["runs"]:
    t = [datetime.datetime.strptime(x["start_time"], "%Y-%m-%dT%H:%M:%S.%fZ") for x in r["repetitions"]]
    assert all((b - a).total_seconds() >= 0.2 for a, b in zip(t, t[1:])), t
# the table: a mark on each disturbed run's row and a line saying why
rows = [l for l in table.splitlines() if l.startswith(("fdatasync ", "async "))]
for r, row in zip(d["runs"], rows):
    assert row.startswith(r["mode"])
    assert row.endswith("! disturbed") == r["disturbed"], (row, r["disturbed"])
lines = [l for l in table.splitlines() if l.startswith("  ! disturbed in ")]
assert len(lines) == sum(r["disturbed"] for r in d["runs"]), lines
for r in d["runs"]:
    if r["disturbed"]:
        assert any(f"{r['disturbed_repetitions']} of 3 repetitions" in l for l in lines)
        assert any(r["disturbances"][0]["message"] in l or "threshold" in l for l in lines)

once = json.load(open(sys.argv[3]))["runs"][0]
assert once["repetitions"] is None and once["disturbed_repetitions"] is None
check_interference(once["interference"])
check_disturbances(once["disturbances"], once["disturbed"])
once_table = open(sys.argv[4]).read()
assert ("  ! disturbed: " in once_table) == once["disturbed"]
print("interference ok:", [(r["mode"], r["disturbed_repetitions"]) for r in d["runs"]])
PY

t_expect_status 2 "--repeat-pause beyond an hour is refused" -- "$DISKIO" --repeat-pause 2h "$dir"
grep -q "repeat-pause: '2h' is not a duration from 0 to 1h" "$t_scratch/stderr" ||
    t_fail "the refusal does not name the option: $(cat "$t_scratch/stderr")"
t_done
