# SPDX-License-Identifier: MIT
"""pdsh's host-list syntax, expanded here so that every transport sees the
same hosts in the same order: comma-separated items, each with any number
of bracket groups of numbers and ranges (db[1-4], db[01-10] keeps the
zero padding of its lower bound, r[1-2]n[1,3-4]), ^FILE for the hosts
listed in FILE (one list per line, # starts a comment).  Duplicates are
dropped, the first place kept, as pdsh does."""

import re

from ..errors import UsageError

# more hosts than this is a typo (db[1-1000000]), not a fleet
MAX_HOSTS = 4096
# what a host may be called: a DNS name or address, optionally user@;
# never a leading '-' (ssh would read it as an option) nor a '/' (it names
# a directory of the lab)
HOST_RE = re.compile(r"^(?:[A-Za-z0-9_][A-Za-z0-9_.+-]*@)?"
                     r"[A-Za-z0-9_][A-Za-z0-9_.:-]*$")


def split_top(text):
    """text split at the commas outside brackets."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "[":
            if depth:
                raise UsageError(f"host list '{text}': a '[' inside "
                                 "brackets; write db[1-4], not db[[1-4]]")
            depth = 1
        elif ch == "]":
            if not depth:
                raise UsageError(f"host list '{text}': a ']' without its "
                                 "'['")
            depth = 0
        elif ch == "," and not depth:
            items.append(text[start:i])
            start = i + 1
    if depth:
        raise UsageError(f"host list '{text}': a '[' without its ']'")
    items.append(text[start:])
    return items


def expand_range(spec, whole):
    """The strings one bracket group stands for: '1-3,7' -> 1 2 3 7,
    '01-10' -> 01 02 ... 10."""
    out = []
    for part in spec.split(","):
        m = re.fullmatch(r"([0-9]{1,18})(?:-([0-9]{1,18}))?", part.strip(),
                         re.ASCII)
        if not m:
            raise UsageError(f"host list '{whole}': [{spec}] is not a list "
                             "of numbers and ranges; write [1-4] or "
                             "[01-10] or [1,3,5-7]")
        lo_text, hi_text = m.group(1), m.group(2)
        lo = int(lo_text)
        hi = lo if hi_text is None else int(hi_text)
        if hi < lo:
            raise UsageError(f"host list '{whole}': range {part} goes "
                             "down; write the lower number first")
        if hi - lo >= MAX_HOSTS:
            raise UsageError(f"host list '{whole}': range {part} has more "
                             f"than {MAX_HOSTS} hosts")
        width = len(lo_text) if lo_text.startswith("0") else 0
        out.extend(str(n).zfill(width) for n in range(lo, hi + 1))
    return out


def expand_item(item, whole):
    """One comma-free item with its bracket groups expanded, in order
    (the last group varies fastest, as pdsh prints them)."""
    pieces = re.split(r"\[([^\]]*)\]", item)
    names = [""]
    for i, piece in enumerate(pieces):
        choices = expand_range(piece, whole) if i % 2 else [piece]
        names = [n + c for n in names for c in choices]
        if len(names) > MAX_HOSTS:
            raise UsageError(f"host list '{whole}': more than {MAX_HOSTS} "
                             "hosts")
    return names


def read_host_file(path, opener=open):
    try:
        with opener(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as err:
        raise UsageError(f"host list ^{path}: cannot read it: "
                         f"{err.strerror}; give a readable file of hosts")
    hosts = []
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            hosts.extend(expand(line, allow_files=False))
    return hosts


def expand(text, allow_files=True):
    """The hosts text names, in order, without duplicates; UsageError on
    bad syntax, saying where."""
    text = text.strip()
    if not text:
        raise UsageError("host list is empty; give hosts as db1,db2 or "
                         "db[1-4] or ^FILE")
    hosts = []
    for item in split_top(text):
        item = item.strip()
        if not item:
            raise UsageError(f"host list '{text}': an empty name between "
                             "commas")
        if item.startswith("^"):
            if not allow_files:
                raise UsageError(f"host list '{text}': ^FILE inside a host "
                                 "file; list the hosts themselves")
            hosts.extend(read_host_file(item[1:]))
            continue
        for name in expand_item(item, text):
            if not HOST_RE.match(name):
                raise UsageError(f"host list '{text}': '{name}' is not a "
                                 "host name (letters, digits, '.', '-', "
                                 "'_', ':', optionally USER@; not starting "
                                 "with '-')")
            hosts.append(name)
    seen, unique = set(), []
    for host in hosts:
        if host not in seen:
            seen.add(host)
            unique.append(host)
    if len(unique) > MAX_HOSTS:
        raise UsageError(f"host list '{text}': more than {MAX_HOSTS} hosts")
    return unique


def select(include, exclude=()):
    """The hosts of every -w list, less those of every -x list."""
    hosts = []
    for text in include:
        hosts.extend(h for h in expand(text) if h not in hosts)
    dropped = set()
    for text in exclude:
        dropped.update(expand(text))
    hosts = [h for h in hosts if h not in dropped]
    if not hosts:
        raise UsageError("no host left to run on (every host of -w is "
                         "excluded by -x)")
    return hosts
