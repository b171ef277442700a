#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a trace that cannot be written is reported with its real error, never a stale one.
#
# a trace that cannot be written is reported with its real
# error (EFBIG over RLIMIT_FSIZE; ENOSPC on a full 4 KiB tmpfs, root only),
# never a stale one: the message names the trace file and says that the
# run's measurements are kept, and they are, whole, in the result (the run
# marked with the trace error); the half-written trace is removed, with no
# temporary left.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read results"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir" "$t_scratch/out"
# 2000 ops: about 60 KB of trace; the test file is 4 KiB
run="-q -m fsync --bs 512 --size 4k --count 2000 --format json"

check_kept() { # result-on-stdout errno-name
    "$PYTHON3" - "$@" <<'PY'
import errno, json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"][0]
assert r["ops"] == 2000 and r["latency"]["total"]["count"] == 2000, r["ops"]
assert r["error"]["during"] == "trace", r["error"]
assert r["error"]["errno"] == getattr(errno, sys.argv[2]), r["error"]
PY
}

# over RLIMIT_FSIZE (4 KiB, set in bytes: the shells' ulimit -f units differ)
{ "$PYTHON3" -c 'import os, resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
os.execvp(sys.argv[1], sys.argv[1:])' "$DISKIO" $run --trace "$t_scratch/out/t.csv" "$dir" \
    2>"$t_scratch/stderr"; echo $? >"$t_scratch/status"; } | cat >"$t_scratch/stdout"
status=$(cat "$t_scratch/status")
[ "$status" -eq 1 ] && t_ok "trace over the file size limit: exit 1" ||
    t_fail "trace over the file size limit: exit $status"
grep -q "mode fsync: could not write its trace $t_scratch/out/t.csv: File too large" \
    "$t_scratch/stderr" && grep -q "measurements are kept" "$t_scratch/stderr" &&
    grep -q "ulimit -f" "$t_scratch/stderr" &&
    t_ok "message: the real error, the trace's name, the measurements kept" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
grep -q "No such file" "$t_scratch/stderr" && t_fail "a stale errno in the message"
check_kept "$t_scratch/stdout" EFBIG && t_ok "the run's measurements in the result, EFBIG" ||
    t_fail "result: $(head -c 400 "$t_scratch/stdout")"
t_expect_empty_dir "$t_scratch/out" "no half trace, no temporary"
t_expect_empty_dir "$dir" "test file removed"

if [ "$(id -u)" -eq 0 ] && mkdir "$t_scratch/full" &&
    mount -t tmpfs -o size=4k tmpfs "$t_scratch/full" 2>/dev/null; then
    trap 'umount "$t_scratch/full" 2>/dev/null; rm -rf "$t_scratch"' EXIT
    t_expect_status 1 "trace on a full filesystem" -- "$DISKIO" $run \
        --trace "$t_scratch/full/t.csv" "$dir"
    grep -q "mode fsync: could not write its trace $t_scratch/full/t.csv: No space left on device" \
        "$t_scratch/stderr" && grep -q "measurements are kept" "$t_scratch/stderr" &&
        t_ok "message: the real error, the trace's name, the measurements kept" ||
        t_fail "message: $(cat "$t_scratch/stderr")"
    check_kept "$t_scratch/stdout" ENOSPC && t_ok "the run's measurements in the result, ENOSPC" ||
        t_fail "result: $(head -c 400 "$t_scratch/stdout")"
    t_expect_empty_dir "$t_scratch/full" "no half trace, no temporary on the full filesystem"
    umount "$t_scratch/full"
else
    echo "note: not root (or no tmpfs): the full-filesystem case was not run"
fi
t_done
