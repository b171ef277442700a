#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: short writes and EINTR are completed or retried as the syscalls define them.
#
# short writes and EINTR are handled as the syscalls define
# them: a short pwrite is completed, an interrupted pwrite or sync is
# retried, and neither counts as success nor as failure.  Through a test
# preload that halves every 3rd write and interrupts every 5th write and
# every 4th sync, each mode writes a fresh 64-block file once per block;
# every block must then hold its own stamp and the complete buffer, and
# the rest of a pwritev2 cut short is written with its per-write flags
# (pwritev2-dsync: RWF_DSYNC covers the whole write).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read the file"; exit 77; }
preload="${top_builddir:-.}/tests/.libs/shortwrite-preload.so"
t_built "$preload"

# every synchronous write mode of the library's (tests/mode-facts)
for mode in $(t_modes writes | grep -vxF "$(t_modes queued)"); do
    file="$t_scratch/$mode.dat"
    head -c 524288 /dev/zero > "$file"
    t_expect_status 0 "$mode through short writes and EINTR" -- env LD_PRELOAD="$preload" \
        "$DISKIO" --mode $mode --force --size 512k --bs 8k --count 64 --warmup 0 \
        --output "$t_scratch/$mode.json" "$file" || continue
    grep -q "shortwrite-preload: [1-9][0-9]* short writes, [1-9][0-9]* interrupted writes" \
        "$t_scratch/stderr" && t_ok "$mode: the preload interfered" ||
        t_fail "$mode: the preload did not interfere: $(cat "$t_scratch/stderr")"
    # the timed writes and syncs are system calls through syscall():
    # the preload saw those too, not only the file's fill
    grep -Eq "shortwrite-preload: .*, ([6-9][0-9]|[1-9][0-9]{2,}) calls through syscall\(\)" \
        "$t_scratch/stderr" && t_ok "$mode: the preload saw the timed calls" ||
        t_fail "$mode: the preload did not see the timed calls: $(cat "$t_scratch/stderr")"
    grep -q "shortwrite-preload: .*, 0 rests without their write's flags" "$t_scratch/stderr" &&
        t_ok "$mode: every rest written with its write's per-write flags" ||
        t_fail "$mode: a rest lost its write's flags: $(cat "$t_scratch/stderr")"
    "$PYTHON3" - "$file" "$t_scratch/$mode.json" <<'PY' && t_ok "$mode: every block whole and in place" ||
import json, struct, sys
data = open(sys.argv[1], "rb").read()
bs = 8192
blocks = [data[i:i + bs] for i in range(0, len(data), bs)]
assert len(blocks) == 64
M = (1 << 64) - 1
def sector_mark(offset, op, at):
    # what stamp_sectors() puts at the start of every further 512-byte
    # sector: written by this op, at this offset
    z = ((((op ^ (offset << 20)) & M) * 0x9e3779b97f4a7c15) + at) & M
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return z ^ (z >> 31)
for k, b in enumerate(blocks):
    offset, op = struct.unpack("<QQ", b[:16])
    assert offset == k * bs and op == k, (k, offset, op)
    for at in range(512, bs, 512):
        assert struct.unpack("<Q", b[at:at + 8])[0] == sector_mark(offset, op, at), \
            "block %d is not whole: sector at %d is not op %d's" % (k, at, op)
r = json.load(open(sys.argv[2]))["runs"][0]
assert r["complete"] and r["ops"] == 64 and r["error"] is None
PY
        t_fail "$mode: file contents"
done
t_done
