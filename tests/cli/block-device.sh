#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a block device is measured only when allowed, unmounted, and large enough for --bs.
#
# a block device with --allow-device (a loop device made by
# the test; root only): a mounted one is refused with exit 3 and a message
# saying it is in use (it is opened O_EXCL, as mkfs does), and its
# filesystem is unharmed; one that is not mounted is measured, and cannot
# be mounted (or measured by a second diskio, which names the first)
# while diskio holds it, and the read modes read it (--verify,
# which needs diskio's own fill, is a usage error there); a --bs or a
# --size larger than the device is refused with exit 3 before anything is
# measured or printed; without --size a run covers the device up to the
# default size and the result records the span it covered.
. "${top_srcdir:-.}/tests/lib/cli.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for loop devices"; exit 77; }
for tool in losetup mkfs.ext4 mount umount; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: no $tool"; exit 77; }
done

loop=""
mnt="$t_scratch/mnt"
cleanup() {
    umount "$mnt" 2>/dev/null
    [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
    rm -rf "$t_scratch"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

truncate -s 16m "$t_scratch/disk.img"
loop=$(losetup -f --show "$t_scratch/disk.img") || { echo "SKIP: losetup failed"; exit 77; }
mkfs.ext4 -q -F "$loop" >/dev/null 2>&1 || { t_fail "mkfs.ext4 $loop"; t_done; }
mkdir "$mnt"
mount "$loop" "$mnt" || { echo "SKIP: cannot mount $loop"; exit 77; }
printf 'data on the mounted filesystem\n' > "$mnt/keep"
sync

t_expect_status 3 "a mounted device is refused" -- "$DISKIO" --allow-device --mode fsync \
    --count 5 --size 1m "$loop"
grep -q "in use" "$t_scratch/stderr" && grep -q "$loop" "$t_scratch/stderr" &&
    t_ok "the message says the device is in use" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
umount "$mnt" || t_fail "umount"
fsck.ext4 -n "$loop" >/dev/null 2>&1 && t_ok "its filesystem is intact" ||
    t_fail "fsck finds the filesystem damaged"
# A test running beside this one in a mount namespace of its own
# (unshare -m, as planted-name.sh does) took a copy of the mount, and
# with it holds the device until that namespace ends: wait (up to 30 s)
# until nothing holds it exclusively, as diskio will.
"${PYTHON3:-python3}" - "$loop" <<'PY' || t_fail "$loop still held 30 s after its umount"
import os, sys, time
for _ in range(600):
    try:
        os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL))
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
PY

# not mounted: measured; while diskio holds it, it cannot be mounted
"$DISKIO" --allow-device --mode fsync --runtime 2 --size 1m --quiet "$loop" \
    >"$t_scratch/out" 2>"$t_scratch/err" &
pid=$!
# until diskio holds the device open (up to 10 s; the run lasts 2 s after)
waited=0
while ! ls -l "/proc/$pid/fd" 2>/dev/null | grep -q " -> $loop\$" && [ $waited -lt 200 ]; do
    sleep 0.05
    waited=$((waited + 1))
done
if mount "$loop" "$mnt" 2>/dev/null; then
    t_fail "the device was mounted while diskio wrote to it"
    umount "$mnt"
else
    t_ok "the device cannot be mounted during the run"
fi
# nor measured by a second diskio, which names the first
t_expect_status 3 "a second diskio on the device" -- "$DISKIO" --allow-device --mode fsync \
    --count 5 --size 1m "$loop"
grep -q "$loop is in use by process $pid (diskio)" "$t_scratch/stderr" &&
    t_ok "the message names the diskio holding it" || t_fail "message: $(cat "$t_scratch/stderr")"
wait $pid
status=$?
[ "$status" -eq 0 ] && t_ok "an unmounted device is measured" ||
    t_fail "unmounted device: exit $status: $(cat "$t_scratch/err")"

# --size larger than the device: refused; without --size the default
# (64 MiB) is more than the 16 MiB device, and the result records the
# span the offsets covered, not the default
t_expect_status 3 "--size larger than the device is refused" -- "$DISKIO" --allow-device \
    --mode fsync --size 32m --count 5 "$loop"
grep -q -- "--size 33554432 is larger than the device $loop (16777216 bytes)" \
    "$t_scratch/stderr" && t_ok "the message names --size, the device and its size" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
[ -s "$t_scratch/stdout" ] && t_fail "a table was printed: $(cat "$t_scratch/stdout")"
t_expect_status 0 "no --size on a device smaller than the default" -- "$DISKIO" \
    --allow-device --mode fsync,aio --pattern rand --count 20 --format json "$loop"
grep -q '"file_size": 16777216' "$t_scratch/stdout" &&
    ! grep -q '"file_size": 67108864' "$t_scratch/stdout" &&
    t_ok "the result records the 16 MiB the offsets covered" ||
    t_fail "recorded: $(grep -o '"file_size": [0-9]*' "$t_scratch/stdout")"
t_expect_status 0 "--jobs 2 --shared-file on the device" -- "$DISKIO" --allow-device \
    --mode fsync --jobs 2 --shared-file --count 10 --format json "$loop"
grep -q '"file_size": 16777216' "$t_scratch/stdout" &&
    t_ok "a run of several jobs records it too" ||
    t_fail "recorded: $(grep -o '"file_size": [0-9]*' "$t_scratch/stdout")"

# the read modes read the device as it is (nothing fills it), so there is
# nothing to check the data against
t_expect_status 0 "the read modes read a device" -- "$DISKIO" --allow-device \
    --mode read,direct-read,aio-read --iodepth 2 --pattern rand --count 100 --size 1m "$loop"
t_expect_status 2 "--verify on a device" -- "$DISKIO" --allow-device --mode read --verify \
    --count 5 "$loop"
grep -q -- "--verify: checks the data diskio filled its test file with" "$t_scratch/stderr" ||
    t_fail "message: $(cat "$t_scratch/stderr")"

# a 16 KiB device and --bs 64k
losetup -d "$loop"
loop=""
truncate -s 16k "$t_scratch/small.img"
loop=$(losetup -f --show "$t_scratch/small.img") || { t_fail "losetup small"; t_done; }
t_expect_status 3 "--bs larger than the device is refused" -- "$DISKIO" --allow-device \
    --mode fsync --bs 64k --count 5 "$loop"
grep -q "larger than the device" "$t_scratch/stderr" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
[ -s "$t_scratch/stdout" ] && t_fail "a table was printed: $(cat "$t_scratch/stdout")"
t_expect_status 3 "also when one of several --bs is" -- "$DISKIO" --allow-device \
    --mode fsync --bs 4k,64k --count 5 "$loop"
[ -s "$t_scratch/stdout" ] && t_fail "a table was printed: $(cat "$t_scratch/stdout")"
t_done
