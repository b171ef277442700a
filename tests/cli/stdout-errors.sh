#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a result that cannot be written to standard output fails the command with a message.
#
# a result that cannot be written to standard output fails
# the command: a full device (/dev/full) and a pipe whose reader has gone
# (EPIPE: SIGPIPE is ignored by diskio) give exit 1 and a message naming
# standard output and the error, for the JSON and CSV results, the table,
# --help and --version; with --output the message says the result itself
# is in the file, which is whole.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
[ -w /dev/full ] || { echo "SKIP: no /dev/full"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
quick="-m fsync --size 64k --count 20"

for format in json csv text; do
    t_expect_status 1 "$format result to /dev/full" -- sh -c 'exec "$@" >/dev/full' sh \
        "$DISKIO" $quick --format "$format" "$dir" &&
        grep -q "could not write to standard output: No space left on device" \
            "$t_scratch/stderr" && t_ok "message names standard output and the error" ||
        t_fail "message: $(cat "$t_scratch/stderr")"
done

# a reader that has gone: the pipe's read end is closed before diskio starts
no_reader() {
    "$PYTHON3" -c 'import os, sys
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
os.close(w)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
t_expect_status 1 "JSON result into a pipe without reader" -- no_reader "$DISKIO" $quick \
    --format json "$dir" &&
    grep -q "could not write to standard output: Broken pipe" "$t_scratch/stderr" &&
    t_ok "message names the broken pipe" || t_fail "message: $(cat "$t_scratch/stderr")"

t_expect_status 1 "--help to /dev/full" -- sh -c 'exec "$@" >/dev/full' sh "$DISKIO" --help
t_expect_status 1 "--version to /dev/full" -- sh -c 'exec "$@" >/dev/full' sh "$DISKIO" --version
t_expect_status 0 "--help to a file" -- "$DISKIO" --help

# the table cannot be written, the result file can
t_expect_status 1 "table to /dev/full, result to a file" -- sh -c 'exec "$@" >/dev/full' sh \
    "$DISKIO" $quick --output "$t_scratch/r.json" "$dir" &&
    grep -q "the result itself is in $t_scratch/r.json" "$t_scratch/stderr" &&
    t_ok "message says the result is in the file" || t_fail "message: $(cat "$t_scratch/stderr")"
"$PYTHON3" -c 'import json, sys; assert json.load(open(sys.argv[1]))["complete"]' \
    "$t_scratch/r.json" && t_ok "the result file is whole" || t_fail "result file"

# nothing written to standard output: nothing to fail
t_expect_status 0 "--quiet with --output and stdout on /dev/full" -- sh -c \
    'exec "$@" >/dev/full' sh "$DISKIO" $quick --quiet --output "$t_scratch/q.json" "$dir"
t_expect_empty_dir "$dir" "test files removed"
t_done
