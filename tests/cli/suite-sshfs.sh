#!/bin/bash
# SPDX-License-Identifier: MIT
# Description: the suites run end to end on sshfs and on a local directory, and compare and plot.
#
# the suites run end to end on a network filesystem and on a
# local one, and diskio-compare and diskio-plot take the two results: a
# real sshfs (FUSE) mounted by the test over a real sshd listening on
# loopback inside the test's own network namespace (the servers of
# tests/lib/sshd-netns.sh, a throw-away key), beside a local directory
# of the build tree.  The sweep (short lengths), crystal and pg suites
# (short runs) exit 0 on both; every row either ran or, where the
# filesystem refuses O_DIRECT, says so in the result instead of failing
# the suite; no test file is left on either side; diskio-compare matches
# the rows of the two results by suite row and compares their MB/s;
# diskio-plot draws the sweep of both as one I/O length chart.  Skips (77)
# without root, ip netns, sshd, sshfs, fusermount3, nsenter or /dev/fuse.
# Everything is undone on every path: the mount (fusermount3 -u), the
# sshd, the namespace.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/sshd-netns.sh"

skip() {
    echo "SKIP: $*"
    exit 77
}
sshd_netns_missing
[ -z "$sshd_netns_why" ] || skip "$sshd_netns_why"
for tool in sshfs fusermount3 nsenter; do
    command -v $tool >/dev/null 2>&1 || skip "$tool is not installed"
done
[ -c /dev/fuse ] || skip "no /dev/fuse (FUSE is not available)"

suites="${top_srcdir:-.}/suites"
PYTHON=${PYTHON3:-python3}
scripts="${top_builddir:-.}/scripts"
export PYTHONPATH="${top_srcdir:-.}/python${PYTHONPATH:+:$PYTHONPATH}"
export DISKIO_SUITE_PATH="$suites"

work="$t_scratch"
ns="diskio-sshfs-$$"
mnt="$work/sshfs"
cleanup() {
    if mountpoint -q "$mnt" 2>/dev/null; then
        fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -uz "$mnt" 2>/dev/null
    fi
    sshd_netns_cleanup
    rm -rf "$t_scratch"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

sshd_netns_setup || skip "cannot create the network namespace and keys"
sshd_netns_start net 22222
sshd_netns_wait 22222 || {
    t_fail "sshd does not listen inside $ns: $(cat "$work/sshd-net.log")"
    t_done
}
mkdir "$work/remote" "$mnt" "$work/local"
# sshfs (and its ssh) in the namespace's network only: the mount is in
# this test's mount namespace, where diskio runs
nsenter --net="/run/netns/$ns" sshfs -F "$work/ssh_config" "net:$work/remote" "$mnt" \
    -o max_conns=1 2>"$work/sshfs.log" || skip "sshfs cannot mount here: $(cat "$work/sshfs.log")"
mountpoint -q "$mnt" && t_ok "sshfs is mounted over ssh in the namespace" ||
    { t_fail "no sshfs mount at $mnt"; t_done; }

# suite NAME ENV DIR OPTIONS...: run it, the result in ENV-NAME.json
suite() {
    local name=$1 env=$2 dir=$3
    shift 3
    t_expect_status 0 "suite $name on $env" -- "$DISKIO" --suite "$name" --label "$env" \
        -o "$work/$env-$name.json" "$@" "$dir" || return
    cp "$t_scratch/stdout" "$work/$env-$name.txt"
    cp "$t_scratch/stderr" "$work/$env-$name.err"
    grep -q "^suite $name: " "$work/$env-$name.txt" && t_ok "suite $name on $env: its view" ||
        t_fail "suite $name on $env: no view: $(cat "$work/$env-$name.txt")"
    # every row ran (its run complete) or says why not: O_DIRECT refused
    "$PYTHON" - "$work/$env-$name.json" <<'PY' && t_ok "suite $name on $env: every row ran or says why not" ||
import json, sys
doc = json.load(open(sys.argv[1]))
suite = doc["suite"]
for row in suite["rows"]:
    if row["run"] is None:
        assert "O_DIRECT" in row["note"] or "suite-max-bs" in row["note"], row
        continue
    run = doc["runs"][row["run"]]
    assert run["complete"] and run["ops"] > 0, (row, run["complete"], run["ops"])
ran = [r for r in suite["rows"] if r["run"] is not None]
assert ran, suite
fs = doc["environment"]["target"]["filesystem"]
print("ok:", len(ran), "rows ran on", fs)
PY
        t_fail "suite $name on $env: a row failed or was left out without a reason"
}

sweep_opts="--suite-runs 2 --suite-max-bs 128k --size 2m --runtime 0.05 --warmup 2"
short_opts="--suite-runs 2 --size 8m --runtime 0.05 --warmup 2"
for env in local sshfs; do
    dir="$work/local"
    [ "$env" = sshfs ] && dir="$mnt"
    # shellcheck disable=SC2086
    suite sweep "$env" "$dir" $sweep_opts
    # shellcheck disable=SC2086
    suite crystal "$env" "$dir" $short_opts
    # shellcheck disable=SC2086
    suite pg "$env" "$dir" $short_opts
done
"$PYTHON" -c 'import json, sys; fs = json.load(open(sys.argv[1]))["environment"]["target"]["filesystem"]; assert fs.startswith("fuse"), fs' \
    "$work/sshfs-sweep.json" && t_ok "the sshfs results were measured on a FUSE filesystem" ||
    t_fail "the sshfs result does not name a FUSE filesystem"
t_expect_empty_dir "$work/remote" "no test file left on the sshfs side"
t_expect_empty_dir "$work/local" "no test file left on the local side"

# diskio-compare: the rows matched by suite row, MB/s compared
for name in sweep crystal pg; do
    [ -s "$work/local-$name.json" ] && [ -s "$work/sshfs-$name.json" ] || continue
    t_expect_status 0 "diskio-compare local and sshfs, suite $name" -- "$PYTHON" \
        "$scripts/diskio-compare" --metrics mb_per_s,ops_per_s "$work/local-$name.json" \
        "$work/sshfs-$name.json"
    cp "$t_scratch/stdout" "$work/compare-$name.txt"
done
grep -q "^sshfs vs local" "$work/compare-sweep.txt" &&
    grep -q "^  8 KiB read (read 8 KiB) *mb_per_s " "$work/compare-sweep.txt" &&
    grep -q "^  128 KiB write (fdatasync 128 KiB every 16) *mb_per_s " "$work/compare-sweep.txt" &&
    t_ok "the sweep's rows are compared by their suite row, in MB/s" ||
    t_fail "the sweep comparison: $(cat "$work/compare-sweep.txt")"
grep -q "^  WAL 8K fdatasync write (fdatasync 8 KiB) *mb_per_s " "$work/compare-pg.txt" &&
    t_ok "the pg rows are compared by their suite row" ||
    t_fail "the pg comparison: $(cat "$work/compare-pg.txt")"

# diskio-plot: the two sweeps as one I/O length chart
if command -v gnuplot >/dev/null 2>&1; then
    t_expect_status 0 "diskio-plot of the two sweeps" -- "$PYTHON" "$scripts/diskio-plot" \
        --format svg --outdir "$work/charts" "$work/local-sweep.json" "$work/sshfs-sweep.json"
    chart="$work/charts/diskio-sweep-io-length.svg"
    [ -s "$chart" ] && grep -q "sshfs read" "$chart" && grep -q "local write (fdatasync)" "$chart" &&
        t_ok "the I/O length chart has a line per environment and column" ||
        t_fail "no I/O length chart with both environments: $(ls "$work/charts")"
fi

# the figures, for whoever reads the log
for f in "$work"/local-sweep.txt "$work"/sshfs-sweep.txt "$work"/compare-sweep.txt; do
    [ -f "$f" ] && { echo "== $(basename "$f")"; sed -n '/^suite /,$p;/ vs /,$p' "$f" | head -30; }
done
t_done
