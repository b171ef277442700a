#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio's messages show paths and option values by the one rule for untrusted text.
#
# diskio's own messages show a target path, an --output,
# --trace or --suite name and a bad option value by the one rule for
# untrusted text (doc/result-schema.md, "Strings"): no terminal escape,
# control or bidi byte reaches standard error raw (each is \xHH), and a
# name that literally holds the four characters \x1b shows as \\x1b, so it
# never looks like one holding ESC.  The table shows a backslash in the
# target's path doubled the same way.
. "${top_srcdir:-.}/tests/lib/cli.sh"

esc=$(printf '\033')
bel=$(printf '\007')
rlo=$(printf '\342\200\256') # U+202E RIGHT-TO-LEFT OVERRIDE
hostile="x${esc}[2J${esc}]0;pwned${bel}${rlo}y"
shown='x\x1b[2J\x1b]0;pwned\x07\xe2\x80\xaey'
dir="$t_scratch/dir"
mkdir "$dir"
quick="-m fsync --count 5 --size 64k"

# No byte of stderr is a control character but its line ends, and none is
# U+202E; the message holds the name as the rule shows it.
check_stderr() { # description shown-text
    if od -An -tx1 -v "$t_scratch/stderr" | tr ' ' '\n' | grep -v '^0a$' |
        grep -q -E '^(0[0-9a-f]|1[0-9a-f]|7f)$'; then
        t_fail "$1: a raw control byte on stderr: $(od -c "$t_scratch/stderr" | head -5)"
    elif grep -q "$rlo" "$t_scratch/stderr"; then
        t_fail "$1: a raw U+202E on stderr"
    elif ! grep -q -F -- "$2" "$t_scratch/stderr"; then
        t_fail "$1: the message does not show '$2': $(cat "$t_scratch/stderr")"
    else
        t_ok "$1: shown as $2"
    fi
}

# shellcheck disable=SC2086
t_expect_status 3 "a target whose directory does not exist" -- \
    "$DISKIO" $quick "$t_scratch/$hostile/file"
check_stderr "target" "$shown/file"

# an output's directory is made when missing: a regular file in its
# place is what refuses it
echo "a file" > "$t_scratch/$hostile"
# shellcheck disable=SC2086
t_expect_status 3 "an --output under a file" -- \
    "$DISKIO" $quick -o "$t_scratch/$hostile/r.json" "$dir"
check_stderr "--output" "$shown/r.json"

# shellcheck disable=SC2086
t_expect_status 3 "a --trace under a file" -- \
    "$DISKIO" $quick --trace "$t_scratch/$hostile/t.csv" "$dir"
check_stderr "--trace" "$shown/t.csv"
rm -f "$t_scratch/$hostile"

t_expect_status 2 "a --suite file that does not exist" -- \
    "$DISKIO" --suite "$t_scratch/$hostile.suite" "$dir"
check_stderr "--suite" "$shown.suite"

for option in --bs --runtime --count --mode --pattern --format --percentiles --jobs; do
    t_expect_status 2 "a bad $option value" -- "$DISKIO" "$option" "$hostile" "$dir"
    check_stderr "$option" "'$shown'"
done
t_expect_status 2 "an unknown option" -- "$DISKIO" "--$hostile" "$dir"
check_stderr "unknown option" "$shown"
t_expect_empty_dir "$dir" "nothing created"

# the four characters \x1b and the byte ESC are told apart
# shellcheck disable=SC2086
t_expect_status 3 "a path holding the text \\x1b" -- \
    "$DISKIO" $quick "$t_scratch/lit\\x1b/file"
check_stderr "literal \\x1b" 'lit\\x1b/file'
grep -q -F 'lit\x1b/file' "$t_scratch/stderr" &&
    t_fail "a literal \\x1b shows as an escaped ESC: $(cat "$t_scratch/stderr")"

# the table shows the target's backslash doubled too
mkdir "$t_scratch/back\\slash"
# shellcheck disable=SC2086
t_expect_status 0 "a run in a directory whose name holds a backslash" -- \
    "$DISKIO" $quick "$t_scratch/back\\slash"
grep -q -F 'back\\slash' "$t_scratch/stdout" && t_ok "the table shows the backslash doubled" ||
    t_fail "table: $(cat "$t_scratch/stdout")"
t_done
