#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the durability verdict names what it does not prove: a loop device's backing file, a tmpfs.
#
# what a verdict of the durability check does not prove.
# On an ext4 on a loop device the check passes (no cut was made, and a
# loop device's blocks are a file of the host's) and names the loop
# device's backing file, whose storage the verdict is really about.  On
# a tmpfs the run warns that nothing written there survives a real
# reboot, the check's verdict says so too ("durable (but on tmpfs ...
# never survives a real reboot"), and after the tmpfs is mounted anew, as
# a reboot would leave it, the file is gone and the check cannot open it
# (exit 3).  Root needed (loop device, mounts); skips (77) otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
[ "$(id -u)" -eq 0 ] || d_skip "needs root for the loop device and the tmpfs"
t_loop_fs ext4 64m
tmp="$t_scratch/tmpfs"
d_extra_cleanup='umount "$tmp" 2>/dev/null; t_loop_cleanup'
trap d_cleanup EXIT
d_listen on-loop on-tmpfs

t_expect_status 0 "a run on the loop device's ext4" -- "$DISKIO" --durability "$d_listener" \
    --run-id on-loop --mode fdatasync --count 30 --size 1m --bs 4k --quiet "$t_scratch/ext4"
file=$t_scratch/ext4/$(ls "$t_scratch/ext4" | grep '^diskio-test')
t_expect_status 0 "its check passes" -- "$DISKIO" --verify-durability "$d_listener" "$file"
grep -q "^note: the file is on the loop device ${t_loop_dev#/dev/}, whose blocks are the file $t_scratch/ext4.img" \
    "$t_scratch/stdout" && t_ok "the check names the loop device's backing file" ||
    t_fail "report: $(cat "$t_scratch/stdout")"
grep -q '^note: one power cut is one sample' "$t_scratch/stdout" &&
    t_ok "a pass says that one cut is one sample" || t_fail "report: $(cat "$t_scratch/stdout")"

mkdir "$tmp"
mount -t tmpfs -o size=16m tmpfs "$tmp" || d_skip "cannot mount a tmpfs here"
t_expect_status 0 "a run on a tmpfs" -- "$DISKIO" --durability "$d_listener" \
    --run-id on-tmpfs --mode fdatasync --count 30 --size 1m --bs 4k --quiet "$tmp"
grep -q 'is on tmpfs, which lives in memory and never survives a real reboot' \
    "$t_scratch/stderr" && t_ok "the run says a tmpfs never survives a real reboot" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
file=$tmp/$(ls "$tmp")
t_expect_status 0 "its check finds every write" -- "$DISKIO" --verify-durability "$d_listener" \
    "$file"
grep -q '^verdict: durable (but on tmpfs: memory, which never survives a real reboot; nothing is proven)$' \
    "$t_scratch/stdout" && t_ok "the verdict says a tmpfs never survives a real reboot" ||
    t_fail "report: $(cat "$t_scratch/stdout")"
umount "$tmp" && mount -t tmpfs -o size=16m tmpfs "$tmp" || t_fail "remount the tmpfs"
t_expect_status 3 "after the tmpfs is mounted anew, as a reboot leaves it, nothing is there" -- \
    "$DISKIO" --verify-durability "$d_listener" --run-id on-tmpfs "$file"
t_done
