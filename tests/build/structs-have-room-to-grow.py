#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: every public struct a program allocates has reserved room to grow in.

A struct a program allocates (on its stack, in an array) and hands to the
library keeps the size of the header the program was built with; a newer
library that wrote or read a bigger one would run past it.  So every
public struct of include/diskio.h.in that a function takes a pointer to,
that another struct points to, or that another struct holds by value,
has a reserved_ member (libdiskio(3), CONVENTIONS, "Structs"): room for
the members later versions add.  The structs the library allocates and
only hands out by pointer (struct diskio_run_info, diskio_interval,
diskio_device_io) grow at their end instead and need none."""
import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def main():
    text = open(os.path.join(SRC, "include", "diskio.h.in"), encoding="utf-8").read()
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("#"))
    bodies = {m.group(1): m.group(2) for m in
              re.finditer(r"\bstruct\s+(diskio_\w+)\s*\{(.*?)\n\};", code, re.S)}
    check(len(bodies) >= 8, f"the header's public structs are found ({len(bodies)})")
    # the parameter lists of the declared functions
    params = " ".join(m.group(1) for m in
                      re.finditer(r"\bdiskio_\w+\s*\(([^;{]*?)\)\s*(?:DISKIO_WUR\s*)?;", code, re.S))
    given = {name for name in bodies if re.search(r"\bstruct\s+" + name + r"\b", params)}
    for body in bodies.values():
        given |= {name for name in bodies if re.search(r"\bstruct\s+" + name + r"\b", body)}
    check(len(given) >= 6, f"the structs a program allocates are found: {sorted(given)}")
    for name in sorted(given):
        check(re.search(r"\breserved_\w*\s*(\[[^]]*\])?\s*;", bodies[name]) is not None,
              f"struct {name} has reserved room")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
