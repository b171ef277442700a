#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: no test skips, or passes with a note, for a missing build product or O_DIRECT.

A test that cannot run fails, unless the machine itself cannot: then it
skips (exit 77) and says why.  What make check builds (the preloads of
check_LTLIBRARIES, the helpers of check_PROGRAMS, the programs and
commands) cannot be the machine's reason: missing, the build is broken.
Nor can a filesystem that refuses O_DIRECT, while another directory
takes it (tests/lib/cli.sh: t_direct_dir; tests/unit/t_mode_run.h), nor a
uring mode failing for any reason but the one tests/uring-why gives.
So the tests under tests/ (tests/lib included) hold none of the patterns
that used to turn those into a pass:

- a skip or a note on the same line as "not built", or as the name of
  something the build makes (a preload, tests/mode-facts,
  tests/locale-writer, tests/uring-why, diskio-compare, $DISKIO,
  $DISKIO_DURABLE);
- a shell test of such a file's existence (`[ -f "$preload" ]`, a
  variable set from ${top_builddir}, $DISKIO or $DISKIO_DURABLE) whose
  other branch does not fail: an `if` without an `else` that calls
  t_unbuilt (or fails), or an `||` that skips;
- in a shell test, a skip or a note about O_DIRECT, or about io_uring
  that does not give $t_uring_why;
- in a Check suite, a branch on a run's -DISKIO_E_NO_DIRECT or -ENOSYS
  (a refusal turned into a return), or a SKIP line about O_DIRECT,
  python3 or a missing build product.

The few lines that match and are the machine's reason are allowed below,
each with why."""
import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
SELF = "tests/build/skips-are-the-machines.py"

# (file, text on the line): the machine's reason, not the build's
ALLOWED = {
    ("tests/lib/durable.sh", "built without libfuse3-dev"):
        "configure found no libfuse3-dev and said so: the lying store is no part of this build",
    ("tests/build/exports-match-header.sh", "(static build?)"):
        "configure --disable-shared makes no shared library: a build made so, not a broken one",
    ("tests/cli/suites.sh", "need root and ramfs"):
        "mounting the ramfs that refuses O_DIRECT is the case itself: root and ramfs are the "
        "machine's",
}

SKIP = re.compile(r"\bSKIP\b|\bskip\b|skipTest|d_skip|exit 77|return 77|EXIT_SKIP|note:|"
                  r"skipped|not checked")
BUILT = re.compile(r"not built|\.libs/|-preload\b|\$preload|mode-facts|locale-writer|"
                   r"\$writer|uring-why|scripts/diskio-compare|\$compare|\$DISKIO\b|DISKIO_DURABLE|"
                   r"fault preload")
FAILS = re.compile(r"t_unbuilt|t_built|t_fail|\bfail\b|FAIL|exit 1\b")
EXISTS = re.compile(r'\[ -[fxe] "\$\{?(\w+)')
URING = re.compile(r"(?<![a-z])(io_)?uring\b")
FROM_BUILD = re.compile(r'^\s*(\w+)="?\$\{top_builddir')
problems = []


def problem(path, number, line, why):
    if any(path == f and text in line for (f, text) in ALLOWED):
        return
    problems.append(f"{path}:{number}: {why}: {line.strip()}")
    print(f"FAIL: {path}:{number}: {why}: {line.strip()}")


def test_files():
    skip_dirs = {"tests/scripts/fixtures", "tests/fuzz/corpus"}
    for root, dirs, names in os.walk(os.path.join(SRC, "tests")):
        rel_root = os.path.relpath(root, SRC)
        dirs[:] = sorted(d for d in dirs if os.path.join(rel_root, d) not in skip_dirs
                         and d not in ("__pycache__", ".libs", ".deps"))
        for name in sorted(names):
            path = os.path.join(rel_root, name)
            if path != SELF and name.endswith((".sh", ".py", ".c", ".h")):
                yield path


def check_lines(path, lines):
    """Skips and notes for what the build makes; about O_DIRECT; about io_uring."""
    shell = path.endswith(".sh") or path == "tests/lib/cli.sh"
    for number, line in enumerate(lines, 1):
        code = line.split("#", 1)[0] if shell and line.lstrip().startswith("#") else line
        if not SKIP.search(code) or line.lstrip().startswith("grep"):
            continue
        if BUILT.search(code) and not FAILS.search(code):
            problem(path, number, line, "a skip or a note for what the build makes")
        if shell and "O_DIRECT" in code:
            problem(path, number, line, "a skip or a note about O_DIRECT (t_direct_dir finds "
                                        "a directory that takes it)")
        # the mode's name, not a word that holds it ("during")
        if shell and URING.search(code) and "t_uring_why" not in code:
            problem(path, number, line, "a skip or a note about io_uring without $t_uring_why")


def other_branch_fails(lines, at):
    """Whether the if on line at has an else whose first line fails."""
    indent = len(lines[at]) - len(lines[at].lstrip())
    for line in lines[at + 1:]:
        stripped = line.strip()
        if len(line) - len(line.lstrip()) != indent or not stripped:
            continue
        if stripped == "fi":
            return False
        if stripped == "else":
            following = lines[lines.index(line, at + 1) + 1]
            return bool(FAILS.search(following))
    return False


def check_existence_tests(path, lines):
    """Every existence test of something the build makes fails without it."""
    built = {"DISKIO", "DISKIO_DURABLE", "top_builddir"}
    built |= {m.group(1) for m in map(FROM_BUILD.match, lines) if m}
    text = "\n".join(lines)
    for number, line in enumerate(lines, 1):
        for m in EXISTS.finditer(line):
            name = m.group(1)
            if name not in built:
                continue
            # the test fails elsewhere when the file is missing
            failed = re.search(r't_(un)?built "\$\{?%s\b' % name, text)
            if line.lstrip().startswith("if "):
                if not failed and not other_branch_fails(lines, number - 1):
                    problem(path, number, line, "no failure when the build's file is missing "
                                                "(an else calling t_unbuilt)")
                continue
            if "||" not in line[m.end():]:
                continue
            other = line[m.end():].split("||", 1)[1]
            if not other.strip() and number < len(lines):
                other = lines[number]  # the branch continues on the next line
            if not FAILS.search(other):
                problem(path, number, line, "a skip when the build's file is missing")


UNIT_BRANCH = re.compile(r"if\s*\([^;{]*==\s*-\s*(DISKIO_E_NO_DIRECT|ENOSYS)")
UNIT_SKIP = re.compile(r"SKIP[^\n]*(O_DIRECT|python|not built)", re.IGNORECASE)


def check_unit(path, text):
    """A Check suite never turns a run's refusal into a pass."""
    for m in UNIT_BRANCH.finditer(text):
        number = text.count("\n", 0, m.start()) + 1
        problem(path, number, text.splitlines()[number - 1],
                "a branch on a run's refusal (the case would return, passing)")
    for m in UNIT_SKIP.finditer(text):
        number = text.count("\n", 0, m.start()) + 1
        problem(path, number, text.splitlines()[number - 1], "a SKIP that is not the machine's")


def main():
    count = 0
    for path in test_files():
        with open(os.path.join(SRC, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.splitlines()
        count += 1
        if path.endswith((".c", ".h")):
            check_unit(path, text)
            continue
        check_lines(path, lines)
        if path.endswith(".sh"):
            check_existence_tests(path, lines)
    print(f"{count} test files read, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
