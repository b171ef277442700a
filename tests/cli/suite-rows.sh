#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a suite row is one run with its own jobs and unit; job lists are refused.
#
# a suite row is one run with its own jobs and unit: a row's
# --jobs N (with --shared-file) is its run's jobs, a list (--jobs 1,4) is
# refused naming FILE:LINE rather than cut to its first count; --jobs,
# --shared-file and --write-back on a suite's command line are usage
# errors; rows with jobs that each need a file of their own refuse an
# existing file as target; 'unit' shows the rows after it in its unit
# (an unknown unit is refused naming FILE:LINE).  Every refusal exits 2
# before anything is created.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
dir="$t_scratch/target"
mkdir "$dir"

cat > "$t_scratch/jobs.suite" <<'SUITE'
suite jobs
row "T4"     read  --mode read --pattern rand --bs 4k --jobs 4 --shared-file
row "T2"     write --mode fdatasync --bs 4k --jobs 2
unit IOPS
row "T4 ops" read  --mode read --pattern rand --bs 4k --jobs 4 --shared-file
SUITE
t_expect_status 0 "rows with their own --jobs" -- "$DISKIO" --suite "$t_scratch/jobs.suite" \
    --count 20 --size 1m -o "$t_scratch/jobs.json" "$dir" || t_done
"$PYTHON3" - "$t_scratch/jobs.json" <<'PY' && t_ok "each row's run has its jobs" || t_fail "row jobs"
import json, sys
d = json.load(open(sys.argv[1]))
got = {(r["label"], r["column"]): d["runs"][r["run"]] for r in d["suite"]["rows"]}
t4, t2 = got[("T4", "read")], got[("T2", "write")]
assert t4["parameters"]["jobs"] == 4 and t4["parameters"]["shared_file"] is True, t4["parameters"]
assert len(t4["per_job"]) == 4 and t4["ops"] == 80, (len(t4["per_job"]), t4["ops"])
assert t2["parameters"]["jobs"] == 2 and t2["parameters"]["shared_file"] is False
PY
grep -q "^T4      *[0-9.]* MB/s" "$t_scratch/stdout" && grep -q "^T4 ops  *[0-9]* IOPS" "$t_scratch/stdout" &&
    t_ok "the rows after 'unit IOPS' are shown in IOPS, the others in MB/s" ||
    t_fail "units: $(sed -n '/^suite /,$p' "$t_scratch/stdout")"
t_expect_empty_dir "$dir" "no test file left"

printf 'suite x\nrow a b --mode fsync --jobs 1,4\n' > "$t_scratch/list.suite"
t_expect_status 2 "a --jobs list in a row" -- "$DISKIO" --suite "$t_scratch/list.suite" --count 5 "$dir"
grep -q "list.suite:2: row 'a': give one --jobs" "$t_scratch/stderr" &&
    t_ok "refused, naming the file, line and row" || t_fail "message: $(cat "$t_scratch/stderr")"

printf 'suite x\nunit GB/s\nrow a b --mode fsync\n' > "$t_scratch/unit.suite"
t_expect_status 2 "an unknown unit" -- "$DISKIO" --suite "$t_scratch/unit.suite" --count 5 "$dir"
grep -q "unit.suite:2: 'unit' takes one of MB/s" "$t_scratch/stderr" &&
    t_ok "refused, naming the file and line" || t_fail "message: $(cat "$t_scratch/stderr")"

for opt in "--jobs 4" "--shared-file" "--write-back 10"; do
    # shellcheck disable=SC2086
    t_expect_status 2 "$opt with --suite" -- "$DISKIO" --suite "$t_scratch/jobs.suite" $opt \
        --count 5 "$dir"
    grep -q -- "${opt%% *}: with --suite the suite's rows set the workload" "$t_scratch/stderr" ||
        t_fail "message: $(cat "$t_scratch/stderr")"
done

echo "mine" > "$t_scratch/file"
t_expect_status 2 "rows with a file per job, on an existing file" -- "$DISKIO" \
    --suite "$t_scratch/jobs.suite" --count 5 --size 1m --force "$t_scratch/file"
grep -q -- "--jobs 2 writes a file per job" "$t_scratch/stderr" && t_ok "refused before measuring" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
[ "$(cat "$t_scratch/file")" = "mine" ] && t_ok "the file is untouched" || t_fail "file changed"
t_expect_empty_dir "$dir" "nothing created by the refusals"
t_done
