#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: storage failing mid-run (ENOSPC, EFBIG, EIO) stops the run at the failing op, reported.
#
# storage failing under a run.  Out of space mid-run (a 2 MiB
# tmpfs), over RLIMIT_FSIZE (the unprivileged case) and a device whose
# syncs start failing with EIO (through a test preload: this kernel has no
# device-mapper to fail a real device): the run stops at the failing op,
# reports op index, errno and mode, writes the partial result marked
# incomplete, removes the test file and exits 1.  A read-only output
# directory is found before anything is measured.  A test file larger
# than the free space is refused before it is prepared (exit 3).  The
# target directory removed mid-run: every run finishes on diskio's own
# file, which it holds open, and diskio says the name was removed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read results"; exit 77; }

check_partial() { # result-file errno-name during
    "$PYTHON3" - "$@" <<'PY'
import errno, json, sys
path, name, during = sys.argv[1:4]
d = json.load(open(path))
assert d["complete"] is False, "result not marked incomplete"
r = d["runs"][-1]
e = r["error"]
assert r["complete"] is False and e is not None, r
assert e["errno"] == getattr(errno, name), e
assert e["during"] == during, e
assert e["op"] == r["ops"], (e["op"], r["ops"])  # stopped at the failing op
assert r["ops"] > 0 and r["latency"]["total"]["count"] == r["ops"]
print("partial result: %s %s at op %d (%s), %d ops kept" % (r["mode"], name, e["op"], during, r["ops"]))
PY
}

# ---- out of space mid-run (root: a small tmpfs of our own) ----
if [ "$(id -u)" -eq 0 ] && mkdir "$t_scratch/small" &&
    mount -t tmpfs -o size=2m tmpfs "$t_scratch/small" 2>/dev/null; then
    trap 'umount "$t_scratch/small" "$t_scratch/ro" 2>/dev/null; rm -rf "$t_scratch"' EXIT
    # 1 MiB fits in 2 MiB with room to spare, so the run starts; another
    # program then takes all the rest (a filler, once the test file
    # exists), and an append of the paced run (200 ops/s: 8 KiB appends
    # reach 1 MiB only after 0.6 s) finds the filesystem full
    "$DISKIO" -q --mode fsync --pattern append --size 1m --rate 200 --count 100000 \
        --output "$t_scratch/enospc.json" "$t_scratch/small" >"$t_scratch/stdout" \
        2>"$t_scratch/stderr" &
    pid=$!
    t_wait_for_file "$t_scratch/small"
    # the run's preparation (data pool, wake-up calibration) done and a
    # few appends made (0.2 s at 200/s: 320 KiB of the 1 MiB)
    sleep 0.2
    head -c 4194304 /dev/zero > "$t_scratch/small/filler" 2>/dev/null
    wait $pid
    status=$?
    rm -f "$t_scratch/small/filler"
    [ "$status" -eq 1 ] && t_ok "ENOSPC mid-run (exit 1)" || t_fail "ENOSPC mid-run: exit $status"
    grep -q "mode fsync: write failed at op [0-9]*: No space left on device" "$t_scratch/stderr" &&
        t_ok "message names mode, op and errno" || t_fail "message: $(cat "$t_scratch/stderr")"
    check_partial "$t_scratch/enospc.json" ENOSPC write && t_ok "ENOSPC partial result" ||
        t_fail "ENOSPC partial result"
    t_expect_empty_dir "$t_scratch/small" "test file removed after ENOSPC"

    # a file larger than the free space is refused before it is prepared
    t_expect_status 3 "no room for the test file" -- "$DISKIO" -q --mode fsync --size 64m \
        --count 10 "$t_scratch/small"
    grep -q "bytes available.*smaller --size" "$t_scratch/stderr" &&
        t_ok "refusal explained before preparing" || t_fail "message: $(cat "$t_scratch/stderr")"
    t_expect_empty_dir "$t_scratch/small" "test file removed after failed preparation"
    umount "$t_scratch/small"
else
    echo "note: not root (or no tmpfs): out-of-space case not run; RLIMIT_FSIZE covers the path"
fi

# ---- over RLIMIT_FSIZE: EFBIG, not death by SIGXFSZ ----
mkdir "$t_scratch/limited"
# dash and bash both count ulimit -f in 512- or 1024-byte blocks: 1024
# blocks is at most 1 MiB, while 8 KiB appends need far more
t_expect_status 1 "EFBIG over RLIMIT_FSIZE" -- sh -c "ulimit -f 1024 && exec \"\$0\" \"\$@\"" \
    "$DISKIO" -q --mode fdatasync --pattern append --size 64m --count 100000 \
    --output "$t_scratch/efbig.json" "$t_scratch/limited"
check_partial "$t_scratch/efbig.json" EFBIG write && t_ok "EFBIG partial result" ||
    t_fail "EFBIG partial result"
t_expect_empty_dir "$t_scratch/limited" "test file removed after EFBIG"

# ---- the device fails: every sync from the 50th on returns EIO ----
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
if [ -f "$preload" ]; then
    mkdir "$t_scratch/dying"
    t_expect_status 1 "EIO from the 50th sync on" -- env LD_PRELOAD="$preload" \
        DISKIO_TEST_FAIL_AT=50 DISKIO_TEST_FAIL_ERRNO=5 "$DISKIO" -q --mode fsync,fdatasync \
        --warmup 0 --count 1000 --output "$t_scratch/eio.json" "$t_scratch/dying"
    # the 1st sync makes the preallocated file durable: op 48 is the 50th
    grep -q "mode fsync: sync failed at op 48: Input/output error" "$t_scratch/stderr" &&
        t_ok "EIO message names mode, op and errno" || t_fail "message: $(cat "$t_scratch/stderr")"
    check_partial "$t_scratch/eio.json" EIO sync && t_ok "EIO partial result, next mode not run" ||
        t_fail "EIO partial result"
    t_expect_empty_dir "$t_scratch/dying" "test file removed after EIO"
else
    t_unbuilt "$preload"
fi

# ---- an output directory that cannot be written: found before measuring ----
if [ "$(id -u)" -eq 0 ] && mkdir "$t_scratch/ro" &&
    mount -t tmpfs -o ro,size=1m tmpfs "$t_scratch/ro" 2>/dev/null; then
    mkdir "$t_scratch/target"
    t_expect_status 3 "read-only output directory" -- "$DISKIO" --runtime 30 \
        --output "$t_scratch/ro/r.json" "$t_scratch/target"
    grep -q "Read-only file system" "$t_scratch/stderr" && t_ok "message names the cause" ||
        t_fail "message: $(cat "$t_scratch/stderr")"
    t_expect_empty_dir "$t_scratch/target" "nothing measured, no test file"
    umount "$t_scratch/ro"
fi

# ---- the target directory removed mid-run ----
mkdir "$t_scratch/doomed"
"$DISKIO" --mode fsync,fdatasync --runtime 2 --output "$t_scratch/doomed.json" \
    "$t_scratch/doomed" >"$t_scratch/out" 2>"$t_scratch/err" &
pid=$!
i=0
while [ -z "$(ls -A "$t_scratch/doomed" 2>/dev/null)" ] && [ $i -lt 100 ]; do
    sleep 0.05; i=$((i + 1))
done
sleep 0.5
rm -rf "$t_scratch/doomed"
wait $pid
status=$?
[ "$status" -eq 0 ] && t_ok "directory removed: exit 0" || t_fail "directory removed: exit $status"
grep -q "test file $t_scratch/doomed/diskio-test.* was replaced, renamed or removed" \
    "$t_scratch/err" && t_ok "says the test file's name was removed" ||
    t_fail "message: $(cat "$t_scratch/err")"
"$PYTHON3" - "$t_scratch/doomed.json" <<'PY' && t_ok "both runs made on the open file" ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is True
assert [r["mode"] for r in d["runs"]] == ["fsync", "fdatasync"]
assert all(r["ops"] > 0 for r in d["runs"])
PY
    t_fail "result after directory removal"
t_done
