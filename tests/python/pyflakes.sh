#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: pyflakes finds nothing wrong in any Python file of the package, the benchmarks and the tests.
#
# pyflakes finds no unused import, undefined name or other
# mistake in the analysis package, its commands, the benchmark harness and
# the Python tests.  Exit 77 (skip) when pyflakes is not installed
# (tools/install-deps installs Debian's pyflakes3).
top=${top_srcdir:-$(dirname "$0")/../..}
if command -v pyflakes3 >/dev/null 2>&1; then
    pyflakes=pyflakes3
elif "${PYTHON3:-python3}" -c 'import pyflakes' 2>/dev/null; then
    pyflakes="${PYTHON3:-python3} -m pyflakes"
else
    echo "SKIP: pyflakes not installed (apt-get install pyflakes3)"
    exit 77
fi
# The commands are Python files named without .py: name them explicitly.
# shellcheck disable=SC2086
$pyflakes "$top/python" "$top/tests/python" "$top/tests/scripts" "$top/tests/pg" \
    "$top/tests/lib" "$top/tests/build" "$top/tests/fuzz" "$top/bench/delay-model" \
    "$top"/scripts/*.in "$top/bench/compare-peers" "$top/bench/peers" "$top/bench/real-envs" \
    "$top/bench/interval-cost" "$top/bench/rate-lag" "$top/bench/verdict-calibration" || exit 1
echo "pyflakes: clean"
