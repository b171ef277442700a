#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every kind of bad command line exits 2, names the option and creates nothing.
#
# every kind of bad command line exits 2 with a message that
# names the option (or the problem), and creates nothing in the target:
# hex, inf and nan are refused by every option that takes a fraction, and
# --format intervals needs --interval.  A target that is the kernel's
# /proc is named for what it is (exit 3), not as a missing directory.
. "${top_srcdir:-.}/tests/lib/cli.sh"

target="$t_scratch/target"
mkdir "$target"

# args|word the message must contain
while IFS='|' read -r args word; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    "$DISKIO" $args "$target" >"$t_scratch/out" 2>"$t_scratch/err"
    status=$?
    if [ "$status" -ne 2 ]; then
        t_fail "'$args': exit $status, expected 2"
    elif ! grep -q -- "$word" "$t_scratch/err"; then
        t_fail "'$args': message does not name '$word': $(cat "$t_scratch/err")"
    elif ! grep -q "Try 'diskio --help'" "$t_scratch/err"; then
        t_fail "'$args': message does not point to --help"
    elif [ -s "$t_scratch/out" ]; then
        t_fail "'$args': printed to stdout"
    else
        t_ok "'$args' -> exit 2, names '$word'"
    fi
    t_expect_empty_dir "$target" "'$args'"
done <<'LINES'
--bs 99999999999999999999k|--bs
--bs 100|--bs
--bs 65m|--bs
--bs 4q|--bs
--bs -8k|--bs
--count 0|--count
--count -3|--count
--count 1.5|--count
--runtime 0|--runtime
--runtime -1|--runtime
--runtime forever|--runtime
--size 0|--size
--size 4k --bs 8k|--size
--pattern zigzag|--pattern
--mode fsnyc|fsnyc
--mode fsync,,|--mode
--iodepth 0 -m aio|--iodepth
--iodepth 5000 -m aio|--iodepth
--iodepth 4 -m fsync|--iodepth
--sync-every 0|--sync-every
--sync-every 8 -m osync|--sync-every
--batch 0 -m aio|--batch
--batch 8 --iodepth 4 -m aio|--batch
--batch 2 -m fsync|--batch
--format yaml|--format
--warmup many|--warmup
--nonsense|--nonsense
--bs 1000 -m direct|512
--repeat 0|--repeat
--repeat 1001|--repeat
--repeat 2x|--repeat
--runtime 0x10|--runtime: '0x10'
--runtime inf|--runtime: 'inf'
--runtime nan|--runtime: 'nan'
--interval 0x1|--interval: '0x1'
--rate 0x10 -m fsync|--rate: '0x10'
--percentiles 0x10|--percentiles: '0x10' is not a decimal number
--format intervals|there is no series to write without --interval
-f intervals -o x.csv|there is no series to write without --interval
LINES

# no target at all, and two targets
"$DISKIO" --count 5 >/dev/null 2>"$t_scratch/err"
[ $? -eq 2 ] && grep -q "no target" "$t_scratch/err" && t_ok "missing target -> exit 2" ||
    t_fail "missing target not reported"
"$DISKIO" "$target" "$target" >/dev/null 2>"$t_scratch/err"
[ $? -eq 2 ] && grep -q "one target" "$t_scratch/err" && t_ok "two targets -> exit 2" ||
    t_fail "two targets not reported"
# a missing directory is a target problem (3), not a usage problem
t_expect_status 3 "missing directory" -- "$DISKIO" --count 1 "$t_scratch/no/such/dir"
grep -q "does not exist" "$t_scratch/stderr" || t_fail "missing directory message: $(cat "$t_scratch/stderr")"
# a directory that exists but holds no files (the kernel's /proc): said
# what it is, not "does not exist"
if [ -d /proc/self ]; then
    t_expect_status 3 "/proc as the target" -- "$DISKIO" --count 1 /proc
    grep -q "cannot create a test file in /proc: .*it is on proc, a filesystem of the kernel's own" \
        "$t_scratch/stderr" && ! grep -q "does not exist" "$t_scratch/stderr" &&
        t_ok "the message says /proc is the kernel's proc filesystem" ||
        t_fail "/proc message: $(cat "$t_scratch/stderr")"
fi
t_expect_empty_dir "$target" "after all bad lines"
t_done
