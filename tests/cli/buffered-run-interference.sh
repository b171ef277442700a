#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a buffered run records its threads' own wait for a CPU and no CPU figure beyond the machine's.
#
# real async runs (one job, and two jobs in threads) and a
# fdatasync run for contrast, with --repeat: every repetition's
# interference says what the mode's ops wait for (async: cpu, fdatasync:
# device), carries the measuring threads' figures (one set per job,
# where /proc/thread-self/schedstat is readable) with shares between 0
# and 1, and no impossible figure: other CPUs never beyond the machine's,
# null over a window shorter than the counters' resolution (an async
# repetition of a millisecond), steal at most 1; an async repetition is
# never called disturbed by the others' CPUs or another's device I/O
# when its own wait was measured; the table says under a run's row in
# how many repetitions the other CPUs were unknown.  No timing is judged.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to parse JSON"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
t_expect_status 0 "async and fdatasync, --repeat 3" -- "$DISKIO" --mode async,fdatasync \
    --count 200 --size 1m --repeat 3 --output "$t_scratch/one.json" "$dir" || t_done
cp "$t_scratch/stdout" "$t_scratch/one.txt"
# five syncs: a window /proc/stat rarely resolves, which the table says
t_expect_status 0 "fdatasync, five ops" -- "$DISKIO" --mode fdatasync --count 5 --size 1m \
    --repeat 3 --output "$t_scratch/short.json" "$dir" || t_done
cp "$t_scratch/stdout" "$t_scratch/short.txt"
t_expect_status 0 "async, two jobs" -- "$DISKIO" --mode async --jobs 2 --count 200 --size 1m \
    --repeat 2 --output "$t_scratch/jobs.json" "$dir" || t_done
schedstat=0
[ -r /proc/thread-self/schedstat ] && schedstat=1

"$PYTHON3" - "$t_scratch/one.json" "$t_scratch/jobs.json" "$schedstat" "$t_scratch/one.txt" \
    "$t_scratch/short.json" "$t_scratch/short.txt" <<'PY' ||
import json, sys

def check(run, jobs, schedstat):
    mode = run["mode"]
    for x in run["repetitions"]:
        f = x["interference"]
        assert f["waits_for"] == ("cpu" if mode == "async" else "device"), (mode, f)
        cpus, cpu = f["cpus"], f["cpu"]
        assert cpus and cpus >= 1, f
        if cpu["other_cpus"] is not None:
            assert 0 <= cpu["other_cpus"] <= cpus, (mode, cpu)
            assert 0 <= cpu["other_s"] <= f["wall_s"] * cpus + 1e-9, (mode, cpu)
            assert f["wall_s"] >= cpu["resolution_s"], (mode, f)
        else:
            assert cpu["other_s"] is None and cpu["steal_share"] is None, cpu
            # unknown only where the window is shorter than the counters resolve
            assert cpu["resolution_s"] is None or f["wall_s"] < cpu["resolution_s"], (mode, f)
        if cpu["steal_share"] is not None:
            assert 0 <= cpu["steal_share"] <= 1, cpu
        t = f["thread"]
        if schedstat:
            assert t is not None, (mode, f)
        if t is None:
            continue
        assert t["threads"] == jobs, (mode, t)
        for k in ("run_delay_share", "blocked_share"):
            assert t[k] is not None and 0 <= t[k] <= 1, (mode, t)
        for k in ("wall_s", "cpu_s", "run_delay_s"):
            assert t[k] is not None and t[k] >= 0, (mode, t)
        if mode == "async":
            reasons = {d["reason"] for d in x["disturbances"]}
            assert not reasons & {"other_cpu", "device_io"}, (mode, x["disturbances"])

one = json.load(open(sys.argv[1]))
jobs = json.load(open(sys.argv[2]))
schedstat = sys.argv[3] == "1"
assert [r["mode"] for r in one["runs"]] == ["async", "fdatasync"], one["runs"]
for r in one["runs"]:
    check(r, 1, schedstat)
check(jobs["runs"][0], 2, schedstat)
# the table says where a figure the rule needed was unknown, not invented
def says_unknown(result, text):
    table = open(text).read().splitlines()
    for r in result["runs"]:
        unknown = sum(1 for x in r["repetitions"]
                      if x["interference"]["cpu"]["other_cpus"] is None
                      and (x["interference"]["waits_for"] == "device"
                           or x["interference"]["thread"] is None))
        row = next(i for i, l in enumerate(table) if l.startswith(r["mode"] + " "))
        below = []
        for l in table[row + 1:]:
            if not l.startswith("  "):
                break
            below.append(l)
        said = [l for l in below if l.startswith("  ^ other CPUs unknown in ")]
        if unknown:
            assert said and said[0].startswith(f"  ^ other CPUs unknown in {unknown} of 3 "), below
        else:
            assert not said, below
    return unknown

says_unknown(one, sys.argv[4])
short = json.load(open(sys.argv[5]))
check(short["runs"][0], 1, schedstat)
print("five syncs: other CPUs unknown in", says_unknown(short, sys.argv[6]), "of 3")
print("buffered run interference ok")
PY
    t_fail "the interference figures of a buffered run"
t_done
