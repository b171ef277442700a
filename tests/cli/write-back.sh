#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --write-back makes the read modes write the block they read back, for the given share of reads.
#
# --write-back PCT makes modes read and direct-read write the
# block they read back where it came from (bonnie++'s Rewrite at 100, its
# random seeks at 10), inside the op: every block of a sequential
# direct-read pass at 100, and about a tenth of a random run's reads at 10,
# carry the op's stamp afterwards (on a file given with --force, which
# diskio keeps); the run's bytes count the reads only; the JSON has
# parameters.write_back and open_flags O_RDWR; the table row says "wb100%".
# Refused (exit 2, before anything is created) above 100, with --verify,
# for aio-read, and without a mode it applies to.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
dir="$t_scratch/target"
mkdir "$dir"

stamped() { # FILE BS: how many BS blocks begin with their own offset (a write-back stamp)
    "$PYTHON3" - "$1" "$2" <<'PY'
import struct, sys
data, bs = open(sys.argv[1], "rb").read(), int(sys.argv[2])
print(sum(1 for off in range(0, len(data), bs)
          if struct.unpack_from("<Q", data, off)[0] == off))
PY
}

# a sequential pass over a 256-block file, every block written back
dd if=/dev/zero of="$t_scratch/f100" bs=4096 count=256 status=none
t_expect_status 0 "direct-read --write-back 100, one pass" -- "$DISKIO" --mode direct-read \
    --write-back 100 --bs 4k --size 1m --count 256 --warmup 0 --force \
    -o "$t_scratch/wb100.json" "$t_scratch/f100" || t_done
n=$(stamped "$t_scratch/f100" 4096)
[ "$n" -eq 256 ] && t_ok "all 256 blocks were written back" || t_fail "$n of 256 blocks written back"
grep -q "^direct-read wb100% " "$t_scratch/stdout" && t_ok "the table row says wb100%" ||
    t_fail "table: $(cat "$t_scratch/stdout")"
"$PYTHON3" - "$t_scratch/wb100.json" <<'PY' && t_ok "JSON: write_back 100, O_RDWR|O_DIRECT, bytes read" ||
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
p = r["parameters"]
assert p["write_back"] == 100 and p["open_flags"] == "O_RDWR|O_DIRECT", p
assert p["direction"] == "read" and r["ops"] == 256 and r["bytes"] == 256 * 4096, (r["ops"], r["bytes"])
PY
    t_fail "JSON of the write-back run"

# random reads, a tenth written back
dd if=/dev/zero of="$t_scratch/f10" bs=4096 count=4096 status=none
t_expect_status 0 "read --write-back 10, random" -- "$DISKIO" -q --mode read --pattern rand \
    --write-back 10 --bs 4k --size 16m --count 2000 --warmup 0 --force "$t_scratch/f10" || t_done
n=$(stamped "$t_scratch/f10" 4096)
# 2000 reads of 4096 blocks, 10% written back: about 200 blocks (a few
# twice); the draw is seeded, so this is the same count every run
[ "$n" -ge 120 ] && [ "$n" -le 280 ] && t_ok "$n blocks written back by 2000 reads at 10%" ||
    t_fail "$n blocks written back by 2000 reads at 10%"

# plain reads write nothing back
dd if=/dev/zero of="$t_scratch/f0" bs=4096 count=256 status=none
t_expect_status 0 "direct-read without --write-back" -- "$DISKIO" -q --mode direct-read --bs 4k \
    --size 1m --count 256 --warmup 0 --force "$t_scratch/f0"
n=$(stamped "$t_scratch/f0" 4096)
[ "$n" -eq 0 ] && t_ok "no block written by plain reads" || t_fail "$n blocks written by plain reads"

# refusals
t_expect_status 2 "--write-back 101" -- "$DISKIO" --mode read --write-back 101 --count 5 "$dir"
grep -q -- "--write-back: '101' is not a whole percentage" "$t_scratch/stderr" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--write-back with --verify" -- "$DISKIO" --mode read --write-back 10 --verify \
    --count 5 "$dir"
t_expect_status 2 "--write-back with aio-read" -- "$DISKIO" --mode aio-read --write-back 10 \
    --count 5 "$dir"
grep -q -- "--write-back" "$t_scratch/stderr" || t_fail "message: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--write-back with a write mode only" -- "$DISKIO" --mode fsync --write-back 10 \
    --count 5 "$dir"
t_expect_empty_dir "$dir" "nothing created by a refused --write-back"
t_done
