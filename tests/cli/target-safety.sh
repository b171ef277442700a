#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio never writes to a file, link, FIFO or device it did not create.
#
# diskio never writes to what it did not create: an existing
# file, a symlink (to a file or a directory), a FIFO and a character device
# are refused with exit 3 and left untouched (checksum and mtime); a
# block device is refused without --allow-device (checked by type only,
# nothing is opened for writing).  With --force an existing file is used and
# kept.  The test file is removed after a run.  A name longer than 255
# bytes is refused (exit 3) with a message naming it.
. "${top_srcdir:-.}/tests/lib/cli.sh"

dir="$t_scratch/dir"
mkdir "$dir"
printf 'precious data\n' > "$dir/precious"
touch -d '2001-01-01 00:00:00' "$dir/precious"
ln -s precious "$dir/link-to-file"
ln -s . "$dir/link-to-dir"
mkfifo "$dir/fifo"
before=$(cksum < "$dir/precious"; stat -c %Y "$dir/precious")

for victim in "$dir/precious" "$dir/link-to-file" "$dir/link-to-dir" "$dir/fifo" /dev/null; do
    t_expect_status 3 "refuses $victim" -- "$DISKIO" --mode fsync --count 5 "$victim"
    grep -q "$victim" "$t_scratch/stderr" || t_fail "message does not name $victim"
done
grep -q -- "--force" "$t_scratch/stderr" || true
t_expect_status 3 "symlink refused even with --force" -- "$DISKIO" --force --count 5 "$dir/link-to-file"
t_expect_status 2 "append refuses an existing file even with --force" -- "$DISKIO" --force \
    --pattern append --count 5 "$dir/precious"
grep -q "truncates" "$t_scratch/stderr" || t_fail "append message: $(cat "$t_scratch/stderr")"
after=$(cksum < "$dir/precious"; stat -c %Y "$dir/precious")
[ "$before" = "$after" ] && t_ok "existing file untouched (checksum, mtime)" ||
    t_fail "existing file changed"

block=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -n 1)
if [ -n "$block" ]; then
    t_expect_status 3 "refuses block device $block" -- "$DISKIO" --count 1 "$block"
    grep -q -- "--allow-device" "$t_scratch/stderr" || t_fail "device message lacks --allow-device"
else
    echo "note: no block device node to check the refusal with"
fi

t_expect_status 0 "--force uses an existing file" -- "$DISKIO" --force --mode fdatasync \
    --count 5 --size 64k --quiet "$dir/precious"
[ -f "$dir/precious" ] && t_ok "forced file kept" || t_fail "forced file was removed"

# a name no open() takes: refused by its length, the message names it,
# even under a directory that does not exist
long=$(printf '%0300d' 0)
t_expect_status 3 "a 300-byte name is refused" -- "$DISKIO" --mode fsync --count 5 --quiet \
    "$dir/missing/$long"
grep -q "name [0-9]* of the path ('0000.*') is 300 bytes long, and a file or directory name is at most 255 bytes" \
    "$t_scratch/stderr" && t_ok "the message names the name that is too long" ||
    t_fail "long name message: $(cat "$t_scratch/stderr")"

# a new path is created and removed; nothing else is left behind
t_expect_status 0 "new file path" -- "$DISKIO" --mode fsync --count 5 --quiet "$dir/newfile"
[ ! -e "$dir/newfile" ] && t_ok "created file removed" || t_fail "created file left behind"
left=$(ls -A "$dir" | tr '\n' ' ')
[ "$left" = "fifo link-to-dir link-to-file precious " ] && t_ok "nothing else left" ||
    t_fail "directory holds: $left"
t_done
