#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: no C function of the command or the durability check is longer than 150 lines.

A function longer than a screenful or two is several steps that were
never named; main() was 462 lines with its cleanup written five times.
Every function in src/cli and src/durable (the C files, formatted as
.clang-format says: a function's body opens with "{" and closes with
"}" at the start of a line) is at most LIMIT lines from its first line
(the one naming it) to its closing brace.  The checker is tried first
on an example of each, so that it cannot quietly stop finding them."""

import glob
import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
DIRS = ["src/cli", "src/durable"]
LIMIT = 150
failures = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what +
          (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(what)


def ends_a_declaration(line):
    """Whether line comes before a function's first line."""
    return (not line.strip() or line.startswith(("}", "#", "/*", " *", "//"))
            or line.rstrip().endswith(";"))


def functions(text):
    """(name, first line, lines) of every function defined in text."""
    lines = text.split("\n")
    found = []
    start = None
    for i, line in enumerate(lines):
        if line == "{" and start is None:
            # back to the line that names it: after a blank line, a
            # comment, a preprocessor line or the end of a declaration
            j = i - 1
            while j > 0 and not ends_a_declaration(lines[j - 1]):
                j -= 1
            name = re.search(r"(\w+)\s*\(", " ".join(lines[j:i]))
            start = (j, name.group(1) if name else "?")
        elif line.startswith("}") and start is not None:
            found.append((start[1], start[0] + 1, i - start[0] + 1))
            start = None
    return found


# the checker on examples: a short function and a long one, counted
example = ("/* a comment */\nstatic int\nshort_one(void)\n{\n"
           "    return 0;\n}\n\nint long_one(int a,\n             int b)\n{\n"
           + "    a++;\n" * 200 + "}\n")
got = {name: length for name, _, length in functions(example)}
check(got == {"short_one": 5, "long_one": 204},
      "the checker counts functions", str(got))

for d in DIRS:
    for path in sorted(glob.glob(os.path.join(SRC, d, "*.c"))):
        with open(path, encoding="utf-8") as f:
            found = functions(f.read())
        rel = os.path.relpath(path, SRC)
        check(bool(found), f"{rel}: functions found")
        for name, line, length in found:
            if length > LIMIT:
                check(False, f"{rel}:{line}: {name}() is at most {LIMIT} "
                      "lines", f"{length} lines")
        longest = max(found, key=lambda f: f[2]) if found else ("-", 0, 0)
        print(f"     {rel}: longest {longest[0]}() {longest[2]} lines")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
sys.exit(0)
