#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: O_DIRECT block sizes are checked against the device's alignment, not 512 bytes.
#
# O_DIRECT block sizes are checked against the device's
# direct I/O alignment, not 512 bytes.  On a loop device made here with
# 4096-byte logical sectors (ext4 on it), `--bs 512,6k --mode direct,aio`
# is a usage error (exit 2) naming 4096, found before anything runs: no
# table, no result file, no test file left; 4k and 8k run.  Needs root,
# losetup and mkfs.ext4; skipped otherwise.
. "${top_srcdir:-.}/tests/lib/cli.sh"

t_loop_fs fs 64M
loop=$t_loop_dev
[ "$(cat "/sys/block/${loop#/dev/}/queue/logical_block_size")" = 4096 ] ||
    { echo "SKIP: losetup --sector-size 4096 not honoured"; exit 77; }
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
