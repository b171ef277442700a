#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a run on btrfs raid1 counts the I/O of both mirrors, and of the disk under them once.
#
# on a filesystem spread over several devices the run's
# device figures cover all of them: a btrfs with data and metadata
# mirrored (raid1) over two loop devices made here lists both loop
# devices at the top of the stack and the disk under their backing files
# below; each mirror saw at least one write and one flush per fdatasync,
# and the run's total is the two mirrors' sum (the disk under them is not
# counted twice); the text's target line names both mirrors.  Needs root, losetup and mkfs.btrfs; skipped otherwise
# (issue 10, item 7).
. "${top_srcdir:-.}/tests/lib/cli.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for loop devices"; exit 77; }
for tool in losetup mkfs.btrfs mount umount "${PYTHON3:-python3}"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
grep -qw btrfs /proc/filesystems 2>/dev/null || modprobe btrfs 2>/dev/null ||
    { echo "SKIP: this kernel has no btrfs"; exit 77; }

loops=""
mounted=""
cleanup() {
    [ -z "$mounted" ] || umount "$mounted" 2>/dev/null
    for l in $loops; do losetup -d "$l" 2>/dev/null; done
    rm -rf "$t_scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

for half in a b; do
    truncate -s 300M "$t_scratch/$half.img"
    dev=$(losetup -f --show "$t_scratch/$half.img" 2>/dev/null) ||
        { echo "SKIP: cannot make a loop device here"; exit 77; }
    loops="$loops $dev"
done
# shellcheck disable=SC2086
mkfs.btrfs -q -f -d raid1 -m raid1 $loops >/dev/null 2>&1 || { t_fail "mkfs.btrfs raid1 $loops"; t_done; }
mkdir "$t_scratch/m"
set -- $loops
mount "$1" "$t_scratch/m" || { t_fail "mount $1"; t_done; }
mounted="$t_scratch/m"

t_expect_status 0 "fdatasync on btrfs raid1" -- "$DISKIO" --mode fdatasync --count 200 --bs 8k \
    --size 8M --format json --output "$t_scratch/r.json" "$t_scratch/m"

"${PYTHON3:-python3}" - "$t_scratch/r.json" $loops <<'PY' && t_ok "both mirrors and the disk under them" ||
import json, os, sys
r = json.load(open(sys.argv[1]))
mirrors = sorted(os.path.basename(d) for d in sys.argv[2:])
devs = r["environment"]["target"]["devices"]
print("devices:", [(d["name"], d["depth"]) for d in devs])
top = sorted(d["name"] for d in devs if d["depth"] == 0)
assert top == mirrors, "top of the stack is %s, not the two mirrors %s" % (top, mirrors)
assert any(d["depth"] == 1 and d["leaf"] for d in devs), "no disk under the loop devices"
run = r["runs"][0]
dev = run["device"]
ops = run["ops"]
per = {d["name"]: d for d in dev["devices"]}
for m in mirrors:
    d = per[m]
    print("%s: %d writes, %d flushes for %d ops" % (m, d["writes"], d["flushes"], ops))
    assert d["writes"] >= ops, "%s: %d writes for %d ops" % (m, d["writes"], ops)
    assert d["flushes"] >= ops, "%s: %d flushes for %d ops" % (m, d["flushes"], ops)
total = dev["total"]
assert total["writes"] == sum(per[m]["writes"] for m in mirrors), "total is not the mirrors' sum"
assert total["flushes"] == sum(per[m]["flushes"] for m in mirrors), "flush total is not the mirrors' sum"
PY
    t_fail "the device figures on btrfs raid1 (above)"

# the text names them too: the filesystem has no one device of its own
t_expect_status 0 "fdatasync on btrfs raid1, text" -- "$DISKIO" --mode fdatasync --count 20 \
    --size 4M "$t_scratch/m"
want="on devices $(basename "$1"), $(basename "$2")"
grep -q "^  $want\$" "$t_scratch/stdout" && t_ok "the text says '$want'" ||
    t_fail "the text does not say '$want': $(head -4 "$t_scratch/stdout")"

t_done
