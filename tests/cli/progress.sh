#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a run longer than a second shows a progress line on stderr
# when stderr is a terminal (a pseudo-terminal from script(1)), and none
# when it is not.
. "${top_srcdir:-.}/tests/cli/lib.sh"
command -v script >/dev/null 2>&1 || { echo "SKIP: script(1) not installed"; exit 77; }
dir="$t_scratch/dir"
mkdir "$dir"
script -qec "'$DISKIO' --mode fdatasync --runtime 1.8 '$dir'" "$t_scratch/typescript" \
    </dev/null >/dev/null 2>&1
grep -q "fdatasync 8192B: [0-9]* ops, 1\.[0-9] s" "$t_scratch/typescript" &&
    t_ok "progress line on a terminal" || t_fail "no progress line: $(tr '\r' '\n' < "$t_scratch/typescript" | head -5)"
"$DISKIO" --mode fdatasync --runtime 1.3 "$dir" >/dev/null 2>"$t_scratch/err"
grep -q " ops, " "$t_scratch/err" && t_fail "progress printed to a non-terminal" ||
    t_ok "no progress when stderr is not a terminal"
t_expect_empty_dir "$dir" "test file removed"
t_done
