#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a run on a terminal shows one progress line, redrawn in place, never wider than the terminal.
#
# a run longer than a second shows a progress line on stderr
# when stderr is a terminal (a pseudo-terminal from script(1)): the
# target, the mode and the size written as the table writes it (8 KiB)
# with what the table's row label adds (fdatasync/4 rand), run i of N, the ops so far, the live p50 and p99, the elapsed time and an
# ETA (from --runtime, or from --count and the rate so far), and the fill
# before a run as its own step ("filling 4 MiB… 40%"); one line redrawn in
# place, never wider than the terminal, with no byte of the target's
# name that a terminal acts on; none with --quiet, and none when stderr is
# not a terminal.
. "${top_srcdir:-.}/tests/lib/cli.sh"
command -v script >/dev/null 2>&1 || { echo "SKIP: script(1) not installed"; exit 77; }
command -v stty >/dev/null 2>&1 || { echo "SKIP: stty not installed"; exit 77; }

# The runs are independent: they all start at once (each in a directory
# of its own, on a terminal of its own), and the checks read what each
# terminal got once all have ended.  A run shows its line from its second
# on, so each lasts 1.3-1.6 s; the file is 4 MiB (the fill is quick)
# except where the fill is what is looked at.  The runs whose subject is
# where the line goes and how it is cut write at a fixed --rate: what
# they show is the same as an unpaced run's, at a fraction of the CPU.
paced="--rate 1000 --size 4m"
pids=""

# on_tty NAME COLUMNS COMMAND: COMMAND on a pseudo-terminal COLUMNS wide,
# in the background, in directory $t_scratch/NAME (made here; the command
# names it as $dir); finish_tty NAME leaves what it wrote in
# $t_scratch/NAME.ts (script's own first line, which names the command,
# left out) and every redraw of the line on a line of its own in
# $t_scratch/NAME.lines
on_tty() {
    mkdir "$t_scratch/$1"
    dir="$t_scratch/$1" script -qfec "stty cols $2 rows 40; $3" "$t_scratch/$1.all" \
        </dev/null >/dev/null 2>&1 &
    pids="$pids $!"
}
finish_tty() {
    sed 1d "$t_scratch/$1.all" >"$t_scratch/$1.ts"
    tr '\r' '\n' <"$t_scratch/$1.ts" | sed 's/\x1b\[K//g' >"$t_scratch/$1.lines"
}
lines() { grep "$2" "$t_scratch/$1.lines"; }
ts() { cat "$t_scratch/$1.ts"; }
# wider N: the lines of more than N columns, counted in characters, not
# bytes (mawk counts bytes, and the "…" before a cut target is three)
wider() { sed 's/…/./g' | awk -v most="$1" 'length($0) > most'; }

on_tty two 200 "'$DISKIO' --mode fdatasync,async --runtime 1.6 --size 4m \"\$dir\""
# what sets the run apart, as the table's row label says it
on_tty label 200 "'$DISKIO' --mode fdatasync --sync-every 4 --pattern rand --bs 4k --runtime 1.5 --size 4m \"\$dir\""
# several jobs: named as the table does, their ops summed, no live
# percentiles (the jobs' histograms are merged only at the end)
on_tty jobs 200 "'$DISKIO' --mode async --jobs 2 --runtime 1.5 --size 4m \"\$dir\""
# a narrower terminal: the target, then the elapsed time left out, so
# that the figures and the ETA fit; narrower still, the line is cut
on_tty narrow 76 "'$DISKIO' --mode async --runtime 1.5 $paced \"\$dir\""
on_tty narrower 40 "'$DISKIO' --mode async --runtime 1.5 $paced \"\$dir\""
# the fill as its own step, and an ETA from --count at the rate so far,
# on a slow device (every write of the test file delayed 2 ms)
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
if [ -f "$preload" ]; then
    on_tty fill 200 "env LD_PRELOAD='$preload' DISKIO_TEST_SLOW_WRITE_US=2000 '$DISKIO' --mode fdatasync --size 4m --count 700 \"\$dir\""
else
    t_unbuilt "$preload"
fi
# a target whose name holds an escape: shown by the one rule for
# untrusted text, as \xHH
odd="$t_scratch/odd/a$(printf '\033')]0;x$(printf '\007')b"
on_tty odd 200 "mkdir '$odd' && '$DISKIO' --mode async --runtime 1.5 $paced '$odd' && rmdir '$odd'"
on_tty quiet 200 "'$DISKIO' --quiet --mode async --runtime 1.5 $paced \"\$dir\""
mkdir "$t_scratch/notty"
"$DISKIO" --mode fdatasync --runtime 1.3 --size 4m "$t_scratch/notty" >/dev/null 2>"$t_scratch/err"
for pid in $pids; do wait "$pid"; done

finish_tty two
dir="$t_scratch/two"
lines two "run 1 of 2" | grep -q "^$dir: fdatasync 8 KiB, run 1 of 2: [0-9]* ops, p50 [0-9.]* [num]*s, p99 [0-9.]* [num]*s, [0-9.]* s, ETA [0-9.]* s$" &&
    t_ok "the line: target, mode and size, run 1 of 2, ops, p50, p99, elapsed, ETA" ||
    t_fail "no full progress line: $(head -c 600 "$t_scratch/two.lines")"
lines two "async 8 KiB, run 2 of 2: [0-9]* ops, p50 " >/dev/null && t_ok "run 2 of 2" ||
    t_fail "no line for run 2 of 2: $(head -c 600 "$t_scratch/two.lines")"
ts two | grep -q "8192B" && t_fail "a size written 8192B" || t_ok "sizes in KiB"
# one line, redrawn: every redraw of both runs, erased, then the table,
# on the terminal's first line (nothing but carriage returns between)
ts two | head -1 | grep -q "run 1 of 2.*run 2 of 2.*diskio " &&
    t_ok "one line redrawn in place" ||
    t_fail "the progress line is not one line: $(ts two | head -3 | cut -c1-300)"
# the ETA counts down to the end of the 1.6 s run
lines two "run 1 of 2" | sed 's/.*ETA \([0-9.]*\) s$/\1/' | awk '$1 > 1.6 { bad = 1 } END { exit bad }' &&
    t_ok "ETA within --runtime" || t_fail "ETA beyond --runtime: $(lines two 'run 1 of 2')"

finish_tty label
lines label "^$t_scratch/label: fdatasync/4 rand 4 KiB, run 1 of 1: [0-9]* ops" >/dev/null &&
    t_ok "the run named fdatasync/4 rand 4 KiB" ||
    t_fail "no 'fdatasync/4 rand 4 KiB': $(head -c 300 "$t_scratch/label.lines")"

finish_tty jobs
lines jobs "^$t_scratch/jobs: async ×2 jobs 8 KiB, run 1 of 1: [0-9]* ops, [0-9.]* s, ETA [0-9.]* s$" >/dev/null &&
    t_ok "--jobs 2: async ×2 jobs 8 KiB, ops, elapsed and ETA" ||
    t_fail "no line for --jobs 2: $(head -c 300 "$t_scratch/jobs.lines")"

finish_tty narrow
[ -z "$(lines narrow "run 1 of" | wider 75)" ] &&
    t_ok "no progress line wider than 75 columns on a 76-column terminal" ||
    t_fail "a line wider than the terminal: $(lines narrow "run 1 of" | wider 75 | head -2)"
lines narrow "^async 8 KiB, run 1 of 1: [0-9]* ops, p50 .*, p99 .*, ETA [0-9.]* s$" >/dev/null &&
    t_ok "76 columns: mode, run, ops, p50, p99 and ETA kept" ||
    t_fail "76-column line: $(head -c 400 "$t_scratch/narrow.lines")"
finish_tty narrower
[ -z "$(lines narrower "run 1 of" | wider 39)" ] &&
    lines narrower "^async 8 KiB, run 1 of 1: [0-9]" >/dev/null &&
    t_ok "40 columns: the line cut to 39" ||
    t_fail "40-column line: $(lines narrower "run 1 of" | head -2)"

if [ -f "$preload" ]; then
    finish_tty fill
    lines fill "fdatasync 8 KiB, run 1 of 1: filling 4 MiB… [0-9]*%$" >/dev/null &&
        t_ok "the fill shown as filling 4 MiB… N%" ||
        t_fail "no fill step: $(head -c 600 "$t_scratch/fill.lines")"
    lines fill "run 1 of 1: [0-9]* ops, p50 .*, ETA [0-9.]* s$" >/dev/null &&
        t_ok "an ETA from --count" || t_fail "no ETA from --count: $(head -c 600 "$t_scratch/fill.lines")"
fi

finish_tty odd
lines odd 'a\\x1b]0;x\\x07b: async 8 KiB, run 1 of 1' >/dev/null &&
    t_ok "escape and bell in the target shown as \\xHH" ||
    t_fail "target not shown safely: $(head -c 300 "$t_scratch/odd.lines" | od -c | head -5)"
ts odd | grep -q "$(printf '\007')" && t_fail "a BEL reached the terminal" || t_ok "no BEL on the terminal"
[ -d "$odd" ] && t_fail "the run on $odd did not end well: $(head -c 300 "$t_scratch/odd.ts")"

finish_tty quiet
ts quiet | grep -q "run 1 of" && t_fail "a progress line with --quiet" || t_ok "no progress with --quiet"

grep -q " ops\|run 1 of" "$t_scratch/err" && t_fail "progress printed to a non-terminal" ||
    t_ok "no progress when stderr is not a terminal"
for d in two label jobs narrow narrower fill odd quiet notty; do
    [ -d "$t_scratch/$d" ] && t_expect_empty_dir "$t_scratch/$d" "test file removed"
done
t_done
