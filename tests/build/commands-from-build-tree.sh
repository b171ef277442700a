#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every command runs from the build tree as ./diskio does, before make install.
#
# every command runs from the build tree as ./diskio does,
# before make install and with PYTHONPATH unset: diskio-compare and
# diskio-correlate on the fixtures, diskio-plot on a result, diskio-pgphases
# and diskio-fleet (--version, --help) each load the build tree's package
# (python -v says from where), and ./diskio --suite crystal (a tiny run)
# finds the source tree's suites; a suite it does not find is named with
# where it looked and the suites really there (every *.suite of suites/).
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
top_builddir=${top_builddir:-.}
top_srcdir=$(cd "$top_srcdir" && pwd -P)
top_builddir=$(cd "$top_builddir" && pwd -P)
DISKIO=${DISKIO:-$top_builddir/diskio}
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/diskio-build-tree.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fixtures="$top_srcdir/tests/scripts/fixtures"
# as a person runs them: from the shell, no PYTHONPATH, no suite path
unset PYTHONPATH DISKIO_SUITE_PATH DISKIO_SUITEDIR

# cmd NAME ARGS...: scripts/NAME ARGS... from the build tree; its package
# must be the build tree's (python -v names each module's file)
cmd() {
    name=$1
    shift
    PYTHONVERBOSE=1 "$top_builddir/scripts/$name" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    status=$?
    if grep -q "ModuleNotFoundError" "$tmp/$name.err"; then
        fail "$name: $(grep ModuleNotFoundError "$tmp/$name.err" | tail -n 1)"
        return 1
    fi
    init=$(sed -n 's|^# code object from \(.*/diskio_analysis/__init__\.py\)$|\1|p' \
        "$tmp/$name.err" | head -n 1)
    # as the file system names it (a VPATH build's path holds a ..)
    [ -n "$init" ] && init="$(cd "$(dirname "$init")" && pwd -P)/__init__.py"
    case "$init" in
    "$top_srcdir/python/"* | "$top_builddir/python/"*)
        ok "$name $*: the build tree's package ($init)" ;;
    *) fail "$name: diskio_analysis came from '${init:-nowhere}', not the build tree" ;;
    esac
    return 0
}

cmd diskio-compare "$fixtures/env-a/result.json" "$fixtures/env-b/result.json" &&
    if [ $status -eq 0 ] && grep -q "^B vs A (mean): " "$tmp/diskio-compare.out"; then
        ok "diskio-compare compares the fixtures"
    else
        fail "diskio-compare: exit $status: $(grep -v '^#\|^import' "$tmp/diskio-compare.err" | tail -n 3)"
    fi
cmd diskio-correlate "$fixtures/env-a" "$fixtures/env-b" &&
    if [ $status -eq 0 ] && grep -q "^diskio-correlate: B vs A (baseline)" "$tmp/diskio-correlate.out"; then
        ok "diskio-correlate correlates the fixtures"
    else
        fail "diskio-correlate: exit $status"
    fi
cmd diskio-plot --outdir "$tmp/charts" "$fixtures/env-a/result.json" &&
    if [ $status -eq 0 ] && [ -s "$tmp/charts/diskio-hist-fsync.png" ]; then
        ok "diskio-plot draws the fixture's charts"
    elif [ $status -eq 3 ]; then
        ok "diskio-plot runs (gnuplot is not installed: exit 3)"
    else
        fail "diskio-plot: exit $status"
    fi
for name in diskio-pgphases diskio-fleet; do
    cmd $name --version &&
        if [ $status -eq 0 ] && grep -q "^$name " "$tmp/$name.out"; then
            ok "$name --version"
        else
            fail "$name --version: exit $status"
        fi
    cmd $name --help && [ $status -eq 0 ] && ok "$name --help" || fail "$name --help: exit $status"
done

# ./diskio --suite NAME: the source tree's suites
mkdir "$tmp/target"
"$DISKIO" --suite crystal --suite-runs 1 --size 8m --runtime 0.05 --count 50 --warmup 1 \
    -o "$tmp/crystal.json" "$tmp/target" >"$tmp/suite.out" 2>"$tmp/suite.err"
status=$?
if [ $status -eq 0 ] && grep -q "^suite crystal: " "$tmp/suite.out" && [ -s "$tmp/crystal.json" ]; then
    ok "./diskio --suite crystal runs from the build tree"
else
    fail "./diskio --suite crystal: exit $status: $(cat "$tmp/suite.err")"
fi
"$DISKIO" --suite no-such-suite "$tmp/target" >/dev/null 2>"$tmp/missing.err"
status=$?
listed=$(cd "$top_srcdir/suites" && ls -- *.suite | sed 's/\.suite$//' | LC_ALL=C sort |
    paste -sd, - | sed 's/,/, /g')
if [ $status -eq 2 ] && grep -qF "or $top_srcdir/suites (the suites there: $listed);" "$tmp/missing.err"; then
    ok "a suite not found: the message names the source tree's suites/ and what it holds"
else
    fail "a suite not found: exit $status: $(cat "$tmp/missing.err") (expected: $listed)"
fi

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
exit 0
