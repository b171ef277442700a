#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --jobs runs writers side by side, each with its own figures adding up to the run's.
#
# concurrent writers.  --jobs 4 --count N does 4 x N ops,
# each job N, and the JSON's per_job figures add up to the run's; while
# the jobs run there is one test file per job in the target directory
# (one with --shared-file), and afterwards none, with a file of the user's
# beside them untouched; --jobs 1,2 sweeps (two runs, the text rows say
# the jobs); an interrupted --jobs run keeps its partial result (exit
# 130); a sync failing in the jobs stops them all, names the job and
# keeps what was measured (exit 1); bad values and combinations are
# usage errors (exit 2) naming --jobs, with nothing created.  As root, on
# a 32 MiB tmpfs made by the test: the free-space check counts a file per
# job (exit 3 before anything is written), and one shared file fits.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to parse JSON"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
echo "the user's own" > "$dir/keep.txt"
touch -d '2001-01-01 00:00:00' "$dir/keep.txt"
keep_before=$(stat -c '%s %Y %i' "$dir/keep.txt")

# The user's file is untouched, and nothing else is left in the directory.
check_dir_clean() {
    left=$(ls -A "$dir" | tr '\n' ' ')
    [ "$left" = "keep.txt " ] || t_fail "$1: the directory holds: $left"
    [ "$(stat -c '%s %Y %i' "$dir/keep.txt")" = "$keep_before" ] ||
        t_fail "$1: the user's file was touched"
    [ "$(cat "$dir/keep.txt")" = "the user's own" ] || t_fail "$1: the user's file changed"
}

# ---- 4 jobs x 50 ops, per_job adds up ----
t_expect_status 0 "--jobs 4 --count 50" -- "$DISKIO" --mode fdatasync --count 50 --size 256k \
    --jobs 4 --output "$t_scratch/j4.json" "$dir" || t_done
check_dir_clean "--jobs 4"
grep -q "fdatasync ×4 jobs" "$t_scratch/stdout" ||
    t_fail "the row does not show the jobs: $(cat "$t_scratch/stdout")"
"$PYTHON3" - "$t_scratch/j4.json" <<'PY' || t_fail "--jobs 4 JSON"
import json, sys
d = json.load(open(sys.argv[1]))
(r,) = d["runs"]
p = r["parameters"]
assert p["jobs"] == 4 and p["shared_file"] is False, p
assert r["ops"] == 200 and r["latency"]["total"]["count"] == 200, r["ops"]
jobs = r["per_job"]
assert [j["job"] for j in jobs] == [0, 1, 2, 3], jobs
assert all(j["ops"] == 50 and j["errors"] == 0 and j["error"] is None for j in jobs), jobs
assert sum(j["ops"] for j in jobs) == r["ops"]
assert sum(j["bytes"] for j in jobs) == r["bytes"] == 200 * 8192
assert max(j["duration_ns"] for j in jobs) <= r["duration_ns"]
assert all(0 < j["p50_ns"] <= j["p99_ns"] <= j["max_ns"] for j in jobs), jobs
assert max(j["max_ns"] for j in jobs) == r["latency"]["total"]["max"]
PY

# ---- one file per job while they run; one with --shared-file ----
# (the files are counted from outside while diskio runs: from before they
# appear until they are gone again at the end of the run, at most 30 s)
count_files_during() { # what-to-expect description options...
    want=$1; what=$2; shift 2
    rm -f "$t_scratch/during.json"
    t_spawn "$DISKIO" --quiet --mode fdatasync --runtime 1 --size 256k "$@" \
        --output "$t_scratch/during.json" "$dir"
    seen=0
    i=0
    while [ $i -lt 600 ]; do
        n=$(ls -A "$dir" | grep -c '^diskio-test\.')
        [ "$n" -gt "$seen" ] && seen=$n
        [ "$seen" -gt 0 ] && [ "$n" -eq 0 ] && break
        sleep 0.05
        i=$((i + 1))
    done
    wait "$t_pid" || t_fail "$what: exit $?"
    [ "$seen" -eq "$want" ] && t_ok "$what: $seen test file(s) during the run" ||
        t_fail "$what: $seen test files during the run, expected $want"
    check_dir_clean "$what"
}
count_files_during 4 "--jobs 4" --jobs 4
count_files_during 1 "--jobs 4 --shared-file" --jobs 4 --shared-file
"$PYTHON3" - "$t_scratch/during.json" <<'PY' || t_fail "--shared-file JSON"
import json, sys
(r,) = json.load(open(sys.argv[1]))["runs"]
assert r["parameters"]["jobs"] == 4 and r["parameters"]["shared_file"] is True
assert len(r["per_job"]) == 4 and all(j["ops"] > 0 for j in r["per_job"]), r["per_job"]
assert sum(j["ops"] for j in r["per_job"]) == r["ops"]
PY

# ---- a sweep ----
t_expect_status 0 "--jobs 1,2 sweep" -- "$DISKIO" --mode fdatasync --count 20 --size 256k \
    --jobs 1,2 --output "$t_scratch/sweep.json" "$dir"
check_dir_clean "--jobs 1,2"
grep -q "fdatasync ×2 jobs" "$t_scratch/stdout" || t_fail "sweep rows: $(cat "$t_scratch/stdout")"
"$PYTHON3" - "$t_scratch/sweep.json" <<'PY' || t_fail "sweep JSON"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert [r["parameters"]["jobs"] for r in runs] == [1, 2], runs
assert [r["ops"] for r in runs] == [20, 40], [r["ops"] for r in runs]
assert "per_job" not in runs[0] and len(runs[1]["per_job"]) == 2
PY

# ---- interrupted ----
# (a run that did not stop would go on for 120 s: the bounds below are a
# minute, far from both that and the 1.5 s it is given)
t_spawn "$DISKIO" --quiet --mode fdatasync --runtime 120 --size 256k --jobs 3 \
    --output "$t_scratch/int.json" "$dir"
sleep 1.5
kill -INT "$t_pid"
wait "$t_pid"
status=$?
[ "$status" -eq 130 ] && t_ok "interrupted --jobs 3 (exit 130)" ||
    t_fail "interrupted --jobs 3: exit $status, expected 130"
check_dir_clean "interrupted"
"$PYTHON3" - "$t_scratch/int.json" <<'PY' || t_fail "interrupted JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False
(r,) = d["runs"]
assert r["complete"] is False and r["error"]["during"] == "interrupted", r["error"]
assert r["ops"] > 0 and len(r["per_job"]) == 3
assert sum(j["ops"] for j in r["per_job"]) == r["ops"]
assert r["duration_ns"] < 60e9, r["duration_ns"]
PY

# ---- a failing sync stops every job and names the one that failed ----
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
if [ -f "$preload" ]; then
    t_expect_status 1 "EIO in the jobs" -- env LD_PRELOAD="$preload" DISKIO_TEST_FAIL_AT=200 \
        DISKIO_TEST_FAIL_ERRNO=5 "$DISKIO" --quiet --mode fdatasync --runtime 120 --size 256k \
        --jobs 4 --output "$t_scratch/eio.json" "$dir"
    check_dir_clean "EIO"
    grep -q "mode fdatasync: job [0-3] of 4: sync failed at its op [0-9]*: Input/output error" \
        "$t_scratch/stderr" || t_fail "EIO message: $(cat "$t_scratch/stderr")"
    "$PYTHON3" - "$t_scratch/eio.json" <<'PY' || t_fail "EIO JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False
(r,) = d["runs"]
e = r["error"]
assert e["errno"] == 5 and e["during"] == "sync" and 0 <= e["job"] < 4, e
failed = r["per_job"][e["job"]]
assert failed["errors"] == 1 and failed["error"]["during"] == "sync", failed
assert failed["error"]["op"] == e["op"] == failed["ops"], (failed, e)
assert sum(j["ops"] for j in r["per_job"]) == r["ops"] > 0
assert r["duration_ns"] < 60e9, r["duration_ns"]
PY
    # failing in the warmups (after the 4 fills' syncs): nothing measured,
    # the job still named
    t_expect_status 1 "EIO in the warmups" -- env LD_PRELOAD="$preload" DISKIO_TEST_FAIL_AT=10 \
        DISKIO_TEST_FAIL_ERRNO=5 "$DISKIO" --quiet --mode fdatasync --count 50 --size 256k \
        --jobs 4 --output "$t_scratch/warm.json" "$dir"
    check_dir_clean "EIO in the warmups"
    "$PYTHON3" - "$t_scratch/warm.json" <<'PY' || t_fail "warmup EIO JSON"
import json, sys
(r,) = json.load(open(sys.argv[1]))["runs"]
assert r["complete"] is False and r["ops"] == 0, r
assert r["error"]["errno"] == 5 and 0 <= r["error"]["job"] < 4, r["error"]
assert [j["ops"] for j in r["per_job"]] == [0, 0, 0, 0], r["per_job"]
assert r["per_job"][r["error"]["job"]]["errors"] == 1
PY
else
    t_unbuilt "$preload"
fi

# ---- usage errors: exit 2, naming --jobs, nothing created ----
echo data > "$t_scratch/mine"
for bad in "--jobs 0" "--jobs 257" "--jobs abc" "--jobs 2,2" "--jobs 2 --rate 100" \
    "--jobs 1,2 --trace $t_scratch/t.csv" "--jobs 2 --shared-file --pattern append"; do
    # shellcheck disable=SC2086
    t_expect_status 2 "$bad" -- "$DISKIO" --mode fdatasync --count 5 $bad "$dir"
    grep -q -- "--jobs" "$t_scratch/stderr" || t_fail "$bad: message: $(cat "$t_scratch/stderr")"
    check_dir_clean "$bad"
done
t_expect_status 2 "--jobs 2 on an existing file" -- "$DISKIO" --count 5 --force --jobs 2 \
    "$t_scratch/mine"
grep -q -- "--shared-file" "$t_scratch/stderr" || t_fail "message: $(cat "$t_scratch/stderr")"
[ "$(cat "$t_scratch/mine")" = data ] || t_fail "the existing file was written"
ls "$t_scratch" | grep -q diskio-test && t_fail "a test file was created beside it"
t_expect_status 0 "--jobs 2 --shared-file on an existing file" -- "$DISKIO" --quiet --count 5 \
    --size 64k --force --jobs 2 --shared-file "$t_scratch/mine"
# ---- the free-space check counts every job's file ----
if [ "$(id -u)" -ne 0 ] || ! command -v mount >/dev/null 2>&1; then
    echo "note: not root: the tmpfs case was not run"
    t_done
fi
mnt="$t_scratch/tmpfs"
mkdir "$mnt"
mount -t tmpfs -o size=32m diskio-test "$mnt" || { echo "note: cannot mount a tmpfs"; t_done; }
trap 'umount "$mnt" 2>/dev/null; rm -rf "$t_scratch"' EXIT
t_expect_status 3 "tmpfs: --jobs 4 --size 10m needs 40m of 32m" -- "$DISKIO" --quiet \
    --mode fdatasync --count 5 --size 10m --jobs 4 "$mnt"
grep -q -- "for each of the --jobs" "$t_scratch/stderr" || t_fail "message: $(cat "$t_scratch/stderr")"
[ "$(df -P -B1 "$mnt" | awk 'NR == 2 {print $3}')" -eq 0 ] || t_fail "tmpfs: bytes written"
t_expect_empty_dir "$mnt" "tmpfs: nothing left after the refusal"
t_expect_status 0 "tmpfs: --jobs 4 --shared-file --size 10m fits" -- "$DISKIO" --quiet \
    --mode fdatasync --count 5 --size 10m --jobs 4 --shared-file "$mnt"
t_expect_status 0 "tmpfs: --jobs 2 --size 10m fits" -- "$DISKIO" --quiet \
    --mode fdatasync --count 5 --size 10m --jobs 2 "$mnt"
t_expect_empty_dir "$mnt" "tmpfs: test files removed"
umount "$mnt" || t_fail "could not unmount $mnt"
t_done
