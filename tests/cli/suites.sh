#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio --suite finds suite files, runs their rows and shows each suite's own view.
#
# diskio --suite runs the rows of a suite file and shows the
# suite's own view: the presets are found by name (--suite-path,
# $DISKIO_SUITE_PATH) and by path, a user's own suite file runs the same
# way, a bad suite file is a usage error (exit 2) naming file:line and
# creating nothing; the crystal view has CrystalDiskMark's eight rows with
# the best of N runs, the sweep view the mean and standard deviation of
# its runs, each figure the one the JSON result's repetitions give; the
# JSON result names the suite and each row's run.
. "${top_srcdir:-.}/tests/lib/cli.sh"

suites="${top_srcdir:-.}/suites"
PYTHON=${PYTHON3:-python3}
DISKIO_SUITE_PATH=
# the installed suites' directory (the source tree's, for the build
# tree's diskio), replaced by an empty one: what is installed or in the
# source tree must not change what is found
DISKIO_SUITEDIR="$t_scratch/installed-suites"
mkdir "$DISKIO_SUITEDIR"
export DISKIO_SUITE_PATH DISKIO_SUITEDIR
dir="$t_scratch/target"
mkdir "$dir"
short="--size 8m --runtime 0.05 --warmup 2"

# ---- found by name, by search path, by file path ----
t_expect_status 2 "a suite name not in the search path" -- "$DISKIO" --suite-path /nonexistent \
    --suite crystal $short "$dir"
grep -q "no suite named 'crystal' in --suite-path, \$DISKIO_SUITE_PATH or $DISKIO_SUITEDIR (the suites there: none)" \
    "$t_scratch/stderr" && t_ok "the missing suite is named, where it was looked for and what is there" ||
    t_fail "no message naming the suite: $(cat "$t_scratch/stderr")"
t_expect_empty_dir "$dir" "nothing created for a suite not found"

t_expect_status 0 "crystal found in --suite-path" -- "$DISKIO" --suite-path "/nonexistent:$suites" \
    --suite crystal --suite-runs 3 $short -o "$t_scratch/crystal.json" "$dir"
cp "$t_scratch/stdout" "$t_scratch/crystal.txt"
DISKIO_SUITE_PATH="$suites" t_expect_status 0 "sweep found in \$DISKIO_SUITE_PATH" -- \
    env DISKIO_SUITE_PATH="$suites" "$DISKIO" --suite sweep --suite-runs 3 --suite-max-bs 256k \
    $short -o "$t_scratch/sweep.json" "$dir"
cp "$t_scratch/stdout" "$t_scratch/sweep.txt"
t_expect_status 0 "pg given as a path" -- "$DISKIO" --suite "$suites/pg.suite" --suite-runs 1 \
    $short -o "$t_scratch/pg.json" "$dir"
grep -q "^suite pg: " "$t_scratch/stdout" && t_ok "the pg view is printed" ||
    t_fail "no pg view: $(cat "$t_scratch/stdout")"
t_expect_empty_dir "$dir" "the suites leave no test file behind"

# ---- the crystal view: eight rows, best of N, as the JSON says ----
grep -q "best (highest MB/s) of 3 runs per row" "$t_scratch/crystal.txt" &&
    t_ok "crystal says best of 3" || t_fail "no 'best of 3': $(cat "$t_scratch/crystal.txt")"
"$PYTHON" - "$t_scratch/crystal.json" "$t_scratch/crystal.txt" best 8 <<'PY' &&
import json, re, statistics, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\nsuite ", 1)[1]
how, want = sys.argv[3], int(sys.argv[4])
suite = doc["suite"]
rows = [r for r in suite["rows"] if r["run"] is not None]
assert len(rows) == want, (len(rows), suite)
assert suite["summary"] == how, suite
labels = []
for r in rows:
    if r["label"] not in labels:
        labels.append(r["label"])
columns = []
for r in rows:
    if r["column"] not in columns:
        columns.append(r["column"])
lines = text.splitlines()
for r in rows:
    run = doc["runs"][r["run"]]
    reps = run["repetitions"]
    assert len(reps) == 3, (r, len(reps))
    mbs = [rep["bytes"] / 1e6 / (rep["duration_ns"] / 1e9) for rep in reps]
    line = [l for l in lines if l.startswith(r["label"] + " ")]
    assert len(line) == 1, (r["label"], lines)
    cells = re.findall(r"([0-9.]+)(?: MB/s| ±)", line[0][len(r["label"]):])
    shown = float(cells[columns.index(r["column"])])
    expect = max(mbs) if how == "best" else statistics.mean(mbs)
    assert abs(shown - expect) <= 0.006 + 1e-9 * expect, (r, shown, expect, mbs)
print("ok: %d rows shown as the %s of their runs, as the JSON's repetitions give" % (len(rows), how))
PY
    t_ok "every crystal cell is the best of its 3 runs" || t_fail "the crystal view is not the JSON's best of 3"
for label in "SEQ1M Q8T1" "SEQ1M Q1T1" "RND4K Q32T1" "RND4K Q1T1"; do
    grep -q "^$label  *[0-9.]* MB/s  *[0-9]* IOPS[ !?]*  *[0-9.]* MB/s  *[0-9]* IOPS" \
        "$t_scratch/crystal.txt" && t_ok "crystal row $label: read and write, MB/s and IOPS" ||
        t_fail "crystal row $label missing or incomplete: $(cat "$t_scratch/crystal.txt")"
done

grep -q "^  12 rows with a larger --bs than --suite-max-bs left out" "$t_scratch/sweep.txt" &&
    ! grep -q "^512 KiB" "$t_scratch/sweep.txt" &&
    t_ok "the sweep view counts the rows --suite-max-bs left out instead of listing them" ||
    t_fail "the sweep view's left-out rows: $(cat "$t_scratch/sweep.txt")"

# ---- the sweep view: mean and spread, rows above --suite-max-bs left out ----
"$PYTHON" - "$t_scratch/sweep.json" "$t_scratch/sweep.txt" mean 12 <<'PY' &&
import json, re, statistics, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().split("\nsuite ", 1)[1]
how, want = sys.argv[3], int(sys.argv[4])
suite = doc["suite"]
rows = [r for r in suite["rows"] if r["run"] is not None]
assert len(rows) == want, (len(rows), suite)
skipped = [r for r in suite["rows"] if r["run"] is None]
assert len(skipped) == 12 and all("suite-max-bs" in r["note"] for r in skipped), skipped
lines = text.splitlines()
for r in rows:
    reps = doc["runs"][r["run"]]["repetitions"]
    mbs = [rep["bytes"] / 1e6 / (rep["duration_ns"] / 1e9) for rep in reps]
    line = [l for l in lines if l.startswith(r["label"] + " ")][0]
    cells = re.findall(r"([0-9.]+) ± ([0-9.]+) MB/s", line)
    mean, sd = map(float, cells[0 if r["column"] == "read" else 1])
    assert abs(mean - statistics.mean(mbs)) <= 0.006 * 1.001, (r, mean, mbs)
    assert abs(sd - statistics.stdev(mbs)) <= 0.006 * 1.001, (r, sd, mbs)
print("ok: %d sweep cells are the mean and standard deviation of their 3 runs" % len(rows))
PY
    t_ok "every sweep cell is the mean ± sd of its runs" || t_fail "the sweep view does not match the JSON"

# ---- a user's own suite file ----
cat >"$t_scratch/mine.suite" <<'SUITE'
# two rows of my own
suite mine
title "my writes"   # a comment after a value
runs 2
summary best

row "SEQ 64K" write --mode fdatasync --bs 64k
row "RND 4K"  write --mode async --pattern rand --bs 4k
SUITE
t_expect_status 0 "a user's suite file" -- "$DISKIO" --suite "$t_scratch/mine.suite" --count 20 \
    --size 1m -o "$t_scratch/mine.json" "$dir"
# the run's own lines: its row, then the indented lines under it (a
# disturbed run has one more)
awk '/^fdatasync  *64 KiB/ { own = 1; next } own && /^[^ ]/ { own = 0 } own' "$t_scratch/stdout" |
    grep -q "^  ^ suite mine row SEQ 64K write$" &&
    t_ok "the table names each run's suite row" || t_fail "no suite row under the run: $(cat "$t_scratch/stdout")"
"$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["suite"]
assert s["name"] == "mine" and s["title"] == "my writes" and s["summary"] == "best", s
got = [(r["label"], r["column"], d["runs"][r["run"]]["mode"], d["runs"][r["run"]]["ops"]) for r in s["rows"]]
assert got == [("SEQ 64K", "write", "fdatasync", 40), ("RND 4K", "write", "async", 40)], got
' "$t_scratch/mine.json" && t_ok "the JSON names the suite, each row's run, 2 runs of --count 20" ||
    t_fail "the user's suite result is not as its file says"

# ---- interrupted: the runs measured are kept, the rows not reached say so ----
cat >"$t_scratch/long.suite" <<'SUITE'
suite long
row a w --mode async --bs 8k --runtime 1
row b w --mode async --bs 8k --runtime 1 --pattern rand
row c w --mode async --bs 16k --runtime 1
SUITE
t_spawn "$DISKIO" --suite "$t_scratch/long.suite" --size 1m -o "$t_scratch/long.json" "$dir" \
    >"$t_scratch/long.txt" 2>"$t_scratch/long.err"
t_wait_for_file "$dir"
sleep 0.3
kill -TERM "$t_pid"
wait "$t_pid"
got=$?
[ "$got" -eq 143 ] && t_ok "SIGTERM during a suite: exit 143" || t_fail "SIGTERM: exit $got"
"$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False, d["complete"]
rows = d["suite"]["rows"]
assert rows[0]["run"] == 0, rows
assert rows[2]["run"] is None and "stopped before this row" in rows[2]["note"], rows
' "$t_scratch/long.json" && t_ok "the partial result keeps the suite, the rows not reached say why" ||
    t_fail "the interrupted suite's result: $(cat "$t_scratch/long.json")"
grep -q "^c  *(not run)" "$t_scratch/long.txt" && t_ok "the view marks the row not reached" ||
    t_fail "the interrupted view: $(cat "$t_scratch/long.txt")"
t_expect_empty_dir "$dir" "no test file left by the interrupted suite"

# ---- bad suite files: exit 2, file:line, nothing created ----
bad() { # LINE-NUMBER WHAT-THE-MESSAGE-SAYS DESCRIPTION, the file on stdin
    cat >"$t_scratch/bad.suite"
    t_expect_status 2 "$3" -- "$DISKIO" --suite "$t_scratch/bad.suite" "$dir" || return
    grep -q "bad.suite:$1: .*$2" "$t_scratch/stderr" && t_ok "$3: names bad.suite:$1" ||
        t_fail "$3: no 'bad.suite:$1: ...$2' in: $(cat "$t_scratch/stderr")"
    t_expect_empty_dir "$dir" "$3: nothing created"
}
printf 'suite x\nrow a w --mode fsync --bs 8k\nrows 3\n' |
    bad 3 "unknown keyword 'rows'" "an unknown keyword"
printf '# no name first\nrow a w --mode fsync --bs 8k\n' |
    bad 2 "the first line must be 'suite NAME'" "a row before the suite line"
printf 'suite x\nrow a w --mode fsync --bs 8k --output /tmp/x\n' |
    bad 2 "--output is not a row option" "an output option in a row"
printf 'suite x\nruns 2\nrow a w --mode nosuchmode --bs 8k\n' |
    bad 3 "unknown mode 'nosuchmode'" "an unknown mode in a row"
printf 'suite x\nrow a w --mode fsync,async --bs 8k\n' |
    bad 2 "give exactly one --mode" "two modes in a row"
printf 'suite x\nrow a w --mode fsync --bs 8k,16k\n' |
    bad 2 "give one --bs" "two block sizes in a row"
printf 'suite x\nrow "a w --mode fsync --bs 8k\n' |
    bad 2 'a " is not closed' "an unclosed quote"
printf 'suite x\nruns 0\nrow a w --mode fsync --bs 8k\n' |
    bad 2 "'runs N' takes a whole number from 1 to 100" "zero runs"
printf 'suite x\nsummary median\nrow a w --mode fsync --bs 8k\n' |
    bad 2 "'summary' takes 'best'" "an unknown summary"
printf 'suite x\nrow a w --mode fsync --bs 8k\nrow a w --mode async --bs 8k\n' |
    bad 3 "row 'a' column 'w' is already on line 2" "a row given twice"
printf 'suite x\nrow a w --mode fsync --iodepth 4\n' |
    bad 2 "--iodepth: applies to modes aio" "an option the row's mode does not take"
printf 'suite x\n' | bad 1 "the suite has no 'row' line" "a suite without rows"
# a suite is UTF-8 text: a NUL, bytes that are not UTF-8 and characters
# that act on a terminal are refused by line and byte, never shown raw
printf 'suite x\nrow a w --mode\000 fsync --bs 8k\n' |
    bad 2 "a NUL byte at byte 15 (a suite file is text)" "a NUL byte"
grep -q "longer than" "$t_scratch/stderr" && t_fail "a NUL byte reported as a long line"
printf 'suite x\ntitle "caf\351"\nrow a w --mode fsync --bs 8k\n' |
    bad 2 "byte 11 (0xe9) is not part of UTF-8 text" "a title that is not UTF-8"
printf 'suite x\nrow "a\342\200\256b" w --mode fsync --bs 8k\n' |
    bad 2 "byte 7 is the control or formatting character U+202E" "a bidi override in a label"
printf 'suite x\ntitle "\033]0;pwned\007"\nrow a w --mode fsync --bs 8k\n' |
    bad 2 "byte 8 is the control or formatting character U+001B" "an escape in a title"
grep -q "$(printf '\033')" "$t_scratch/stderr" && t_fail "a raw ESC in the message"

# a UTF-8 byte order mark at the start of the file is accepted
printf '\357\273\277suite bom\ntitle "Z\303\274rich"\nrow a w --mode fsync --bs 8k\n' \
    >"$t_scratch/bom.suite"
t_expect_status 0 "a suite file starting with a byte order mark" -- "$DISKIO" \
    --suite "$t_scratch/bom.suite" --count 5 --size 64k "$dir"
grep -q "^suite bom: Z$(printf '\303\274')rich: " "$t_scratch/stdout" &&
    t_ok "its name and title read as written" || t_fail "view: $(cat "$t_scratch/stdout")"

# a FIFO (or anything but a regular file) is refused at once, not read
mkfifo "$t_scratch/fifo.suite"
t_expect_status 2 "a FIFO as the suite file" -- timeout 20 "$DISKIO" \
    --suite "$t_scratch/fifo.suite" "$dir"
grep -q "fifo.suite is a FIFO, not a suite file; give a regular file" "$t_scratch/stderr" &&
    t_ok "the message says it is a FIFO" || t_fail "message: $(cat "$t_scratch/stderr")"
t_expect_status 2 "a directory as the suite file" -- "$DISKIO" --suite "$dir/" "$dir"
t_expect_empty_dir "$dir" "nothing created for a FIFO or a directory"

t_expect_status 2 "a workload option beside --suite" -- "$DISKIO" --suite "$t_scratch/mine.suite" \
    --mode fsync "$dir"
grep -q "^diskio: --mode: with --suite the suite's rows set the workload" "$t_scratch/stderr" &&
    t_ok "--mode beside --suite is refused by name" || t_fail "$(cat "$t_scratch/stderr")"
# ---- a filesystem that refuses O_DIRECT: its rows are not run, with the reason;
# none runnable: a target error that leaves no file behind ----
if [ "$(id -u)" -eq 0 ] && mkdir "$t_scratch/ramfs" &&
    mount -t ramfs ramfs "$t_scratch/ramfs" 2>/dev/null; then
    trap 'umount "$t_scratch/ramfs" 2>/dev/null; rm -rf "$t_scratch"' EXIT
    cat >"$t_scratch/direct.suite" <<'SUITE'
suite direct
row "8K" direct --mode direct --bs 8k
row "8K" synced --mode fdatasync --bs 8k
SUITE
    t_expect_status 0 "a suite with an O_DIRECT row on ramfs" -- "$DISKIO" --suite \
        "$t_scratch/direct.suite" --count 20 --size 1m -o "$t_scratch/direct.json" "$t_scratch/ramfs"
    grep -q "row 8K direct (.*direct.suite:2): not run: mode direct needs O_DIRECT, which the filesystem (ramfs) refuses" \
        "$t_scratch/stderr" && t_ok "the O_DIRECT row is named, with its file:line, and not run" ||
        t_fail "no note for the O_DIRECT row: $(cat "$t_scratch/stderr")"
    "$PYTHON" -c '
import json, sys
rows = json.load(open(sys.argv[1]))["suite"]["rows"]
assert rows[0]["run"] is None and "O_DIRECT" in rows[0]["note"], rows
assert rows[1]["run"] == 0 and rows[1]["note"] is None, rows
' "$t_scratch/direct.json" && t_ok "the result keeps the row, its run null and the reason" ||
        t_fail "the result's rows: $(cat "$t_scratch/direct.json")"
    t_expect_status 3 "crystal on ramfs: no row can run" -- "$DISKIO" --suite-path "$suites" \
        --suite crystal $short "$t_scratch/ramfs"
    grep -q "none of the rows of suite crystal .* can run at" "$t_scratch/stderr" &&
        t_ok "a suite none of whose rows can run there is a target error" ||
        t_fail "$(cat "$t_scratch/stderr")"
    t_expect_empty_dir "$t_scratch/ramfs" "nothing left on ramfs"
    # where output files are written under a temporary name (no O_TMPFILE,
    # as on FUSE: the preload), every one is removed when no row can run
    preload="${top_builddir:-.}/tests/.libs/norename-preload.so"
    if [ -f "$preload" ]; then
        mkdir "$t_scratch/outputs"
        t_expect_status 3 "no row can run, with every output file asked for" -- \
            env LD_PRELOAD="$preload" "$DISKIO" --suite-path "$suites" --suite crystal $short \
            -o "$t_scratch/outputs/r.json" --interval-csv "$t_scratch/outputs/iv.csv" \
            "$t_scratch/ramfs"
        t_expect_empty_dir "$t_scratch/outputs" "no temporary output file left"
    else
        t_unbuilt "$preload"
    fi
    umount "$t_scratch/ramfs"
else
    echo "skip: the O_DIRECT rows on ramfs need root and ramfs"
fi

t_expect_status 2 "--suite-runs without --suite" -- "$DISKIO" --suite-runs 3 "$dir"
t_expect_empty_dir "$dir" "nothing created by the usage errors"
t_done
