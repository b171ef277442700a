#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: the header's comments are one line each; every function it declares has a man page.

include/diskio.h.in reads like jansson.h: after its opening comment, no
comment runs over more than one line, and the prose lives in the man
pages.  So every function the header declares has its page, man/NAME.3
or man/NAME.3.in, installed by Makefile.am, that describes the function
(the page itself, or the page its .so stub names, mentions it)."""
import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(cond, what):
    if not cond:
        print("FAIL " + what)
        failures.append(what)


def page_text(name):
    for ext in (".3.in", ".3"):
        path = os.path.join(SRC, "man", name + ext)
        if os.path.exists(path):
            return open(path, encoding="utf-8").read()
    return None


def followed(text):
    """A page's text, or that of the page its .so stub names."""
    m = re.match(r"\.so man3/(\S+)\.3\s*$", text)
    return (page_text(m.group(1)) or "") if m else text


def main():
    header = open(os.path.join(SRC, "include", "diskio.h.in"), encoding="utf-8").read()
    body = header.index("#ifndef DISKIO_H")  # after the opening comment
    comments = [c for c in re.finditer(r"/\*.*?\*/", header, re.S) if c.start() > body]
    check(len(comments) > 50, f"the header's comments are found ({len(comments)})")
    for c in comments:
        line = header.count("\n", 0, c.start()) + 1
        check("\n" not in c.group(0),
              f"include/diskio.h.in:{line}: a comment of more than one line "
              "(one line here, the rest in the man page)")
    makefile = open(os.path.join(SRC, "Makefile.am"), encoding="utf-8").read()
    code = re.sub(r"/\*.*?\*/", "", header, flags=re.S)
    functions = sorted(set(re.findall(r"\b(diskio_\w+)\s*\(", code)))
    check(len(functions) >= 90, f"the header's functions are found ({len(functions)})")
    for fn in functions:
        text = page_text(fn)
        check(text is not None, f"{fn}() has a page, man/{fn}.3 or man/{fn}.3.in")
        if text is None:
            continue
        check(re.search(r"\bman/" + fn + r"\.3\b", makefile) is not None,
              f"Makefile.am installs man/{fn}.3")
        check(re.search(r"\b" + fn + r"\b", followed(text).replace("\\-", "-")) is not None,
              f"{fn}(3) describes {fn}")
    print(f"{len(comments)} comments, {len(functions)} functions checked")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
