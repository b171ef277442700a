#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: 'diskio DIR' runs every mode and prints one comparison table, leaving DIR as it was.
#
# 'diskio DIR' runs every mode and prints one comparison
# table (mode, ops/s, mean, p50, p99, p99.9, max), leaving DIR as it was.
# The runtime is shortened here; everything else is the default.  DIR is
# on a filesystem that takes O_DIRECT, so that every mode has its row.
. "${top_srcdir:-.}/tests/lib/cli.sh"

t_direct_dir
dir="$t_direct/dir"
mkdir "$dir"
echo "keep" > "$dir/user-file"
t_expect_status 0 "diskio DIR" -- "$DISKIO" --runtime 150ms "$dir" || t_done
table="$t_scratch/stdout"
cat "$table"
for column in mode ops/s mean p50 p99 p99.9 max; do
    grep '^mode ' "$table" | grep -q -- " $column\| $column " || grep -q "^$column " "$table" ||
        t_fail "column $column missing"
done
for mode in $(t_modes writes); do
    if grep -q "^$mode " "$table"; then
        t_ok "row for $mode"
    else
        t_fail "no row for $mode"
    fi
done
grep -q "^  write " "$table" && grep -q "^  sync " "$table" && t_ok "write and sync parts shown" ||
    t_fail "write/sync part rows missing"
grep -q "^target " "$table" && t_ok "environment line" || t_fail "no target/environment line"
[ "$(ls -A "$dir")" = "user-file" ] && [ "$(cat "$dir/user-file")" = keep ] &&
    t_ok "directory left as it was" || t_fail "directory changed: $(ls -A "$dir")"
t_expect_status 0 "--version" -- "$DISKIO" --version
grep -q "^diskio [0-9]" "$t_scratch/stdout" || t_fail "--version output"
t_expect_status 0 "--help" -- "$DISKIO" --help
for opt in --mode --bs --count --runtime --size --pattern --warmup --iodepth --sync-every \
           --label --format --output --trace --quiet --force --allow-device --help --version; do
    grep -q -- "$opt" "$t_scratch/stdout" || t_fail "--help does not mention $opt"
done
t_done
