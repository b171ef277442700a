#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: every test file is in a Makefile.am test list and starts with a one-line description.

A file under tests/ or bench/ that looks like a test (tests/unit/check_*.c,
any other .sh or .py under tests/ outside tests/lib, fixtures and the fuzz
corpus, bench/*.sh) and examples/*.c must be in one of the lists of
make check or make check-slow (the harness passes their union as
DISKIO_LISTED_TESTS), and in only one; every listed test must exist (so
make distcheck, which runs this from the tarball, finds a test missing
from the tarball); every .sh and .py file in tests/lib is in
TEST_HELPERS; and every test file's first comment after the #! and SPDX
lines is "Description: " and one line of what it proves, the next line
blank or the comment's end."""
import os
import re
import sys

SKIP = 77
SRCDIR = os.path.abspath(os.environ.get("top_srcdir")
                         or os.path.join(os.path.dirname(__file__), "..", ".."))
WIDEST = 110
problems = []


def problem(text):
    problems.append(text)
    print("FAIL: " + text)


def rel(path):
    return os.path.relpath(path, SRCDIR)


def files_under(top, skip_dirs=()):
    for root, dirs, names in os.walk(os.path.join(SRCDIR, top)):
        dirs[:] = sorted(d for d in dirs if rel(os.path.join(root, d)) not in skip_dirs
                         and d not in ("__pycache__", ".libs", ".deps"))
        for name in sorted(names):
            yield rel(os.path.join(root, name))


def test_files():
    """{test name as listed: source file} for every file that looks like a test."""
    found = {}
    skip = {"tests/lib", "tests/scripts/fixtures", "tests/fuzz/corpus"}
    for path in files_under("tests", skip):
        base = os.path.basename(path)
        if path.startswith("tests/unit/"):
            if base.startswith("check_") and base.endswith(".c"):
                found[path[:-2]] = path
        elif path.endswith((".sh", ".py")) and not base.startswith("t-"):
            found[path] = path
    for path in files_under("bench"):
        if path.count("/") == 1 and path.endswith(".sh"):
            found[path] = path
    for path in files_under("examples"):
        if path.count("/") == 1 and path.endswith(".c"):
            found[path[:-2]] = path
    return found


def description_problem(path):
    """None when the file opens with a one-line Description, else why not."""
    with open(os.path.join(SRCDIR, path), encoding="utf-8") as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines) and (lines[i].startswith("#!") or "SPDX-License-Identifier" in lines[i]):
        i += 1
    if path.endswith(".c"):
        if i < len(lines) and lines[i].strip() == "/*":
            i += 1
        pattern = r"^(/\*| \*) Description: (.+?)( \*/)?$"
        blank = (" *", " */", "*/")
    elif path.endswith(".py"):
        pattern = r'^("""|# )Description: (.+?)(""")?$'
        blank = ("", "#")
    else:
        pattern = r"^# Description: (.+)$"
        blank = ("#",)
    if i >= len(lines):
        return "no Description line"
    m = re.match(pattern, lines[i])
    if not m:
        return f"line {i + 1} is not a Description line: {lines[i][:60]!r}"
    if len(lines[i]) > WIDEST:
        return f"line {i + 1}: the description is wider than {WIDEST} columns"
    closed = lines[i].endswith(('"""', "*/"))
    if not closed and i + 1 < len(lines) and lines[i + 1].rstrip() not in blank:
        return (f"line {i + 2} continues the description: it must be one line, "
                "then a blank comment line before any more")
    return None


def main():
    listed_text = os.environ.get("DISKIO_LISTED_TESTS")
    if listed_text is None:
        print("SKIP: DISKIO_LISTED_TESTS is not set (run through make check)")
        return SKIP
    listed = listed_text.split()
    helpers = set(os.environ.get("DISKIO_TEST_HELPERS", "").split())
    found = test_files()
    seen = set()
    for name in listed:
        if name in seen:
            problem(f"{name} is in more than one test list")
        seen.add(name)
        if name not in found:
            problem(f"{name} is listed but there is no such test file in the source tree "
                    "(not in the tarball? not named as tests are?)")
    for name, path in sorted(found.items()):
        if name not in seen:
            problem(f"{path} looks like a test but is in no list of Makefile.am "
                    "(see its '==== tests ====' section for where it goes)")
    for path in files_under("tests/lib"):
        if path.endswith((".sh", ".py")) and path not in helpers:
            problem(f"{path} is in tests/lib but not in TEST_HELPERS")
    for name, path in sorted(found.items()):
        if path.startswith("examples/"):
            continue
        why = description_problem(path)
        if why:
            problem(f"{path}: {why}")
    print(f"{len(found)} test files, {len(listed)} listed, {len(helpers)} helpers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
