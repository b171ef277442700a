#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the test file is locked for the whole run, and a second diskio names the holder.
#
# the test file is locked (flock) for the whole run: a second
# diskio --force on the file a first one is measuring is refused with exit
# 3 before anything is written, naming the first by its pid; so is a file
# another program keeps locked (flock(1)); once the holder is done the file
# can be measured again.  The first diskio is stopped (SIGSTOP) once its
# lock is seen and continued after the second was refused, and flock(1)'s
# command is ended then: each lock is held for as long as the checks
# take, however busy the machine.
. "${top_srcdir:-.}/tests/lib/cli.sh"
[ -r /proc/locks ] || { echo "SKIP: no /proc/locks to see the lock in"; exit 77; }

file="$t_scratch/shared"
head -c 1048576 /dev/zero >"$file"
ino=$(stat -c %i "$file")

# until /proc/locks lists a lock on $file (up to 5 s)
wait_for_lock() {
    waited=0
    while ! grep -q ":$ino " /proc/locks && [ $waited -lt 100 ]; do
        sleep 0.05
        waited=$((waited + 1))
    done
}

first=""
# (a diskio stopped when the test ends is continued)
trap 'kill -CONT $first 2>/dev/null; t_remove_scratch' EXIT

"$DISKIO" --force -q -m fsync --size 1m --runtime 1 "$file" >/dev/null 2>"$t_scratch/first.err" &
first=$!
wait_for_lock
kill -STOP "$first"
t_expect_status 3 "a second diskio on the file the first measures" -- \
    "$DISKIO" --force -m fsync --size 1m --count 5 "$file"
grep -q "^diskio: $file is locked by process $first (diskio): another diskio is measuring it" \
    "$t_scratch/stderr" && t_ok "the message names the first diskio by its pid" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
[ -s "$t_scratch/stdout" ] && t_fail "a table was printed: $(cat "$t_scratch/stdout")"
kill -CONT "$first"
wait $first
status=$?
[ "$status" -eq 0 ] && t_ok "the first run is undisturbed (exit 0)" ||
    t_fail "the first run: exit $status: $(cat "$t_scratch/first.err")"

if command -v flock >/dev/null 2>&1; then
    # flock holds the lock until its command (a sleep, ended below) ends
    flock "$file" sleep 30 &
    holder=$!
    wait_for_lock
    t_expect_status 3 "a file another program keeps locked" -- \
        "$DISKIO" --force -m fsync --size 1m --count 5 "$file"
    grep -q "is locked by process $holder (flock)" "$t_scratch/stderr" &&
        t_ok "the message names the program holding it" ||
        t_fail "message: $(cat "$t_scratch/stderr")"
    kill $(cat "/proc/$holder/task/$holder/children") 2>/dev/null
    wait $holder
else
    echo "SKIP (part): no flock(1)"
fi

t_expect_status 0 "the file measured again once nobody holds it" -- \
    "$DISKIO" --force -q -m fsync --size 1m --count 5 "$file"
t_done
