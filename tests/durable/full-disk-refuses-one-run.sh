#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a full disk refuses the run that met it; the listener answers the others and goes on.
#
# the listener's directory is a 1 MiB tmpfs the test mounts.
# A real run is recorded; then a flood fills the disk: the listener
# refuses that run ("NO storage"), says the disk is full, and keeps
# running.  The flood's file holds whole lines only (the batch the disk
# could not take whole was cut off again), and a query answers every one
# of them; the real run's check gets all its acknowledgements (exit 0).
# With the disk full to the last byte, a new run is refused and leaves no
# file behind; once space is back (the flood's file removed) the same run
# is accepted, confirmed and checked.  And the same through fdatasync:
# a sync of a run's file that fails with ENOSPC refuses that run alone
# (tests/lib/fault-preload.c), while one that fails with EIO stops the
# listener (exit 1), telling the run "NO storage": after a failed sync
# the kernel may have dropped what it could not write.  Root (to mount)
# needed; skips (77) where a tmpfs cannot be mounted.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON=${PYTHON3:-python3}
client="${top_srcdir:-.}/tests/lib/listenerlib.py"
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
[ "$(id -u)" -eq 0 ] || d_skip "needs root to mount a small tmpfs"
t_memory_dir
mkdir "$t_memory/kept" "$t_memory/later" "$d_acks"
mount -t tmpfs -o size=1m,mode=0700 diskio-test-full "$d_acks" 2>"$t_scratch/mount.err" ||
    d_skip "cannot mount a tmpfs here: $(cat "$t_scratch/mount.err")"
d_extra_cleanup="umount '$d_acks'"

d_listen kept flood later
t_expect_status 0 "a real run before the disk fills" -- \
    "$DISKIO" --durability "$d_listener" --run-id kept --mode fdatasync --count 200 --size 256k \
    --bs 4k --quiet "$t_memory/kept"

# ---- the flood fills it ----
"$PYTHON" "$client" flood "$d_port" flood 100000 >"$t_scratch/flood" 2>&1
grep -qx 'OK flood' "$t_scratch/flood" &&
    grep -q '^NO storage the listener.s disk is full' "$t_scratch/flood" &&
    t_ok "the flood is refused when the disk is full" || t_fail "the flood: $(cat "$t_scratch/flood")"
kill -0 "$d_lpid" 2>/dev/null && t_ok "the listener is running" ||
    { t_fail "the listener died: $(cat "$d_log")"; t_done; }
grep -q "run flood: $d_acks is full (No space left on device)" "$d_log" &&
    t_ok "it says the disk is full" || t_fail "log: $(cat "$d_log")"
acks=$(grep -c '^A ' "$d_acks/flood.acks")
[ "$(tail -c 1 "$d_acks/flood.acks" | od -An -c | tr -d ' ')" = '\n' ] &&
    [ "$(grep -c -v '^A [0-9]* [0-9]* [0-9a-f]*$' "$d_acks/flood.acks")" -eq 1 ] &&
    t_ok "the flood's file holds whole lines only ($acks acknowledgements)" ||
    t_fail "flood.acks ends: $(tail -c 200 "$d_acks/flood.acks" | od -c | tail -n 4)"
"$PYTHON" "$client" query "$d_port" flood >"$t_scratch/query" 2>&1 &&
    grep -qx "DONE $acks 0" "$t_scratch/query" && t_ok "a query answers all $acks" ||
    t_fail "query: $(cat "$t_scratch/query")"
t_expect_status 0 "the real run's check, the disk full" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_memory/kept"/diskio-test.*
grep -q '^acknowledged writes: 200 ' "$t_scratch/stdout" && t_ok "it gets all 200" ||
    t_fail "check: $(cat "$t_scratch/stdout")"

# ---- full to the last byte: a new run is refused, and leaves nothing ----
dd if=/dev/zero of="$d_acks/filler" bs=4k 2>/dev/null
t_expect_status 3 "a new run on a full disk is refused" -- \
    "$DISKIO" --durability "$d_listener" --run-id later --mode fdatasync --count 200 \
    --size 256k --bs 4k --quiet "$t_memory/later"
grep -q 'refused the run: the listener cannot write the run.s file (storage)' \
    "$t_scratch/stderr" && t_ok "diskio says why" || t_fail "stderr: $(cat "$t_scratch/stderr")"
[ ! -e "$d_acks/later.acks" ] && t_ok "the refused run left no file" ||
    t_fail "later.acks is there: $(od -c "$d_acks/later.acks" | head -n 3)"

# ---- space back ----
rm "$d_acks/filler" "$d_acks/flood.acks"
t_expect_status 0 "the same run once space is back" -- \
    "$DISKIO" --durability "$d_listener" --run-id later --mode fdatasync --count 200 \
    --size 256k --bs 4k --quiet "$t_memory/later"
t_expect_status 0 "its check" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_memory/later"/diskio-test.*
kill -TERM "$d_lpid" && wait "$d_lpid"
d_lpid=""

# ---- through fdatasync: ENOSPC refuses one run, EIO stops the listener ----
# (the preload fails the syncs of files named diskio-test.*: here the
# run diskio-test.sync's file, from its second sync, its first batch's)
if [ -f "$preload" ]; then
    for errno in 28 5; do
        export DISKIO_TEST_FAIL_AT=2 DISKIO_TEST_FAIL_ERRNO=$errno LD_PRELOAD="$preload"
        d_listen "diskio-test.sync$errno" "other$errno"
        unset DISKIO_TEST_FAIL_AT DISKIO_TEST_FAIL_ERRNO LD_PRELOAD
        "$PYTHON" "$client" flood "$d_port" "diskio-test.sync$errno" 100 end >"$t_scratch/sync" 2>&1
        if [ "$errno" = 28 ]; then
            grep -q '^NO storage the listener.s disk is full' "$t_scratch/sync" &&
                [ "$(wc -l <"$d_acks/diskio-test.sync28.acks")" -eq 1 ] &&
                "$PYTHON" "$client" flood "$d_port" other28 100 end >"$t_scratch/other" 2>&1 &&
                grep -qx 'DONE 100' "$t_scratch/other" && kill -0 "$d_lpid" &&
                t_ok "a sync failing with ENOSPC refuses that run, cut back; the others go on" ||
                t_fail "ENOSPC on sync: $(cat "$t_scratch/sync" "$t_scratch/other" "$d_log")"
            kill -TERM "$d_lpid" && wait "$d_lpid"
        else
            wait "$d_lpid"
            st=$?
            [ "$st" -eq 1 ] && grep -q '^NO storage the listener cannot record' "$t_scratch/sync" &&
                t_ok "a sync failing with EIO stops the listener (exit 1), telling the run" ||
                t_fail "EIO on sync: exit $st: $(cat "$t_scratch/sync" "$d_log")"
        fi
        d_lpid=""
    done
else
    t_unbuilt "$preload"
fi
t_done
