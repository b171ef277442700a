#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: no C function in src/lib is longer than 150 lines.

Every function definition in src/lib/*.c and src/lib/*.h, from the line
its declaration starts on to its closing brace, is at most 150 lines: a
function that long has parts that want names of their own (the house
style, doc/layout.md).  Definitions are found the way .clang-format writes
them (tests/tools/clang-format.sh keeps it so): the opening brace of a
function alone on its line at column 0, the closing one too, and the
declaration on the lines above it from column 0.  The finder is tried
first on examples, so that it cannot quietly stop finding functions;
every function over the limit is named with its file, line and length."""

import glob
import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
LIMIT = 150
DIRS = ["src/lib"]
NAME = re.compile(r"([A-Za-z_]\w*)\s*\(")


def functions(text):
    """(name, first line, length) of every function defined in text."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        if lines[i] != "{":
            i += 1
            continue
        # the declaration: the lines above from the last one at column 0
        # that is not a comment, a preprocessor line or blank
        start = i - 1
        while start > 0 and (lines[start][:1] in (" ", "\t")
                             or lines[start] == ""):
            start -= 1
        decl = " ".join(lines[start:i])
        m = NAME.search(decl)
        end = i + 1
        while end < len(lines) and lines[end] != "}":
            end += 1
        if m and not lines[start].startswith(("#", "/*", "//")):
            found.append((m.group(1), start + 1, end - start + 1))
        i = end + 1
    return found


EXAMPLE = """\
/* a comment { */
static int short_one(int a,
                     int b)
{
    return a + b;
}

static const int table[] = {
    1, 2,
};

void longer(void)
{
    if (x) {
        y();
    }
}
"""

failures = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what
          + (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(what)


def main():
    seen = functions(EXAMPLE)
    check(seen == [("short_one", 2, 5), ("longer", 12, 6)],
          "the finder finds the example's two functions and their lengths",
          repr(seen))
    files = sorted(f for d in DIRS for ext in ("c", "h")
                   for f in glob.glob(os.path.join(SRC, d, "*." + ext)))
    check(len(files) > 10, "the library's sources are there", SRC)
    count = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            for name, line, length in functions(f.read()):
                count += 1
                rel = os.path.relpath(path, SRC)
                if length > LIMIT:
                    check(False, f"{rel}:{line}: {name}() is {length} lines"
                          f" (at most {LIMIT})")
    check(count > 100, f"{count} functions found in {', '.join(DIRS)}")
    if failures:
        print(f"FAIL: {len(failures)} problem(s)")
        return 1
    print(f"PASS: no function in {', '.join(DIRS)} over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
