#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: every Python test file runs all its tests: unittest.main() is in its last statement.

make check runs a Python test file as a script, so the tests it runs
are those defined before unittest.main() is called: a file whose
`if __name__ == "__main__":` block stands above some of its test
classes passes without running them (it once hid 11 of a file's 35).
Each .py under tests/ that imports unittest (the helpers in tests/lib
aside) must end with that block, holding unittest.main(), and define
nothing after it."""
import ast
import os
import sys

SRCDIR = os.path.abspath(os.environ.get("top_srcdir")
                         or os.path.join(os.path.dirname(__file__), "..", ".."))


def is_main_guard(node):
    """if __name__ == "__main__": ..."""
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"
            and len(node.test.comparators) == 1
            and isinstance(node.test.comparators[0], ast.Constant)
            and node.test.comparators[0].value == "__main__")


def calls_unittest_main(node):
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and n.func.attr == "main" and isinstance(n.func.value, ast.Name)
               and n.func.value.id == "unittest" for n in ast.walk(node))


def check(path):
    """The problem with one file, None without one, False for a file
    that does not use unittest."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    imports = any(isinstance(n, ast.Import) and any(a.name == "unittest" for a in n.names)
                  for n in tree.body)
    if not imports:
        return False
    guards = [i for i, n in enumerate(tree.body) if is_main_guard(n)]
    if not guards or not calls_unittest_main(tree.body[guards[-1]]):
        return "no `if __name__ == \"__main__\":` block calling unittest.main()"
    if guards[-1] != len(tree.body) - 1:
        later = tree.body[guards[-1] + 1]
        return (f"line {later.lineno}: defined after the main block at line "
                f"{tree.body[guards[-1]].lineno}, never run as a script")
    return None


def main():
    problems, checked = [], 0
    for root, dirs, names in os.walk(os.path.join(SRCDIR, "tests")):
        if os.path.relpath(root, SRCDIR) == "tests":
            dirs[:] = [d for d in dirs if d != "lib"]     # helpers, not tests
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "fixtures"))
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            path = os.path.join(root, name)
            problem = check(path)
            checked += problem is not False
            if problem:
                problems.append(f"{os.path.relpath(path, SRCDIR)}: {problem}")
    for p in problems:
        print("FAIL: " + p)
    print(f"{checked} Python files using unittest, {len(problems)} with tests that would not run")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
