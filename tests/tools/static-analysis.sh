#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: cppcheck and clang-tidy find nothing in the C sources.
#
# static analysis of the C sources with cppcheck and
# clang-tidy (checks in .clang-tidy at the top of the source tree).
# Prints every finding as FILE:LINE: severity: message [check].
#
# Exit status: 0 no findings, 1 findings (or the configured build is
# missing), 77 skipped (cppcheck or clang-tidy not installed).
# Environment: top_srcdir, top_builddir (defaults: the tree this script is
# in, and the current directory if it holds config.h, else top_srcdir),
# CPPCHECK, CLANG_TIDY, STATIC_ANALYSIS_JOBS (parallel clang-tidy runs).
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
if [ -z "${top_builddir:-}" ]; then
    if [ -f "$PWD/config.h" ]; then top_builddir=$PWD; else top_builddir=$top_srcdir; fi
fi
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)

# The sources are the same in every build: analyse them in the plain one.
if grep -q '^SAN_CFLAGS = .*-fsanitize' "$top_builddir/Makefile" 2>/dev/null; then
    echo "SKIP: sanitizer build; the plain build runs the static analysis"
    exit 77
fi

find_tool() { # variable-value candidates...
    [ -n "$1" ] && { command -v "$1" >/dev/null 2>&1 && echo "$1"; return; }
    shift
    for t in "$@"; do
        command -v "$t" >/dev/null 2>&1 && { echo "$t"; return; }
    done
}
CPPCHECK=$(find_tool "${CPPCHECK:-}" cppcheck)
CLANG_TIDY=$(find_tool "${CLANG_TIDY:-}" clang-tidy clang-tidy-14 clang-tidy-15 clang-tidy-16 \
    clang-tidy-17 clang-tidy-18)
[ -n "$CPPCHECK" ] || { echo "SKIP: cppcheck not found (apt-get install cppcheck)"; exit 77; }
[ -n "$CLANG_TIDY" ] || { echo "SKIP: clang-tidy not found (apt-get install clang-tidy)"; exit 77; }

if [ ! -f "$top_builddir/config.h" ] || [ ! -f "$top_builddir/include/diskio.h" ]; then
    echo "FAIL: no config.h and include/diskio.h in $top_builddir; run configure first"
    exit 1
fi
[ -f "$top_srcdir/.clang-tidy" ] || { echo "FAIL: $top_srcdir/.clang-tidy is missing"; exit 1; }

work=$(mktemp -d "${PWD}/t-static.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

cd "$top_srcdir" || exit 1
# the public header for everyone; each part of src/ also sees its own
# folder's headers (the command never sees the library's internals), and
# the durability check's shared header (src/durable)
incs="-I$top_builddir/include -I$top_builddir -Iinclude -Isrc/durable"
sources=$(ls src/*/*.c 2>/dev/null)

# ---- cppcheck: all preprocessor configurations, POSIX library models ----
supp=
[ -f .cppcheck-suppressions ] && supp=--suppressions-list=.cppcheck-suppressions
echo "== $($CPPCHECK --version)"
# shellcheck disable=SC2086 # $incs, $supp and $sources are lists without blanks
"$CPPCHECK" --enable=warning,style,performance,portability --library=posix \
    --error-exitcode=1 --inline-suppr --std=c11 --quiet $supp $incs -Isrc/lib -Isrc/cli \
    --template='{file}:{line}: cppcheck {severity}: {message} [{id}]' \
    $sources >"$work/cppcheck.out" 2>&1
cppcheck_rc=$?
grep -E '^[^ ]+:[0-9]+: ' "$work/cppcheck.out" >"$work/findings" || true
if [ "$cppcheck_rc" -ne 0 ] && [ ! -s "$work/findings" ]; then
    cat "$work/cppcheck.out" >"$work/findings"   # a cppcheck failure of its own
fi

# ---- clang-tidy: every source file and the public header ----
echo "== $($CLANG_TIDY --version | grep -i version | head -n 1)"
jobs=${STATIC_ANALYSIS_JOBS:-$(nproc 2>/dev/null || echo 2)}
# shellcheck disable=SC2086
printf '%s\n' $sources "$top_builddir/include/diskio.h" >"$work/tidy-files"
export CLANG_TIDY top_srcdir incs work
# shellcheck disable=SC2016 # expanded by the inner shell
xargs -P "$jobs" -n 1 sh -c '
    f=$1
    lang=; case $f in *.h) lang="-x c" ;; esac
    log="$work/tidy.$(echo "$f" | tr / _).log"
    # shellcheck disable=SC2086
    "$CLANG_TIDY" --quiet --config-file="$top_srcdir/.clang-tidy" "$f" -- \
        $lang $incs -I"$(dirname "$f")" -D_GNU_SOURCE -std=gnu11 >"$log" 2>&1
    echo "clang-tidy exit $?" >>"$log"
' sh <"$work/tidy-files"

# Keep the diagnostics located in this project's files.  Those placed in
# system headers are about libc's own declarations (e.g. the LD_PRELOAD
# helper defines pwrite() with its own parameter names) and not actionable.
for log in "$work"/tidy.*.log; do
    grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error): ' "$log" |
        grep -v -E '^/usr/' |
        sed -e "s|^$top_srcdir/||" -e "s|^$top_builddir/|(builddir)/|" \
            -e 's/: \(warning\|error\): /: clang-tidy \1: /'
done | sort -u >>"$work/findings"

n=$(wc -l <"$work/findings")
if [ "$n" -ne 0 ]; then
    cat "$work/findings"
    echo "FAIL: $n finding(s)"
    exit 1
fi
echo "PASS: cppcheck and clang-tidy report nothing"
exit 0
