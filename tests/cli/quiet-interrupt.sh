#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a --quiet run stopped by a signal says in one line where its partial result is.
#
# with --quiet, a run stopped by a signal still says, in one
# line on standard error, that its result is incomplete and where what was
# measured is: the --output file, standard output (--format json), or
# nowhere (the text format without --output); exit 143 for SIGTERM.  A
# --quiet run that completes prints nothing.  Without --quiet the same
# line names the file too.
. "${top_srcdir:-.}/tests/lib/cli.sh"

interrupt() { # name args...: runs diskio until its test file exists, then SIGTERM
    name=$1; shift
    dir="$t_scratch/$name"
    mkdir "$dir"
    t_spawn "$DISKIO" --mode fsync --runtime 60 --size 8m "$@" "$dir" \
        >"$t_scratch/$name.out" 2>"$t_scratch/$name.err"
    pid=$t_pid
    t_wait_for_file "$dir"
    sleep 0.3
    kill -s TERM $pid
    wait $pid
    status=$?
    [ "$status" -eq 143 ] && t_ok "$name: exit 143" || t_fail "$name: exit $status, expected 143"
}

interrupt quiet-output -q --output "$t_scratch/r.json"
lines=$(wc -l < "$t_scratch/quiet-output.err")
[ "$lines" -eq 1 ] && t_ok "quiet, --output: one line on stderr" ||
    t_fail "quiet, --output: $lines lines: $(cat "$t_scratch/quiet-output.err")"
grep -q "incomplete (interrupted).*in $t_scratch/r.json\$" "$t_scratch/quiet-output.err" &&
    t_ok "the line says incomplete and names the file" ||
    t_fail "line: $(cat "$t_scratch/quiet-output.err")"
[ -s "$t_scratch/r.json" ] && grep -q '"complete": false' "$t_scratch/r.json" &&
    t_ok "the file holds the partial result" || t_fail "r.json"
[ -s "$t_scratch/quiet-output.out" ] && t_fail "quiet wrote to stdout"

interrupt quiet-json -q --format json
[ "$(wc -l < "$t_scratch/quiet-json.err")" -eq 1 ] &&
    grep -q "incomplete (interrupted).*on standard output" "$t_scratch/quiet-json.err" &&
    t_ok "quiet, json to stdout: the line says standard output" ||
    t_fail "quiet-json: $(cat "$t_scratch/quiet-json.err")"
grep -q '"complete": false' "$t_scratch/quiet-json.out" && t_ok "the JSON is on stdout" ||
    t_fail "no JSON on stdout"

interrupt quiet-nothing -q
[ "$(wc -l < "$t_scratch/quiet-nothing.err")" -eq 1 ] &&
    grep -q "incomplete (interrupted).*nothing was kept (--quiet without --output)" \
        "$t_scratch/quiet-nothing.err" && t_ok "quiet, no output: the line says nothing was kept" ||
    t_fail "quiet-nothing: $(cat "$t_scratch/quiet-nothing.err")"

interrupt loud --output "$t_scratch/loud.json"
grep -q "incomplete (interrupted).*in $t_scratch/loud.json\$" "$t_scratch/loud.err" &&
    t_ok "without --quiet the line names the file too" ||
    t_fail "loud: $(cat "$t_scratch/loud.err")"

mkdir "$t_scratch/ok"
t_expect_status 0 "a complete quiet run" -- "$DISKIO" -q --mode fsync --count 20 \
    --output "$t_scratch/ok.json" "$t_scratch/ok"
[ -s "$t_scratch/stderr" ] && t_fail "a complete quiet run wrote: $(cat "$t_scratch/stderr")" ||
    t_ok "a complete quiet run says nothing"
t_done
