#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: every public struct member of the header is documented, in order, in the man pages.

the documentation of the public structs cannot drift from
include/diskio.h.in.  Every public struct of the header is shown in full
(its "struct NAME {" synopsis) in libdiskio(3) or in a page libdiskio(3)
names; that synopsis lists every public member (those not ending in "_",
which libdiskio(3) calls private), in the header's order; and each member
is described in that page outside the synopsis too.  libdiskio(3) itself
shows struct diskio_config and struct diskio_run_info, so every member of
those two is in it."""

import os
import re
import sys

SRC = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what +
          (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(what)


def uncomment(text):
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def declared(body):
    """The public members a struct body declares, in order ("uint64_t
    p50_ns, p99_ns;" declares two; names ending in "_" are private)."""
    members = []
    # a function pointer "int (*done)(void *ctx, bool synced)" declares done
    body = re.sub(r"\(\s*\*\s*(\w+)\s*\)\s*\([^)]*\)", r" \1", body)
    for decl in body.split(";"):
        decl = re.sub(r"\[[^]]*\]", "", decl).strip()
        if not decl or decl == "...":
            continue
        parts = [re.findall(r"\w+", part) for part in decl.split(",")]
        names = [words[-1] for words in parts if words]
        members += [n for n in names if not n.endswith("_")]
    return members


def header_structs(text):
    """{struct name: [public members in order]} of every struct with a body."""
    text = "\n".join(line for line in uncomment(text).splitlines()
                     if not line.lstrip().startswith("#"))
    return {m.group(1): declared(m.group(2)) for m in
            re.finditer(r"\bstruct\s+(diskio_\w+)\s*\{(.*?)\n\};", text, re.S)}


def man_page(name):
    for ext in (".3.in", ".3"):
        path = os.path.join(SRC, "man", name + ext)
        if os.path.exists(path):
            return open(path, encoding="utf-8").read()
    return None


def synopsis(page, struct):
    """(the roff of page's synopsis of the struct, its C text), or None:
    ".B struct NAME {" up to ".B };", or all on one line."""
    if page is None:
        return None
    m = (re.search(r"^\.B struct " + struct + r" \{\n(.*?)^\.B \};", page, re.S | re.M) or
         re.search(r"^\.B struct " + struct + r" \{(.*?)\};$", page, re.M))
    if not m:
        return None
    lines = [re.sub(r"^\.BI? ", "", line).replace('"', " ")
             for line in m.group(1).splitlines()]
    return m.group(0), uncomment("\n".join(lines))


def main():
    header = open(os.path.join(SRC, "include", "diskio.h.in"), encoding="utf-8").read()
    structs = header_structs(header)
    check(len(structs) >= 8, "the header's public structs are found", sorted(structs))
    libpage = man_page("libdiskio")
    pages = sorted({name.split(".")[0] for name in os.listdir(os.path.join(SRC, "man"))
                    if name.endswith((".3", ".3.in"))})
    for struct, members in sorted(structs.items()):
        shown = [p for p in pages if synopsis(man_page(p), struct) is not None]
        check(bool(shown), f"struct {struct} is shown in full in a page")
        if not shown:
            continue
        name = "libdiskio" if "libdiskio" in shown else shown[0]
        if name != "libdiskio":
            check(re.search(r"\.BR " + re.escape(name) + r" \(3\)", libpage) is not None,
                  f"libdiskio(3) names {name}(3), where struct {struct} is shown")
        page = man_page(name)
        block, c_text = synopsis(page, struct)
        listed = declared(c_text)
        check(listed == members,
              f"{name}(3) lists every member of struct {struct}, in order",
              f"the page has {listed}, the header {members}")
        rest = page.replace(block, "")
        for member in members:
            check(re.search(r"(?<![\w.])" + re.escape(member) + r"\b", rest) is not None,
                  f"{name}(3) describes {struct}.{member}")
    for struct in ("diskio_config", "diskio_run_info"):
        check(synopsis(libpage, struct) is not None,
              f"libdiskio(3) shows struct {struct} itself")
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
