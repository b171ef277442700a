#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the package, benchmarks and commands pass pycodestyle, and no function is over 100 lines.
#
# pycodestyle, with setup.cfg's settings (100 columns), over
# python/diskio_analysis, bench/ (its package and every Python script)
# and scripts/*.in (tests/lib/pysources.sh finds them); and no Python
# function there or in tests/ is longer than MAX_FUNCTION_LINES, its def
# line to its last (docstring and comments included): longer, and it is
# doing several things.  The length check needs only Python; without
# pycodestyle (tools/install-deps installs python3-pycodestyle) it still
# runs, and the test exits 77 (skip) if it passes.
set -u
top=${top_srcdir:-$(dirname "$0")/../..}
python=${PYTHON3:-python3}
. "$top/tests/lib/pysources.sh"
cd "$top" || exit 99
status=0

# shellcheck disable=SC2046
"$python" - $(python_sources .) tests <<'PY' || status=1
import ast
import os
import sys

MAX_FUNCTION_LINES = 100


def python_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            for name in sorted(files):
                full = os.path.join(root, name)
                if name.endswith(".py"):
                    yield full
                elif "." not in name and os.access(full, os.X_OK):
                    with open(full, "rb") as f:
                        first = f.readline()
                    if first.startswith(b"#!") and b"python" in first:
                        yield full


long = []
files = 0
for path in python_files(sys.argv[1:]):
    files += 1
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                long.append(f"{path}:{node.lineno}: {node.name}() is {lines} lines "
                            f"(at most {MAX_FUNCTION_LINES}): split it")
for line in long:
    print(f"FAIL: {line}")
print(f"function length: {files} files, {len(long)} function(s) over "
      f"{MAX_FUNCTION_LINES} lines")
sys.exit(1 if long else 0)
PY

if "$python" -c 'import pycodestyle' 2>/dev/null; then
    pycodestyle="$python -m pycodestyle"
elif command -v pycodestyle >/dev/null 2>&1; then
    pycodestyle=pycodestyle
else
    [ "$status" -eq 0 ] || exit 1
    echo "SKIP: pycodestyle is not installed (apt-get install python3-pycodestyle)"
    exit 77
fi
# shellcheck disable=SC2046,SC2086
$pycodestyle $(python_sources .) || status=1
[ "$status" -eq 0 ] && echo "pycodestyle: clean"
exit "$status"
