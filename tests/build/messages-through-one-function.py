#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: diskio and diskio-durable write to standard error only through their message functions.

diskio and diskio-durable write to standard error only
through their message functions, so no message can show a path, a value or
a peer's text raw again.  In every C file under src/cli and src/durable,
standard error (stderr, STDERR_FILENO, fd 2) is written only by
src/cli/cli_msg.c and src/durable/durable_msg.c, which show each message by
the one rule for untrusted text (src/lib/emit_string.c's display_vline),
and by the progress line of src/cli/cli_progress.c, whose writes start with
its own clear-line sequence and show text it escaped already.  Anything
else that names standard error (fprintf(stderr, ...), fputs(..., stderr),
write(STDERR_FILENO, ...), dprintf(2, ...), perror(), err(), warn(),
error(), psignal()...) fails, with its file and line.  And the messages'
own text stays what the rule leaves as it is: every string literal in a
call of a message function (cli_msg, cli_usage_msg, cli_report,
durable_msg, durable_usage_msg, durable_log) is printable ASCII with no
escape but \" and \' (a "\n" in one would show as \x0a, a "\\" doubled).
The checker is tried first on examples of each, so that it cannot quietly
stop finding them."""

import glob
import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))

# the message functions: where writing to standard error is the job
MESSAGE_FILES = {"src/cli/cli_msg.c", "src/durable/durable_msg.c"}
# the progress line: its writes begin with "\r\033[K" (return, erase the
# line) and show a line made of escaped text (cli_progress.c)
PROGRESS_FILE = "src/cli/cli_progress.c"
PROGRESS_WRITE = re.compile(r'^(fprintf|fputs)\s*\(\s*(stderr\s*,\s*)?"\\r\\033\[K')
# what may name standard error without writing to it
HARMLESS_CALLS = {"fflush", "isatty", "ioctl", "fileno"}
# functions that write to standard error themselves
STDERR_WRITERS = re.compile(
    r"(?<![\w.>])(perror|psignal|psiginfo|herror|err|errx|warn|warnx|verr|verrx|"
    r"vwarn|vwarnx|error|error_at_line)\s*\(")
# a write to descriptor 2 by number
FD2_WRITE = re.compile(
    r"(?<![\w.>])(write|writev|pwrite|pwritev|dprintf|vdprintf|fdopen|send)\s*\(\s*2\s*[,)]")
STDERR_NAME = re.compile(r"\b(stderr|STDERR_FILENO)\b")
MESSAGE_CALL = re.compile(
    r"(?<![\w.>])(cli_msg|cli_usage_msg|cli_report|durable_msg|durable_usage_msg|"
    r"durable_log)\s*\(")
# a literal's source text the rule shows as it is
PLAIN_LITERAL = re.compile(r'^"(?:[ !#-\[\]-~]|\\["\'])*"$')

failures = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what +
          (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(what)


def strip(text):
    """text with its comments blanked: returns (code, bare), both of
    text's length with its newlines where they were.  code keeps the
    string and character literals (the progress line is told by one);
    bare has each literal's contents blanked too (nothing in a literal is
    a call), so that a place found in bare is the same place in code."""
    code, bare = [], []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i) or text.startswith("/*", i):
            if c == "/" and text[i + 1] == "/":
                j = text.find("\n", i)
                j = n if j < 0 else j
            else:
                j = text.find("*/", i + 2)
                j = n if j < 0 else j + 2
            blank = "".join("\n" if ch == "\n" else " " for ch in text[i:j])
            code.append(blank)
            bare.append(blank)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            code.append(text[i:j])
            bare.append(c + " " * max(0, j - i - 2) + (text[j - 1] if j - i > 1 else ""))
            i = j
        else:
            code.append(c)
            bare.append(c)
            i += 1
    return "".join(code), "".join(bare)


def enclosing_call(code, at):
    """The call whose argument list holds position at: (name, where its
    name starts, where its closing parenthesis ends), or (None, at, at)."""
    depth = 0
    i = at - 1
    while i >= 0:
        ch = code[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                break
            depth -= 1
        elif ch in ";{}" and depth == 0:
            return None, at, at
        i -= 1
    if i < 0:
        return None, at, at
    m = re.search(r"(\w+)\s*$", code[:i])
    if not m:
        return None, at, at
    depth, j = 0, i
    while j < len(code):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                break
        j += 1
    return m.group(1), m.start(1), j + 1


def findings(path, text):
    """Each place in text (the file at path, relative to the source tree)
    that writes to standard error other than through the message
    functions: a list of "path:line: what"."""
    if path in MESSAGE_FILES:
        return []
    code, bare = strip(text)
    found = []

    def line(pos):
        return bare.count("\n", 0, pos) + 1

    for m in STDERR_NAME.finditer(bare):
        name, start, end = enclosing_call(bare, m.start())
        if name in HARMLESS_CALLS:
            continue
        if path == PROGRESS_FILE and name and PROGRESS_WRITE.match(code[start:end]):
            continue
        call = " ".join(code[start:end].split())[:100]
        found.append(f"{path}:{line(m.start())}: "
                     f"{m.group(1)} in {name or 'a statement'}(...): {call}")
    for m in MESSAGE_CALL.finditer(bare):
        _, start, end = enclosing_call(bare, m.end())
        for lit in re.finditer(r'"(?:[^"\\\n]|\\.)*"', code[start:end]):
            if not PLAIN_LITERAL.match(lit.group(0)):
                found.append(f"{path}:{line(start + lit.start())}: {m.group(1)}() text "
                             f"{lit.group(0)} is not printable ASCII without escapes")
    for regex, what in ((STDERR_WRITERS, "writes to standard error"),
                        (FD2_WRITE, "writes to descriptor 2")):
        for m in regex.finditer(bare):
            found.append(f"{path}:{line(m.start())}: {m.group(1)}() {what}")
    return found


# ---- the checker finds what it must, and only that ----
caught = {
    'fprintf(stderr, "diskio: %s\\n", path);': True,
    'fputs("diskio: oops\\n",\n      stderr);': True,
    'fputc(\'\\n\', stderr);': True,
    'vfprintf(stderr, fmt, ap);': True,
    'show(stderr, path);': True,
    'FILE *out = stderr;': True,
    'write(STDERR_FILENO, text, len);': True,
    'dprintf(2, "%s", path);': True,
    'write(2, text, len);': True,
    'perror(path);': True,
    'err(1, "%s", path);': True,
    'warnx("%s", path);': True,
    'error(0, errno, "%s", path);': True,
    'psignal(signo, "diskio");': True,
    'fflush(stderr);': False,
    'if (isatty(STDERR_FILENO)) x();': False,
    'ioctl(STDERR_FILENO, TIOCGWINSZ, &ws);': False,
    '/* never fprintf(stderr, ...) here */ x();': False,
    '// perror(path) is not used\nx();': False,
    'printf("see stderr and perror(3)\\n");': False,
    'int err = errno; c->error = 1; p->warn(1);': False,
    'write(fd, text, len);': False,
    'cli_msg("%s", path);': False,
    'cli_msg("cannot open %s: %s\\n", path, why);': True,
    'durable_log("run %s\\tended", id);': True,
    'cli_report("a \\\\ b");': True,
    'cli_msg("it\'s \\"%s\\" %s", path,\n        x ? " (more)" : "");': False,
    'durable_usage_msg("unknown option \'%s\'", arg);': False,
}
for snippet, should in caught.items():
    got = findings("src/cli/example.c", snippet)
    check(bool(got) == should,
          f"the checker {'finds' if should else 'passes'} {snippet!r}",
          "; ".join(got) or "nothing found")
check(bool(findings(PROGRESS_FILE, 'fprintf(stderr, "progress %s", line);')),
      "the checker finds a progress-file write that is not the progress line")
check(not findings(PROGRESS_FILE, 'fprintf(stderr, "\\r\\033[K%s", line);\n'
                   'fputs("\\r\\033[K", stderr);'),
      "the checker passes the progress line's own writes")

# ---- the sources ----
files = sorted(
    os.path.relpath(p, SRC)
    for d in ("src/cli", "src/durable")
    for p in glob.glob(os.path.join(SRC, d, "*.[ch]")))
check(len(files) > 10, f"the sources are found under {SRC}", f"{files}")
for rel in sorted(MESSAGE_FILES):
    try:
        with open(os.path.join(SRC, rel), encoding="utf-8") as f:
            body = f.read()
    except OSError as e:
        check(False, f"{rel} exists", str(e))
        continue
    check("display_vline(" in body,
          f"{rel} shows its messages by the rule (display_vline)")
for rel in files:
    with open(os.path.join(SRC, rel), encoding="utf-8", errors="surrogateescape") as f:
        got = findings(rel, f.read())
    check(not got, f"{rel} writes to standard error only through the message functions",
          "\n    " + "\n    ".join(got))

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
