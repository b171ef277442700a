#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: no C function anywhere in src/ is over 100 lines.

Every function definition in the C files and headers of every folder of
src/ (src/lib, src/cli, src/durable, src/preload), from the line its
declaration starts on to its closing brace, is at most 100 lines: a
function that long has parts that want names of their own (the house
style, doc/layout.md); main() was 462 lines with its cleanup written
five times, diskio_run_execute() 276.  Definitions are found the way
.clang-format writes them (tests/tools/clang-format.sh keeps it so): the
opening brace of a function alone on its line at column 0, the closing
one too, and the declaration on the lines above it from column 0.  The
finder is tried first on examples, so that it cannot quietly stop
finding functions; every function over the limit is named with its
file, line and length."""

import glob
import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
LIMIT = 100
# every folder of src/: a new one is checked without editing this list
DIRS = sorted(os.path.relpath(d, SRC)
              for d in glob.glob(os.path.join(SRC, "src", "*"))
              if os.path.isdir(d))
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
    for d in ("src/lib", "src/cli", "src/durable"):
        check(d in DIRS, f"{d} is among the folders checked", repr(DIRS))
    check(len(files) > 10, "the sources are there", SRC)
    count = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            found = functions(f.read())
        rel = os.path.relpath(path, SRC)
        for name, line, length in found:
            count += 1
            if length > LIMIT:
                check(False, f"{rel}:{line}: {name}() is {length} lines"
                      f" (at most {LIMIT})")
        if found:
            name, _, length = max(found, key=lambda f: f[2])
            print(f"     {rel}: longest {name}() {length} lines")
    check(count > 100, f"{count} functions found in {', '.join(DIRS)}")
    if failures:
        print(f"FAIL: {len(failures)} problem(s)")
        return 1
    print(f"PASS: no function in {', '.join(DIRS)} over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
