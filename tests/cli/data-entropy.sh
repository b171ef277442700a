#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the data diskio writes neither compresses nor deduplicates, in every mode.
#
# the data diskio writes neither compresses nor deduplicates,
# so compressing or deduplicating storage gets no better latency from
# diskio than from real data: a copy of the test file taken mid-run
# (diskio stopped with SIGSTOP) compresses to no less than 99% with zlib
# over 128 KiB records, and at least 99% of its 8 KiB blocks are distinct;
# a small file overwritten many times over (the written stream) likewise,
# in the queued modes too, where at queue depth 1 every op used to write
# from the one slot's buffer (issue 10, item 3).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
"$PYTHON3" -c 'import zlib' 2>/dev/null || { echo "SKIP: python3 has no zlib"; exit 77; }

# The runs are in memory, however busy the disk is.  The copy is taken
# once the fill has written the whole file (it writes it from the start:
# a copy taken during the fill would hold zeros that compress) and the
# measured writes have gone on for 0.2 s, thousands of them.
t_memory_dir

# copy_midrun DIR COPY MIB ARGS...: start diskio on DIR with a file of
# MIB MiB, stop it once it has filled the file and written for a while,
# copy its test file, then interrupt it.
copy_midrun() {
    dir=$1; copy=$2; mib=$3; shift 3
    mkdir "$dir"
    t_spawn "$DISKIO" --quiet --warmup 0 --count 100000000 --size "${mib}m" "$@" "$dir"
    t_wait_for_file "$dir"
    f=$(ls "$dir"/diskio-test.* 2>/dev/null | head -n 1)
    # the fill, to the file's last byte (30 s at most), then 0.2 s of
    # measured writes
    i=0
    while [ -n "$f" ] && [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -lt $((mib << 20)) ] &&
        [ $i -lt 1500 ]; do
        sleep 0.02
        i=$((i + 1))
    done
    sleep 0.2
    kill -STOP "$t_pid"
    if [ -n "$f" ]; then
        cp "$f" "$copy"
    fi
    kill -CONT "$t_pid"
    kill -INT "$t_pid"
    wait "$t_pid"
    [ -n "$f" ] || t_fail "no test file in $dir"
}

# the fill and the writes of a 32 MiB file
copy_midrun "$t_memory/a" "$t_scratch/file.copy" 32 --mode async --bs 8k
# the written stream: 1 MiB overwritten many times over in 0.2 s
copy_midrun "$t_memory/b" "$t_scratch/stream.copy" 1 --mode async --bs 8k --pattern rand
# the same with writes larger than the records
copy_midrun "$t_memory/c" "$t_scratch/big.copy" 16 --mode async --bs 256k
# the queued modes' stream at depth 1 and 4 (O_DIRECT: in memory where
# its filesystem takes it, else on a disk), uring where the machine can
# run io_uring
t_direct_dir "$t_memory"
t_uring_probe
queued=""
for m in aio uring; do
    if [ $m = uring ] && [ -n "$t_uring_why" ]; then
        echo "note: uring: $t_uring_why"
        continue
    fi
    for qd in 1 4; do
        copy_midrun "$t_direct/$m$qd" "$t_scratch/$m$qd.copy" 1 --mode $m --iodepth $qd \
            --bs 8k --pattern rand
        queued="$queued $m$qd"
    done
done

for f in file stream big $queued; do
    "$PYTHON3" - "$t_scratch/$f.copy" <<'PY' && t_ok "$f: incompressible and distinct" ||
import sys, zlib
data = open(sys.argv[1], "rb").read()
assert len(data) > 0, "empty copy"
rec = 128 << 10
packed = sum(len(zlib.compress(data[i:i + rec], 6)) for i in range(0, len(data), rec))
ratio = packed / len(data)
blocks = [data[i:i + 8192] for i in range(0, len(data) - 8191, 8192)]
share = len(set(blocks)) / len(blocks)
print("%s: %d bytes, zlib over 128 KiB records %.1f%%, distinct 8 KiB blocks %.1f%%"
      % (sys.argv[1].rsplit("/", 1)[-1], len(data), 100 * ratio, 100 * share))
assert ratio >= 0.99, "compresses to %.1f%%" % (100 * ratio)
assert share >= 0.99, "only %.1f%% of the 8 KiB blocks are distinct" % (100 * share)
PY
        t_fail "$f: the data compresses or repeats"
done

[ "$t_failures" -eq 0 ] || { echo "$t_failures check(s) failed"; exit 1; }
exit 0
