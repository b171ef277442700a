#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio started with stdin, stdout or stderr closed never writes into a file it opened.
#
# diskio started with standard input, output or error closed
# never writes its table or messages into a file it opens: the closed
# descriptors are taken by /dev/null first, opened so that using them
# fails (stdout and stderr read-only, stdin write-only).  A result file
# written then is whole and valid; a table or result that had to go to a
# closed standard output is an error (exit 1); with nothing to print the
# run succeeds.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read results"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
quick="-m fsync --size 64k --count 20"

valid_result() { # file complete(True/False)
    "$PYTHON3" -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert str(d["complete"]) == sys.argv[2], d["complete"]' "$@"
}

# ---- stdout closed ----
sh -c 'exec "$@" >&-' sh "$DISKIO" $quick --output "$t_scratch/a.json" "$dir" \
    2>"$t_scratch/stderr"
status=$?
valid_result "$t_scratch/a.json" True && t_ok "stdout closed: the result file holds only the result" ||
    t_fail "stdout closed: result file: $(head -c 300 "$t_scratch/a.json")"
[ "$status" -eq 1 ] && grep -q "could not write to standard output: Bad file descriptor" \
    "$t_scratch/stderr" && t_ok "stdout closed: the table could not be written, exit 1" ||
    t_fail "stdout closed: exit $status, $(cat "$t_scratch/stderr")"

sh -c 'exec "$@" >&-' sh "$DISKIO" $quick --quiet --output "$t_scratch/b.json" "$dir" \
    2>"$t_scratch/stderr"
status=$?
[ "$status" -eq 0 ] && valid_result "$t_scratch/b.json" True &&
    t_ok "stdout closed, --quiet: exit 0, result whole" ||
    t_fail "stdout closed, --quiet: exit $status, $(cat "$t_scratch/stderr")"

sh -c 'exec "$@" >&-' sh "$DISKIO" $quick --format json "$dir" 2>"$t_scratch/stderr"
status=$?
[ "$status" -eq 1 ] && t_ok "stdout closed, JSON to stdout: exit 1" ||
    t_fail "stdout closed, JSON to stdout: exit $status"

# ---- stderr closed: a run that fails has messages to print ----
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
if [ -f "$preload" ]; then
    sh -c 'exec "$@" 2>&-' sh env LD_PRELOAD="$preload" DISKIO_TEST_FAIL_AT=5 \
        DISKIO_TEST_FAIL_ERRNO=5 "$DISKIO" $quick --warmup 0 --output "$t_scratch/c.json" \
        "$dir" >"$t_scratch/stdout"
    status=$?
    [ "$status" -eq 1 ] && t_ok "stderr closed, failing run: exit 1" ||
        t_fail "stderr closed, failing run: exit $status"
    valid_result "$t_scratch/c.json" False &&
        t_ok "stderr closed: no message inside the result file" ||
        t_fail "stderr closed: result file: $(head -c 300 "$t_scratch/c.json")"
    grep -q '^fsync ' "$t_scratch/stdout" && t_ok "stderr closed: the table on stdout" ||
        t_fail "stderr closed: stdout: $(cat "$t_scratch/stdout")"
else
    t_unbuilt "$preload"
fi

# ---- all three closed ----
sh -c 'exec "$@" <&- >&- 2>&-' sh "$DISKIO" $quick --quiet --output "$t_scratch/d.json" "$dir"
status=$?
[ "$status" -eq 0 ] && valid_result "$t_scratch/d.json" True &&
    t_ok "stdin, stdout and stderr closed, --quiet: exit 0, result whole" ||
    t_fail "all closed: exit $status"
t_expect_empty_dir "$dir" "test files removed"
ls -A "$t_scratch" | grep -q "diskio-tmp" && t_fail "temporary files left"
t_done
