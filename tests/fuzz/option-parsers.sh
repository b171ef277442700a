#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: libFuzzer finds no crash, leak or broken invariant in the option parsers.
#
# Build the libFuzzer target tests/fuzz/fuzz_options.c with ASan and UBSan
# and fuzz the command-line parsers for FUZZ_SECONDS (default 15) seconds,
# starting from the seed corpus tests/fuzz/corpus/options.
#
# Exit status: 0 no crash, leak or invariant failure; 1 a finding (the
# reproducer is kept and printed) or a build failure; 77 skipped (no clang
# with libFuzzer).
#
# Environment: top_srcdir, top_builddir (defaults: the tree this script is
# in, and the current directory if it holds config.h, else top_srcdir),
# CLANG (default: clang, then clang-14), FUZZ_SECONDS, FUZZ_KEEP=1 to keep
# the work directory.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
if [ -z "${top_builddir:-}" ]; then
    if [ -f "$PWD/config.h" ]; then top_builddir=$PWD; else top_builddir=$top_srcdir; fi
fi
seconds=${FUZZ_SECONDS:-15}

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

if [ -z "${CLANG:-}" ]; then
    for c in clang clang-14 clang-15 clang-16 clang-17 clang-18; do
        if command -v "$c" >/dev/null 2>&1; then CLANG=$c; break; fi
    done
fi
[ -n "${CLANG:-}" ] || skip "clang not found (set CLANG=/path/to/clang)"

if [ ! -f "$top_builddir/config.h" ] || [ ! -f "$top_builddir/include/diskio.h" ]; then
    fail "no config.h and include/diskio.h in top_builddir=$top_builddir (run configure first, or set top_builddir)"
fi

work=$(mktemp -d "$PWD/fuzz-options.XXXXXX") || fail "cannot create a work directory under $PWD"
keep=${FUZZ_KEEP:-0}
# shellcheck disable=SC2317 # called by the trap
cleanup() { [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# Does this clang have libFuzzer and the sanitizers?
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
    >"$work/probe.c"
"$CLANG" -fsanitize=fuzzer,address,undefined "$work/probe.c" -o "$work/probe" >"$work/probe.log" 2>&1 ||
    skip "$CLANG cannot build a libFuzzer target (-fsanitize=fuzzer,address,undefined): $(head -n 3 "$work/probe.log")"

srcs=
# the library (src/lib), the command's option parser (src/cli) and the
# durability check's shared parts (src/durable), without the mains
for f in "$top_srcdir"/src/lib/*.c "$top_srcdir"/src/cli/*.c "$top_srcdir"/src/durable/*.c; do
    case $f in */src/cli/diskio.c | */src/durable/diskio-durable.c) ;; *) srcs="$srcs $f" ;; esac
done

echo "building fuzz_options with $CLANG"
# shellcheck disable=SC2086 # $srcs is a list of paths without blanks by construction
"$CLANG" -g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$top_builddir/include" -I"$top_builddir" -I"$top_srcdir/src/lib" -I"$top_srcdir/src/cli" \
    -I"$top_srcdir/src/durable" \
    -I"$top_srcdir/include" \
    "$here/fuzz_options.c" $srcs -o "$work/fuzz_options" \
    -laio -luring -lm -lpthread >"$work/build.log" 2>&1 || {
    cat "$work/build.log"
    fail "the fuzz target does not build"
}

mkdir "$work/corpus" "$work/artifacts"
cp "$top_srcdir"/tests/fuzz/corpus/options/* "$work/corpus/" || fail "no seed corpus"
chmod -R u+w "$work/corpus"

echo "fuzzing the option parsers for $seconds s (corpus: $(find "$work/corpus" -type f | wc -l) seeds)"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
"$work/fuzz_options" -max_total_time="$seconds" -timeout=10 -max_len=1024 \
    -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/fuzz.log" 2>&1
rc=$?

grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|Done [0-9]+ runs)' "$work/fuzz.log" | tail -n 3
if [ "$rc" -ne 0 ] || [ -n "$(ls "$work/artifacts")" ]; then
    keep=1
    tail -n 60 "$work/fuzz.log"
    for a in "$work"/artifacts/*; do
        [ -f "$a" ] || continue
        echo "reproducer $a:"
        od -c "$a" | head -n 20
    done
    fail "the fuzzer found a problem (exit $rc); work directory kept: $work"
fi
echo "PASS: no crash, leak or invariant failure in $seconds s"
exit 0
