#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: no Python function in python/diskio_analysis is over 60 lines.

Every function and method of the analysis package (every .py file under
python/diskio_analysis, its subpackages included), from its def line to
its last line as Python's ast counts them (docstring and comments
included), is at most 60 lines: longer, and it does several things that
want names of their own (a command's options, a group per function; a
chart, its series and its axes apart).  tests/build/python-style.sh holds
all of python/, bench/ and tests/ to a looser limit; the package, the
code users run, to this one.  The finder is tried first on an example,
so that it cannot quietly stop finding functions; every function over
the limit is named with its file, line and length."""

import ast
import os
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join("python", "diskio_analysis")
LIMIT = 60

failures = []


def functions(text, name="<example>"):
    """(name, def line, length) of every function and method in text,
    nested ones too, in the order of their def lines."""
    found = []
    for node in ast.walk(ast.parse(text, name)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, node.lineno,
                          node.end_lineno - node.lineno + 1))
    return sorted(found, key=lambda f: f[1])


EXAMPLE = '''\
import os


def short_one(a,
              b):
    """Two lines of docstring
    end here."""
    return a + b


class Thing:
    @property
    def value(self):
        return 1

    async def later(self):
        def inner():
            pass
        return inner
'''


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what
          + (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(what)


def package_files():
    """Every .py file of the package, its subpackages' too, sorted."""
    top = os.path.join(SRC, PACKAGE)
    for root, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for name in sorted(names):
            if name.endswith(".py"):
                yield os.path.join(root, name)


def main():
    seen = functions(EXAMPLE)
    check(seen == [("short_one", 4, 5), ("value", 13, 2), ("later", 16, 4),
                   ("inner", 17, 2)],
          "the finder finds the example's functions and their lengths",
          repr(seen))
    files = list(package_files())
    check(len(files) > 20, "the package's modules are there",
          os.path.join(SRC, PACKAGE))
    check(any(os.sep + "pgphases" + os.sep in f for f in files),
          "the subpackages' modules are among them")
    count = 0
    longest = ("", "", 0)
    for path in files:
        rel = os.path.relpath(path, SRC)
        with open(path, encoding="utf-8") as f:
            found = functions(f.read(), rel)
        for name, line, length in found:
            count += 1
            if length > longest[2]:
                longest = (rel, name, length)
            if length > LIMIT:
                check(False, f"{rel}:{line}: {name}() is {length} lines"
                      f" (at most {LIMIT}): split it")
    check(count > 300, f"{count} functions found in {len(files)} files")
    print(f"     longest: {longest[0]}: {longest[1]}() {longest[2]} lines")
    if failures:
        print(f"FAIL: {len(failures)} problem(s)")
        return 1
    print(f"PASS: no function in {PACKAGE} over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
