#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the analysis commands and tests run with configure's Python, which imports the package's needs.
#
# configure chose the Python that runs the analysis package: one that is
# 3.10 or later and imports its dependencies (PYTHON_MODULES: scipy's
# Student's t), where a python3 first on PATH (pyenv's, say) may lack what
# /usr/bin/python3 has.  That Python ($PYTHON3, the tests' interpreter)
# imports every module configure asked for, and each command's #! line,
# in the build tree (scripts/NAME) and as make install puts it
# (scripts/installed/NAME), names it: no command runs with whatever
# python3 comes first on a user's PATH.
set -u
top_builddir=${top_builddir:-.}
: "${PYTHON3:?PYTHON3 not set (run through make check)}"
: "${PYTHON_MODULES:?PYTHON_MODULES not set (run through make check)}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

if "$PYTHON3" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    ok "$PYTHON3 is Python 3.10 or later"
else
    fail "$PYTHON3 is older than Python 3.10"
fi
for module in $PYTHON_MODULES; do
    if "$PYTHON3" -c "import $module" 2>/dev/null; then
        ok "$PYTHON3 imports $module"
    else
        fail "$PYTHON3 cannot import $module"
    fi
done
for name in diskio-compare diskio-correlate diskio-plot diskio-pgphases diskio-fleet; do
    for script in "$top_builddir/scripts/$name" "$top_builddir/scripts/installed/$name"; do
        line=$(head -n 1 "$script" 2>/dev/null)
        if [ "$line" = "#!$PYTHON3" ]; then
            ok "${script#"$top_builddir/"} runs with $PYTHON3"
        else
            fail "${script#"$top_builddir/"} starts '$line', not '#!$PYTHON3'"
        fi
    done
done

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
exit 0
