#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a --size that does not fit the free space is refused before anything is written.
#
# a --size that does not fit in the filesystem's free space
# (leaving 5% of it, at most 1 GiB, free) is refused with exit 3 and a
# message naming the bytes needed and available, before any byte is
# written: on the scratch filesystem (a --size above its free space) and,
# as root, on a 32 MiB tmpfs made by the test, where a size that fits
# still runs.  The message names the options that apply to the pattern:
# --checkpoint-files for the checkpoint pattern (not --jobs), three
# segments of --wal-segment-size for the WAL pattern (not --size).
. "${top_srcdir:-.}/tests/lib/cli.sh"

# too_big DIR SIZE WHAT: refused, quickly, with nothing written.  On a
# diskio that would fill instead, the watchdog stops it (SIGTERM, which
# removes its file) before it writes more than 64 MiB.
too_big() {
    dir=$1; size=$2; what=$3
    "$DISKIO" --mode fsync --count 5 --size "$size" --quiet "$dir" \
        >"$t_scratch/out" 2>"$t_scratch/err" &
    pid=$!
    i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do
        written=$(du -sk "$dir" | cut -f1)
        if [ "$written" -gt 65536 ]; then
            kill -s TERM $pid
            break
        fi
        sleep 0.05
        i=$((i + 1))
    done
    kill -s TERM $pid 2>/dev/null
    wait $pid
    status=$?
    [ "$status" -eq 3 ] && t_ok "$what: refused (exit 3)" ||
        t_fail "$what: exit $status, expected 3: $(cat "$t_scratch/err")"
    grep -q "smaller --size" "$t_scratch/err" && grep -q "bytes available" "$t_scratch/err" &&
        t_ok "$what: the message names the bytes and what to do" ||
        t_fail "$what: message: $(cat "$t_scratch/err")"
    [ "$i" -lt 40 ] || t_fail "$what: took $((i * 50)) ms to refuse"
    t_expect_empty_dir "$dir" "$what: nothing left"
}

dir="$t_scratch/dir"
mkdir "$dir"
avail=$(df -P -B1 "$dir" | awk 'NR == 2 {print $4}')
# the free space plus 1 GiB: more than there is, whatever the margin
too_big "$dir" "$((avail + 1073741824))" "scratch: --size above the free space ($avail bytes)"
# the checkpoint pattern's files are its --checkpoint-files: the message
# names them, not --jobs, which that pattern does not use
t_expect_status 3 "checkpoint: --size above the free space" -- "$DISKIO" --pattern checkpoint \
    --checkpoint-files 4 --count 5 --size "$((avail + 1073741824))" --quiet "$dir"
grep -q -- "--size [0-9]* for each of the --checkpoint-files).*give a smaller --size, fewer --checkpoint-files or free" \
    "$t_scratch/stderr" && ! grep -q -- "--jobs" "$t_scratch/stderr" &&
    t_ok "checkpoint: the message names --checkpoint-files, not --jobs" ||
    t_fail "checkpoint: message: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$dir" "checkpoint: nothing left"

if [ "$(id -u)" -ne 0 ] || ! command -v mount >/dev/null 2>&1; then
    echo "note: not root: the tmpfs case was not run"
    t_done
fi
mnt="$t_scratch/tmpfs"
mkdir "$mnt"
mount -t tmpfs -o size=32m diskio-test "$mnt" || { echo "SKIP: cannot mount a tmpfs"; exit 77; }
trap 'umount "$mnt" 2>/dev/null; rm -rf "$t_scratch"' EXIT
# 31 MiB of 32: fits in the free space but not with 5% (1.6 MiB) kept
too_big "$mnt" 31m "tmpfs: --size 31m of 32m"
# the share and cap the message names are the ones the library kept
total=$(df -P -B1 "$mnt" | awk 'NR == 2 {print $2}')
"${PYTHON3:-python3}" - "$t_scratch/err" "$total" <<'PY' &&
import re, sys
err = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"diskio leaves (\d+) free \((\d+)% of its size, at most (\d+) GiB\)", err)
assert m, err
kept, pct, cap = map(int, m.groups())
want = min(int(sys.argv[2]) * pct // 100, cap << 30)
assert kept == want, f"{kept} kept, {pct}% of {sys.argv[2]} at most {cap} GiB is {want}"
PY
    t_ok "tmpfs: the reserve the message names is its share and cap of the filesystem" ||
    t_fail "tmpfs: the reserve's share or cap in the message is not the one kept"
used=$(df -P -B1 "$mnt" | awk 'NR == 2 {print $3}')
[ "$used" -eq 0 ] && t_ok "tmpfs: nothing written (0 bytes used)" ||
    t_fail "tmpfs: $used bytes used after the refusal"
# a file already there counts: 20 MiB used, 16 MiB asked
head -c 20971520 /dev/zero > "$mnt/other"
too_big_dir="$mnt/sub"
mkdir "$too_big_dir"
too_big "$too_big_dir" 16m "tmpfs: --size 16m with 12m free"
rm -f "$mnt/other"
t_expect_status 0 "tmpfs: --size 16m of 32m runs" -- "$DISKIO" --mode fsync --count 5 \
    --size 16m --quiet "$too_big_dir"
t_expect_empty_dir "$too_big_dir" "tmpfs: test file removed"
# the WAL pattern takes three segments, whatever --size says: the
# message names --wal-segment-size
t_expect_status 3 "tmpfs: three WAL segments of 16m in 32m" -- "$DISKIO" --pattern wal \
    --mode fdatasync --wal-segment-size 16m --count 5 --size 1m --quiet "$too_big_dir"
grep -q -- "the WAL segments need [0-9]* more bytes (3 segments of --wal-segment-size 16777216).*give a smaller --wal-segment-size or free" \
    "$t_scratch/stderr" && t_ok "WAL: the message names --wal-segment-size" ||
    t_fail "WAL: message: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$too_big_dir" "WAL: nothing left"
umount "$mnt" || t_fail "could not unmount $mnt"
t_done
