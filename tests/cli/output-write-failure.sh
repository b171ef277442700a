#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a result that cannot be written to --output is never lost in silence.
#
# a result that cannot be written to --output is never lost
# in silence.  Over RLIMIT_FSIZE (the unprivileged case) and on a full
# filesystem (a 4 KiB tmpfs, root only): exit 1, a message naming the
# output file, the error and what to do; no truncated temporary and no
# half file under FILE; and the measurements, which the file could not
# hold, go to standard output instead, whole.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read results"; exit 77; }

# 16 runs of a 4 KiB test file: the JSON result is about 30 KiB
runs="-m fsync,fdatasync,osync,odsync --bs 512,1k,2k,4k --size 4k --count 20"

check_whole_json() { # file runs
    "$PYTHON3" - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["runs"]) == int(sys.argv[2]), len(d["runs"])
assert all(r["ops"] == 20 for r in d["runs"])
PY
}

# Runs diskio under a file size limit of 4 KiB (what ulimit -f sets, in
# bytes rather than the shell's blocks, which differ between shells), with
# stdout through a pipe, so that the limit, which applies to every file
# diskio writes, leaves it alone; the status goes to $t_scratch/status.
run_limited() {
    { "$PYTHON3" -c 'import os, resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
os.execvp(sys.argv[1], sys.argv[1:])' "$DISKIO" "$@" 2>"$t_scratch/stderr"
        echo $? >"$t_scratch/status"; } | cat >"$t_scratch/stdout"
}

# ---- over RLIMIT_FSIZE: the test file (4 KiB) fits, the result does not ----
mkdir "$t_scratch/d" "$t_scratch/out"
run_limited -q $runs --output "$t_scratch/out/r.json" "$t_scratch/d"
status=$(cat "$t_scratch/status")
[ "$status" -eq 1 ] && t_ok "result over the file size limit: exit 1" ||
    t_fail "result over the file size limit: exit $status, expected 1"
grep -q "could not write $t_scratch/out/r.json: File too large" "$t_scratch/stderr" &&
    grep -q "ulimit -f" "$t_scratch/stderr" &&
    t_ok "message names the file, the error and what to do" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
grep -q "written to standard output instead" "$t_scratch/stderr" &&
    t_ok "message says where the result went" || t_fail "message: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$t_scratch/out" "no truncated temporary, no half result"
check_whole_json "$t_scratch/stdout" 16 && t_ok "the whole result on standard output" ||
    t_fail "standard output: $(head -c 300 "$t_scratch/stdout")"
t_expect_empty_dir "$t_scratch/d" "test file removed"

# the table was printed already: it is the text result, nothing is added
# (32 runs: about 6 KB of text)
run_limited -m fsync,fdatasync,osync,odsync --bs 512,1k,1536,2k,2560,3k,3584,4k --size 4k \
    --count 20 --format text --output "$t_scratch/out/r.txt" "$t_scratch/d"
status=$(cat "$t_scratch/status")
if [ "$status" -eq 1 ] && grep -q "could not write $t_scratch/out/r.txt: File too large" \
    "$t_scratch/stderr" && grep -q "table on standard output is the whole result" \
    "$t_scratch/stderr" && [ "$(grep -c '^fsync  ' "$t_scratch/stdout")" -eq 8 ]; then
    t_ok "text result: the table printed once, the message says it is the result"
else
    t_fail "text result: exit $status; $(cat "$t_scratch/stderr"); $(cat "$t_scratch/stdout")"
fi
t_expect_empty_dir "$t_scratch/out" "no truncated temporary (text)"

# ---- a full filesystem (root: an 4 KiB tmpfs of our own) ----
if [ "$(id -u)" -eq 0 ] && mkdir "$t_scratch/full" &&
    mount -t tmpfs -o size=4k tmpfs "$t_scratch/full" 2>/dev/null; then
    trap 'umount "$t_scratch/full" 2>/dev/null; rm -rf "$t_scratch"' EXIT
    "$DISKIO" -q $runs --output "$t_scratch/full/r.json" "$t_scratch/d" \
        >"$t_scratch/stdout" 2>"$t_scratch/stderr"
    status=$?
    [ "$status" -eq 1 ] && t_ok "result on a full filesystem: exit 1" ||
        t_fail "result on a full filesystem: exit $status, expected 1"
    grep -q "could not write $t_scratch/full/r.json: No space left on device" \
        "$t_scratch/stderr" && grep -q "free some space" "$t_scratch/stderr" &&
        t_ok "message names the file, the error and what to do" ||
        t_fail "message: $(cat "$t_scratch/stderr")"
    t_expect_empty_dir "$t_scratch/full" "nothing left on the full filesystem"
    check_whole_json "$t_scratch/stdout" 16 && t_ok "the whole result on standard output" ||
        t_fail "standard output: $(head -c 300 "$t_scratch/stdout")"
    umount "$t_scratch/full"
else
    echo "note: not root (or no tmpfs): the full-filesystem case was not run"
fi
t_done
