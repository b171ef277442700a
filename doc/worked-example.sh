#!/bin/sh
# SPDX-License-Identifier: MIT
# The worked example of doc/correlate.md and the man pages, from two
# "machines" to the verdict, on one machine: a tmpfs directory
# (/dev/shm, label tmpfs) stands for the fast machine, a directory on the
# disk (label disk) for the slow one.  Each gets one diskio invocation of
# five repetitions (--repeat 5: they give the intervals; on a quiet
# machine one invocation a side is what diskio-compare advises, see
# doc/verdicts.md) and a diskio-pgphases run; then
# diskio-compare, diskio-correlate and diskio-plot are run on them, and
# their output is printed as the documentation shows it.
#
# Usage: doc/worked-example.sh [LABDIR]   (run from a built tree; needs
# PostgreSQL for diskio-pgphases, gnuplot for the charts, root or a user
# PostgreSQL accepts).  Without LABDIR the lab is made in a temporary
# directory and removed at the end.  Timings depend on the machine and
# its load: say which when you publish them.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
diskio=${DISKIO:-$top/diskio}
export PYTHONPATH="$top/python${PYTHONPATH:+:$PYTHONPATH}"
py=${PYTHON3:-python3}
keep=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-example.XXXXXX")
shm=$(mktemp -d /dev/shm/diskio-example.XXXXXX)
chmod 755 "$work" "$shm"
trap 'rm -rf "$work" "$shm"' EXIT INT TERM HUP

lab=${keep:-$work/lab}
mkdir -p "$lab"
cd "$lab"
mkdir -p tmpfs disk "$work/disk-target" "$work/disk-pg" "$shm/target" "$shm/pg"
chmod 755 "$work/disk-pg" "$shm/pg"

say() { printf '\n$ %s\n' "$*"; "$@"; }

uptime
# tmpfs refuses O_DIRECT: the modes both can run
modes=async,fsync,fdatasync,osync,odsync
for env in tmpfs disk; do
    case $env in tmpfs) target=$shm/target ;; *) target=$work/disk-target ;; esac
    "$diskio" --mode $modes --count 2000 --repeat 5 --quiet --label $env \
        --output $env/result.json "$target"
done
# the commit-heavy variant (150 commits per refresh function), not the
# kit's one transaction each: what the WAL model has something to predict in
ce="--refresh-size 150 --commit-every 1"
# shellcheck disable=SC2086
"$py" "$top/scripts/diskio-pgphases" --sf 0.01 $ce --output tmpfs "$shm/pg" 2>/dev/null
# shellcheck disable=SC2086
"$py" "$top/scripts/diskio-pgphases" --sf 0.01 $ce --output disk "$work/disk-pg" 2>/dev/null

say "$py" "$top/scripts/diskio-compare" tmpfs/result.json disk/result.json
say "$py" "$top/scripts/diskio-correlate" tmpfs disk
say "$py" "$top/scripts/diskio-correlate" --details --phases '^power' tmpfs disk
"$py" "$top/scripts/diskio-correlate" --format json --output report.json tmpfs disk
if command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    say "$py" "$top/scripts/diskio-plot" --outdir charts tmpfs/result.json \
        disk/result.json report.json
fi
uptime
