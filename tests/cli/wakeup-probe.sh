#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the environment says what a wake-up on another CPU costs, and the runs keep every CPU.
#
# With two CPUs or more allowed, the JSON's environment.cpu.wakeup_ns is
# a positive number and the table's header says "a wake-up on another CPU
# takes"; the cpuidle driver is the kernel's, or null.  With one CPU
# allowed (taskset) there is nothing to measure: null, and no line.  The
# probe pins the main thread while it measures and gives it back every
# CPU it had before the runs: read from /proc while a run is under way.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to parse JSON"; exit 77; }
command -v taskset >/dev/null 2>&1 || { echo "SKIP: no taskset"; exit 77; }
allowed=$("$PYTHON3" -c 'import os; print(len(os.sched_getaffinity(0)))')
[ "$allowed" -ge 2 ] || { echo "SKIP: one CPU allowed here"; exit 77; }
first=$("$PYTHON3" -c 'import os; print(min(os.sched_getaffinity(0)))')

mkdir "$t_scratch/dir"
t_expect_status 0 "a run with every CPU" -- "$DISKIO" --mode async --count 16 \
    --output "$t_scratch/all.json" "$t_scratch/dir"
grep -q "^a wake-up on another CPU takes [0-9.]* us" "$t_scratch/stdout" &&
    t_ok "the header says what a wake-up on another CPU costs" ||
    t_fail "no wake-up line: $(head -5 "$t_scratch/stdout")"
t_expect_status 0 "a run on one CPU" -- taskset -c "$first" "$DISKIO" --mode async --count 16 \
    --output "$t_scratch/one.json" "$t_scratch/dir"
grep -q "wake-up on another CPU" "$t_scratch/stdout" &&
    t_fail "one CPU, yet a wake-up line: $(head -5 "$t_scratch/stdout")" ||
    t_ok "one CPU: no wake-up line"

"$PYTHON3" - "$t_scratch" <<'PY' || t_fail "the JSON's cpu figures (above)"
import json, os, sys
scratch = sys.argv[1]
every = json.load(open(os.path.join(scratch, "all.json")))["environment"]["cpu"]
one = json.load(open(os.path.join(scratch, "one.json")))["environment"]["cpu"]
print("every CPU:", every, "one CPU:", one)
assert isinstance(every["wakeup_ns"], int) and every["wakeup_ns"] > 0, every
assert one["wakeup_ns"] is None, one
path = "/sys/devices/system/cpu/cpuidle/current_driver"
driver = open(path).read().strip() if os.path.exists(path) else None
assert every["idle_driver"] == (driver or None), (every, driver)
print("ok: wakeup_ns with every CPU, null with one; the cpuidle driver is the kernel's")
PY

# a run under way: its main thread may use every CPU the shell may (read
# within the run's 3 s; the run is then interrupted, its end not being
# what is checked)
"$DISKIO" --mode async --runtime 3s --quiet "$t_scratch/dir" >/dev/null 2>&1 &
pid=$!
want=$(grep '^Cpus_allowed_list' /proc/$$/status | cut -f2)
got=
for _ in 1 2 3 4 5 6 7 8 9 10; do
    sleep 0.2
    got=$(grep '^Cpus_allowed_list' "/proc/$pid/task/$pid/status" 2>/dev/null | cut -f2)
    # past the probe once the test file exists
    [ -n "$(ls "$t_scratch/dir")" ] && break
done
sleep 0.2
got=$(grep '^Cpus_allowed_list' "/proc/$pid/task/$pid/status" 2>/dev/null | cut -f2)
kill -TERM "$pid" 2>/dev/null
wait "$pid"
[ "$got" = "$want" ] && t_ok "during the run the main thread may use CPUs $want" ||
    t_fail "during the run the main thread may use CPUs '$got', not '$want'"
t_done
