#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: the public header has no *_COUNT or *_LAST sentinel; the library counts its enums.

A sentinel enumerator (DISKIO_MODE_COUNT after the last mode) or macro
(DISKIO_PATTERN_LAST) is compiled into every program that uses it: a
program built against one header and run with a newer library would loop
over the modes the header knew, and one that sized an array with it would
index past it.  So no enum of include/diskio.h.in ends with an
enumerator named *_COUNT, *_LAST, *_MAX, *_NUM or *_END, no macro of it is
such a name for an enum's values (DISKIO_FIELD_COUNT and DISKIO_RULE_COUNT
name the config's count member, not a number of values, and are not
last), and the enums a program lists (modes, patterns, parts, formats)
each have their count and name functions, answered by the library."""
import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
SENTINEL = re.compile(r"_(COUNT|LAST|MAX|NUM|END)$")
LISTED = ("mode", "pattern", "part", "format")
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def main():
    text = open(os.path.join(SRC, "include", "diskio.h.in"), encoding="utf-8").read()
    code = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    enums = re.findall(r"\benum\s+(diskio_\w+)\s*\{(.*?)\}", code, re.S)
    check(len(enums) >= 8, f"the header's enums are found ({len(enums)})")
    prefixes = set()
    for name, body in enums:
        values = [v.split("=")[0].strip() for v in body.split(",") if v.strip()]
        check(bool(values) and not SENTINEL.search(values[-1]),
              f"enum {name} ends with a value, not a sentinel ({values[-1] if values else '-'})")
        prefixes.update(re.match(r"(DISKIO_[A-Z]+_)", v).group(1) for v in values
                        if re.match(r"DISKIO_[A-Z]+_", v))
    for macro in re.findall(r"^\s*#\s*define\s+(DISKIO_\w+)", code, re.M):
        counted = any(macro.startswith(p) for p in prefixes) and SENTINEL.search(macro)
        check(not counted, f"macro {macro} does not count an enum's values")
    for kind in LISTED:
        for fn in (f"diskio_{kind}_count", f"diskio_{kind}_name"):
            check(re.search(r"\b" + fn + r"\(", code) is not None,
                  f"{fn}() is declared, so a program lists the {kind}s from the library")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
