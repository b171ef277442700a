#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a missing output directory is made as mkdir -p would; an impossible one is refused first.
#
# diskio creates a missing output directory, with its parents,
# the way the analysis commands do (mkdir -p: mode 0777 less the umask):
# for --output, --trace and --interval-csv alike, before measuring; a
# directory that exists is used as it is; a component that is a file or
# cannot be created is refused before measuring (exit 3, no test file
# made, the message naming the path given and the component at fault).
# diskio-compare writes its output into a new directory by the same rule.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}

dir="$t_scratch/target"
mkdir "$dir"

t_expect_status 0 "--output into a directory that does not exist yet" -- "$DISKIO" -q \
    --mode fsync --count 20 --output "$t_scratch/lab/host1/r.json" "$dir" || t_done
[ -f "$t_scratch/lab/host1/r.json" ] && grep -q '"schema": "diskio-result"' \
    "$t_scratch/lab/host1/r.json" && t_ok "the result is in the new directory" ||
    t_fail "no result in $t_scratch/lab/host1"
mode=$(stat -c %a "$t_scratch/lab/host1")
want=$(printf '%o' $(( 0777 & ~$(umask) )))
[ "$mode" = "$want" ] && t_ok "the directory's mode is 0777 less the umask ($mode)" ||
    t_fail "directory mode $mode, expected $want"

t_expect_status 0 "--trace and --interval-csv into new directories" -- "$DISKIO" -q \
    --mode fsync --runtime 0.3 --interval 0.1 --trace "$t_scratch/traces/a/t.csv" \
    --interval-csv "$t_scratch/series/b/iv.csv" "$dir"
[ -s "$t_scratch/traces/a/t.csv" ] && t_ok "the trace is in its new directory" ||
    t_fail "no trace in $t_scratch/traces/a"
[ -s "$t_scratch/series/b/iv.csv" ] && t_ok "the series is in its new directory" ||
    t_fail "no series in $t_scratch/series/b"

t_expect_status 0 "an existing directory is used as it is" -- "$DISKIO" -q --mode fsync \
    --count 20 --output "$t_scratch/lab/host1/again.json" "$dir"
[ -f "$t_scratch/lab/host1/r.json" ] && t_ok "what was there is kept" || t_fail "r.json gone"

# refused before measuring: a file in the way, a directory diskio may not write in
echo "mine" > "$t_scratch/plain"
t_expect_status 3 "a file where a directory should be" -- "$DISKIO" --runtime 30 \
    --output "$t_scratch/plain/sub/r.json" "$dir"
grep -q "cannot create $t_scratch/plain/sub/r.json: $t_scratch/plain is not a directory" \
    "$t_scratch/stderr" && t_ok "the message names the path and the file in the way" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
[ "$(cat "$t_scratch/plain")" = "mine" ] && t_ok "the file in the way is untouched" ||
    t_fail "plain changed"
t_expect_empty_dir "$dir" "no test file when the output directory cannot be made"

if [ "$(id -u)" -ne 0 ]; then
    mkdir "$t_scratch/locked"
    chmod 0555 "$t_scratch/locked"
    t_expect_status 3 "a directory that cannot be created" -- "$DISKIO" --runtime 30 \
        --output "$t_scratch/locked/new/r.json" "$dir"
    grep -q "cannot create the directory $t_scratch/locked/new" "$t_scratch/stderr" &&
        t_ok "the message names the directory" || t_fail "message: $(cat "$t_scratch/stderr")"
    chmod 0755 "$t_scratch/locked"
    t_expect_empty_dir "$dir" "no test file when the directory cannot be created"
fi

# the analysis commands: the same rule (a new directory with its parents)
if command -v "$PYTHON3" >/dev/null 2>&1 && [ -n "${top_srcdir:-}" ]; then
    fx="$top_srcdir/tests/scripts/fixtures"
    t_expect_status 0 "diskio-compare --output into a new directory" -- "$PYTHON3" -c \
        'import sys; from diskio_analysis.compare.command import main; sys.exit(main(sys.argv[1:]))' \
        --output "$t_scratch/reports/x/cmp.txt" "$fx/env-a/result.json" "$fx/env-b/result.json"
    [ -s "$t_scratch/reports/x/cmp.txt" ] && t_ok "diskio-compare made its directory too" ||
        t_fail "no $t_scratch/reports/x/cmp.txt"
fi
t_done
