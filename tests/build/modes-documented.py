#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: every mode of the library is documented where a user looks for it, as its row says.

The modes are rows of the library's mode table (src/lib/modes.c), which
tests/mode-facts prints through the public API; the documentation of a
mode is its own lines, and those must be there for every mode and say
what the row says: diskio(1) has an entry for it under MODES (a write
mode's saying "Durable: yes." exactly when diskio_mode_is_durable()) and
names it in --mode's list, libdiskio(3) has its enumerator in the enum
of WORKLOADS and says what it is, and README.md's table of modes has its
row.  Everything else in the documentation refers to these rather than
listing the modes again."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP_SRCDIR = os.path.abspath(os.environ.get("top_srcdir") or
                             os.path.dirname(os.path.dirname(HERE)))
TOP_BUILDDIR = os.path.abspath(os.environ.get("top_builddir") or TOP_SRCDIR)
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def read(*path):
    with open(os.path.join(TOP_SRCDIR, *path), encoding="utf-8") as f:
        return f.read()


def section(text, start, end):
    """text from the line start to the next line starting with end."""
    at = text.index("\n" + start + "\n")
    stop = text.find("\n" + end, at + 1)
    return text[at:stop if stop >= 0 else len(text)]


def man_entries(modes_section):
    """name (unescaped) -> its .TP entry's text, of diskio(1)'s MODES."""
    entries = {}
    for entry in modes_section.split("\n.TP\n")[1:]:
        head, _, body = entry.partition("\n")
        if head.startswith(".B "):
            entries[head[3:].replace("\\-", "-")] = body.split("\n.S")[0]
    return entries


def main():
    facts = os.path.join(TOP_BUILDDIR, "tests", "mode-facts")
    if not os.access(facts, os.X_OK):
        print(f"FAIL: {facts} is missing, yet make check builds it: this build is broken")
        return 1
    out = subprocess.run([facts], check=True, capture_output=True, text=True).stdout
    modes = [line.split() for line in out.splitlines()]
    man = read("man", "diskio.1.in")
    entries = man_entries(section(man, ".SH MODES", ".SH "))
    mode_option = section(man, ".BR \\-m \", \" \\-\\-mode \" \\fIMODE\\fR[\\fB,\\fIMODE\\fR]...\"",
                          ".TP")
    libdiskio = read("man", "libdiskio.3.in")
    workloads = section(libdiskio, ".SH WORKLOADS", ".SH ")
    readme_modes = section(read("README.md"), "## Modes", "## ")
    for name, durable, _syncs, _direct, _queued, reads, _method in modes:
        entry = entries.get(name)
        check(entry is not None, f"diskio(1) MODES has an entry for {name}")
        if entry is not None and reads == "-":
            said = re.findall(r"^Durable: (yes|no)\.$", entry, re.M)
            want = "yes" if durable == "durable" else "no"
            check(said == [want], f"diskio(1) MODES says {name} is durable: {want}")
        escaped = name.replace("-", "\\-")
        check(re.search(r"^\.BR? " + re.escape(escaped) + r"( ,)?$", mode_option, re.M)
              is not None, f"diskio(1) --mode names {name}")
        enumerator = "DISKIO_MODE_" + name.upper().replace("-", "_")
        check(len(re.findall(r"\b" + enumerator + r"\b", workloads)) >= 2,
              f"libdiskio(3) WORKLOADS has {enumerator} and says what it is")
        check(f"| `{name}` |" in readme_modes, f"README.md's table of modes has {name}")
    names = {m[0] for m in modes}
    for name in entries:
        check(name in names, f"diskio(1) MODES describes {name}, a mode of the library")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
