#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the benchmark harness runs every peer once in smoke mode and its output parses.
#
# make check-slow hook: run bench/compare-peers in smoke mode (each tool once,
# tiny counts, well under 20 s) to prove the benchmark still works.  It
# judges no target.  Exit 0 pass, 77 skip (no python3 or no diskio binary),
# 1 fail.  DISKIO names the diskio binary (default: ./diskio).
srcdir=${top_srcdir:-${srcdir:-$(dirname "$0")/..}}
DISKIO=${DISKIO:-./diskio}

# A sanitizer build cannot run under callgrind, and its memory figures are
# the sanitizer's: the benchmark belongs to the plain build.
if grep -q '^SAN_CFLAGS = .*-fsanitize' "${top_builddir:-.}/Makefile" 2>/dev/null; then
    echo "smoke: SKIP, sanitizer build"
    exit 77
fi

python3=${PYTHON3:-python3}
command -v "$python3" >/dev/null 2>&1 || { echo "smoke: SKIP, no $python3"; exit 77; }
if [ ! -x "$DISKIO" ]; then
    echo "smoke: SKIP, no diskio binary at $DISKIO (set DISKIO)"
    exit 77
fi

# the temporary directory goes under the current (build) directory;
# compare-peers removes it (and unmounts its tmpfs) on every exit path
"$python3" "$srcdir/bench/compare-peers" --smoke --diskio "$DISKIO"
rc=$?
case $rc in
    0) exit 0 ;;
    77) exit 77 ;;
    *) echo "smoke: FAIL (compare-peers exit $rc)"; exit 1 ;;
esac
