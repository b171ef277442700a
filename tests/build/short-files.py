#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: no source file of the library, commands, analysis or tests is over 700 lines.

A file one person can hold in mind: every C file and header under src/,
every Python module under python/diskio_analysis, every C file and
header of the unit tests (tests/unit) and every Python test and test
helper (tests/python, tests/lib) is at most 700 lines (doc/layout.md
says where each concern lives; a file that grows past this is split along
a seam a newcomer would see).  Each file over the limit is named with its
length; the test also checks that it found the files it should (the
library's, the command's, the package's, the tests'), so that it
cannot pass by finding nothing."""

import glob
import os
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
LIMIT = 700
PATTERNS = ("src/*/*.c", "src/*/*.h", "python/diskio_analysis/*.py",
            "python/diskio_analysis/*/*.py", "tests/unit/*.c", "tests/unit/*.h",
            "tests/python/*.py", "tests/lib/*.py")


def main():
    files = sorted(f for p in PATTERNS for f in glob.glob(os.path.join(SRC, p)))
    rel = [os.path.relpath(f, SRC) for f in files]
    failed = 0
    for must in ("src/lib/modes.c", "src/cli/diskio.c", "python/diskio_analysis/result.py",
                 "python/diskio_analysis/compare/command.py", "tests/unit/check_every_mode.c",
                 "tests/python/test_compare.py"):
        if must not in rel:
            print(f"FAIL: {must} not found: the patterns no longer reach the sources")
            failed += 1
    for path, name in zip(files, rel):
        with open(path, encoding="utf-8") as f:
            lines = sum(1 for _ in f)
        if lines > LIMIT:
            print(f"FAIL: {name} is {lines} lines (at most {LIMIT})")
            failed += 1
    print(f"{len(files)} files read, {failed} problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
