#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: O_DIRECT block sizes are checked against the device's
# direct I/O alignment, not 512 bytes.  On a loop device made here with
# 4096-byte logical sectors (ext4 on it), `--bs 512,6k --mode direct,aio`
# is a usage error (exit 2) naming 4096, found before anything runs: no
# table, no result file, no test file left; 4k and 8k run.  Needs root,
# losetup and mkfs.ext4; skipped otherwise.
. "${top_srcdir:-.}/tests/cli/lib.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for loop devices"; exit 77; }
for tool in losetup mkfs.ext4 mount umount; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done

loop=""
mnt=""
cleanup() {
    [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
    [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
    rm -rf "$t_scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

truncate -s 64M "$t_scratch/fs.img"
loop=$(losetup --sector-size 4096 -f --show "$t_scratch/fs.img" 2>/dev/null) ||
    { echo "SKIP: cannot make a loop device here"; exit 77; }
[ "$(cat "/sys/block/${loop#/dev/}/queue/logical_block_size")" = 4096 ] ||
    { echo "SKIP: losetup --sector-size 4096 not honoured"; exit 77; }
mkfs.ext4 -q -F -b 4096 "$loop" >/dev/null 2>&1 || { t_fail "mkfs.ext4 $loop"; t_done; }
mkdir "$t_scratch/fs"
mount "$loop" "$t_scratch/fs" || { t_fail "mount $loop"; t_done; }
mnt="$t_scratch/fs"

t_expect_status 2 "--bs 512,6k --mode direct,aio on 4096-byte sectors" -- "$DISKIO" \
    --bs 512,6k --mode direct,aio --count 20 --size 8M --format json \
    --output "$t_scratch/r.json" "$mnt"
grep -q "4096" "$t_scratch/stderr" && grep -q -- "--bs 512" "$t_scratch/stderr" &&
    t_ok "the error names --bs 512 and the 4096-byte alignment" ||
    t_fail "the error does not name the alignment: $(cat "$t_scratch/stderr")"
grep -q "Invalid argument" "$t_scratch/stderr" && t_fail "a write was tried: $(cat "$t_scratch/stderr")"
[ -s "$t_scratch/stdout" ] && t_fail "something was measured: $(cat "$t_scratch/stdout")"
[ -e "$t_scratch/r.json" ] && t_fail "a result file was written"
leftover=$(find "$mnt" -mindepth 1 -maxdepth 1 ! -name lost+found)
[ -z "$leftover" ] && t_ok "no test file left" || t_fail "left behind: $leftover"

t_expect_status 2 "--bs 6k alone" -- "$DISKIO" --bs 6k --mode aio --count 20 --size 8M "$mnt"
grep -q "4096" "$t_scratch/stderr" && t_ok "6k: the error names 4096" ||
    t_fail "6k: $(cat "$t_scratch/stderr")"

t_expect_status 0 "--bs 4k,8k --mode direct,aio" -- "$DISKIO" --bs 4k,8k --mode direct,aio \
    --count 20 --size 8M "$mnt"
t_done
