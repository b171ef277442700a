#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: on a filesystem in memory diskio warns, and O_DIRECT modes are refused or skipped.
#
# on a filesystem that lives in memory diskio warns that the
# durability modes measure memory; on one that refuses O_DIRECT (ramfs) an
# explicitly requested O_DIRECT mode fails before anything is measured
# (exit 3, the message names the filesystem and suggests modes that work),
# and the default mode list skips the O_DIRECT modes with a note.  Needs
# root to mount ramfs and tmpfs; skipped otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root to mount ramfs/tmpfs"; exit 77; }
mnt="$t_scratch/mnt"
mkdir "$mnt"
mount -t ramfs ramfs "$mnt" 2>/dev/null || { echo "SKIP: cannot mount ramfs here"; exit 77; }
trap 'umount "$mnt" 2>/dev/null; rm -rf "$t_scratch"' EXIT

t_expect_status 3 "explicit direct on ramfs" -- "$DISKIO" --mode fsync,direct --count 10 "$mnt"
# the durable modes without O_DIRECT, as the library's table says: "a, b or c"
buffered=$(t_modes durable | grep -vxF "$(t_modes direct)" | paste -sd, - |
    sed 's/,/, /g; s/, \([^,]*\)$/ or \1/')
grep -q "ramfs) refuses O_DIRECT" "$t_scratch/stderr" &&
    grep -qF "use --mode $buffered there" "$t_scratch/stderr" &&
    t_ok "message names ramfs and suggests the durable modes without O_DIRECT ($buffered)" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
grep -q "^fsync " "$t_scratch/stdout" && t_fail "measured before refusing"
t_expect_empty_dir "$mnt" "no test file left on ramfs"

t_expect_status 0 "default modes on ramfs" -- "$DISKIO" --runtime 100ms "$mnt"
grep -q "lives in memory" "$t_scratch/stderr" && t_ok "memory warning" || t_fail "no memory warning"
for mode in direct direct-dsync aio uring; do
    grep -q "mode $mode: .*(skipped)" "$t_scratch/stderr" && t_ok "$mode skipped with a note" ||
        t_fail "$mode not reported as skipped"
done
grep -q "^fsync " "$t_scratch/stdout" && grep -q "^odsync " "$t_scratch/stdout" &&
    t_ok "other modes measured" || t_fail "other modes missing"
t_expect_empty_dir "$mnt" "no test file left after the default run"
umount "$mnt"

mount -t tmpfs -o size=96m tmpfs "$mnt" || { t_fail "cannot mount tmpfs"; t_done; }
t_expect_status 0 "fsync on tmpfs" -- "$DISKIO" --mode fsync --count 10 "$mnt"
grep -q "tmpfs, which lives in memory" "$t_scratch/stderr" && t_ok "tmpfs warning" ||
    t_fail "no tmpfs warning: $(cat "$t_scratch/stderr")"
t_expect_status 0 "--quiet silences the warning" -- "$DISKIO" -q --mode fsync --count 10 "$mnt"
[ -s "$t_scratch/stderr" ] && t_fail "--quiet printed: $(cat "$t_scratch/stderr")"
t_done
