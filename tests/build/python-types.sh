#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: mypy finds no type error in the analysis package, the benchmarks or the commands.
#
# mypy, with setup.cfg's settings, over python/diskio_analysis, bench/
# (its package and every Python script) and scripts/*.in
# (tests/lib/pysources.sh finds them): a value that may be None is typed
# so, no name is used as two things.  It runs with the Python configure
# chose ($PYTHON3 -m mypy), or the mypy command told to look at that
# Python's modules.  Exit 77 (skip) when mypy is not installed
# (tools/install-deps installs Debian's mypy).
set -u
top=${top_srcdir:-$(dirname "$0")/../..}
python=${PYTHON3:-python3}
. "$top/tests/lib/pysources.sh"
if "$python" -c 'import mypy' 2>/dev/null; then
    mypy="$python -m mypy"
elif command -v mypy >/dev/null 2>&1; then
    mypy="mypy --python-executable $python"
else
    echo "SKIP: mypy is not installed (apt-get install mypy)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/diskio-mypy.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 99
# the cache in a directory of its own: the source tree may be read-only
# (make distcheck), and nothing is left behind in it
# shellcheck disable=SC2046,SC2086
$mypy --config-file setup.cfg --cache-dir "$tmp/cache" $(python_sources .) || exit 1
