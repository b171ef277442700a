#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the defaults and ranges diskio(1) states for each option are the ones diskio prints.
#
# diskio(1) repeats in prose what --help prints from the code: an
# option's "Default: X" and its ranges ("from 1 to 1024", "512 to 64m").
# This reads both (man/diskio.1.in's OPTIONS entries, troff stripped, and
# the --help text of each option) and holds each default the page states
# to the one --help prints, and each range it states to one that --help
# or the option's own refusal of a bad value names (the refusals are held
# to what diskio does by messages-name-their-limits.sh).  A default or
# range the page states that diskio does not fails.
. "${top_srcdir:-.}/tests/lib/cli.sh"

t_expect_status 0 "diskio --help" -- "$DISKIO" --help || t_done
cp "$t_scratch/stdout" "$t_scratch/usage"

"${PYTHON3:-python3}" - "$t_scratch/usage" "$DISKIO" \
    "${top_srcdir:-.}/man/diskio.1.in" <<'EOF' || t_fail "diskio(1) states a value diskio does not"
import re
import subprocess
import sys

usage_path, diskio, man_path = sys.argv[1:4]
failed = 0
VALUE = r"(?:2\^\d+|\d+(?:\.\d+)?(?: ?(?:[kmgt]|ms|s|h|seconds?|minutes?|days)\b)?)"
BOUND = re.compile(rf"\b(?:up to|at most|at least|more than) ({VALUE})(?![\w^]|\.\d)")
RANGE = re.compile(rf"\b({VALUE}) (?:up )?to ({VALUE})(?![\w^]|\.\d)")


def check(ok, what):
    global failed
    print(("ok: " if ok else "FAIL: ") + what)
    failed += not ok


def value(text, arg):
    """A stated value as a number (bytes, ns, a count) by the option's
    argument (SIZE, DURATION, else a number); or the text."""
    text = text.strip()
    m = re.fullmatch(r"2\^(\d+)", text)
    if m:
        return 2 ** int(m.group(1))
    m = re.fullmatch(r"(\d+(?:\.\d+)?) ?([a-z]*)", text)
    if not m:
        return text.lower()
    n, unit = m.group(1), m.group(2)
    n = float(n) if "." in n else int(n)  # a 64-bit number stays exact
    s = 10 ** 9
    if arg.startswith("DURATION"):
        scale = {"": s, "s": s, "second": s, "seconds": s, "ms": 10 ** 6, "m": 60 * s,
                 "minutes": 60 * s, "h": 3600 * s, "days": 86400 * s}
    elif arg.startswith("SIZE"):
        scale = {"": 1, "k": 2 ** 10, "m": 2 ** 20, "g": 2 ** 30, "t": 2 ** 40}
    else:
        scale = {"": 1}
    return round(n * scale[unit]) if unit in scale else text.lower()


def help_entries(text):
    """--NAME -> (its ARG, its text as one line), from the usage."""
    entries, name = {}, None
    for line in text.splitlines():
        m = re.match(r" {2,6}(?:-\w, )?--([\w-]+)(\[=\S+\]|[ =]\S+)?(?:\s+(.*))?$", line)
        if m:
            name = m.group(1)
            entries[name] = [(m.group(2) or "").strip(" []="), m.group(3) or ""]
        elif name and line.startswith("      ") and line.strip():
            entries[name][1] += " " + line.strip()
        else:
            name = None
    return {n: (a, re.sub(r"\s+", " ", t)) for n, (a, t) in entries.items()}


def man_entries(text):
    """--NAME -> its OPTIONS entry as plain text (the .TP line names it)."""
    section = text.split("\n.SH OPTIONS", 1)[1].split("\n.SH ", 1)[0]
    entries = {}
    for entry in section.split("\n.TP\n")[1:]:
        head, _, body = entry.partition("\n")
        m = re.search(r"\\-\\-([\w\\-]+)", head)
        if not m:
            continue
        plain = re.sub(r"\\f[BIRP]|\\&|\\\(em", "", body.replace("\\-", "-"))
        plain = re.sub(r"^\.\w+ ?", "", plain, flags=re.M)
        plain = re.sub(r'"', "", plain)
        entries[m.group(1).replace("\\-", "-")] = re.sub(r"\s+", " ", plain)
    return entries


# the command lines that have an option's value refused, beyond --NAME=x
# and --NAME= (a run id is judged with --durability, before the target;
# an --interval's count against the runtime before the target too)
NO_TARGET = "/nonexistent/dir/file"
PROVOKE = {
    "run-id": [["--durability", "127.0.0.1:9", "--mode", "fsync", "--run-id=.", NO_TARGET]],
    "bs": [["--bs", ",".join(str(512 * (i + 1)) for i in range(1000))]],
    "interval": [["--interval", "10ms", "--runtime", "1001s", NO_TARGET]],
}
# values the page states that the command names nowhere, and why
ELSEWHERE = {
    ("target", "0.25 to 5 s"): "point='s default, a thirtieth of time= clamped by the library's "
                               "search (target_search.c)",
    ("wal-bytes", "8"): "the record's alignment, not a bound of the value",
    ("durability", "65536"): "the check's writes per block, named when a check meets more",
    ("verify-durability", "65536"): "the check's writes per block, named when it meets more",
}


def diskio_run(*args):
    p = subprocess.run([diskio, *args], capture_output=True, text=True, check=False)
    return p.returncode, (p.stderr.splitlines() or [""])[0]


def refusals(name):
    """The refusals of bad values of --NAME, their first lines."""
    found = []
    for args in [[f"--{name}=x"], [f"--{name}="]] + PROVOKE.get(name, []):
        status, err = diskio_run(*args)
        if status == 2 and err.startswith(f"diskio: --{name}"):
            found.append(err)
    return found


def range_taken(name, lo, hi):
    """Whether a whole-number option takes lo and hi, and refuses one past each."""
    ok = True
    for v, want in ((lo, True), (hi, True), (lo - 1, False), (hi + 1, False)):
        if v < 0:
            continue
        status, err = diskio_run(f"--{name}", str(v))
        refused = status == 2 and err.startswith(f"diskio: --{name}")
        ok &= refused != want
    return ok


with open(usage_path, encoding="utf-8") as f:
    usage = help_entries(f.read())
with open(man_path, encoding="utf-8") as f:
    man = man_entries(f.read())
check(len(man) >= 40 and len(usage) >= 40, f"{len(man)} man entries, {len(usage)} --help ones")

for name, text in sorted(man.items()):
    if name not in usage:
        continue
    arg, said = usage[name]
    # the default the page states, against --help's
    m = re.search(rf"\bDefault: ({VALUE}|\w+)", text)
    h = re.search(r"\(default: ([^;),]+?)(?: when| with| or|[;),]|$)", said)
    if m and h and m.group(1) not in ("not", "none"):
        man_v, help_v = value(m.group(1), arg), value(h.group(1), arg)
        check(man_v == help_v, f"--{name}: diskio(1)'s default {m.group(1)!r}, --help's "
              f"{h.group(1)!r}")
    # each range the page states, against those --help and the refusal name
    named = " ".join([said] + refusals(name))
    known = {(value(lo, arg), value(hi, arg)) for lo, hi in RANGE.findall(named)}
    ends = {v for pair in known for v in pair} | {value(v, arg) for v in BOUND.findall(named)}
    for bound in BOUND.findall(text):
        if (name, bound) in ELSEWHERE:
            print(f"skip: --{name}: {bound}: {ELSEWHERE[(name, bound)]}")
            continue
        check(value(bound, arg) in ends, f"--{name}: diskio(1)'s bound {bound}, diskio's "
              f"{sorted(map(str, ends))}")
    for lo, hi in RANGE.findall(text):
        pair = (value(lo, arg), value(hi, arg))
        if pair in known:
            check(True, f"--{name}: diskio(1)'s range {lo} to {hi}, diskio names it")
        elif (name, f"{lo} to {hi}") in ELSEWHERE:
            print(f"skip: --{name}: {lo} to {hi}: {ELSEWHERE[(name, f'{lo} to {hi}')]}")
        elif arg == "N" and all(isinstance(v, int) for v in pair):
            check(range_taken(name, *pair), f"--{name}: diskio(1)'s range {lo} to {hi}, its ends "
                  "taken and one past each refused")
        else:
            check(False, f"--{name}: diskio(1)'s range {lo} to {hi}, diskio's {sorted(known)}")


def same(name, what, man_re, help_re, arg="N"):
    """The value man_re finds in --NAME's entry is the one help_re finds
    in its --help text."""
    m, h = re.search(man_re, man.get(name, "")), re.search(help_re, usage.get(name, ("", ""))[1])
    # the first group that matched ("" for none: no ramp is a ramp of 0)
    said = h and next((g for g in h.groups() if g is not None), None)
    said = "0" if said == "" else said
    check(m is not None and said is not None and value(m.group(1), arg) == value(said, arg),
          f"--{name}: {what}: diskio(1)'s {m and m.group(1)!r}, --help's {said!r}")


# the defaults within --steady's and --target's prose and SPEC
same("steady", "metric", r"metric=(\w+) \([^)]*, the default\)", r"\(default: (\w+), SNIA's")
same("steady", "window", r"window= ?N \(intervals, [^;]*; default (\d+)\)",
     r"SNIA's (\d+) intervals")
same("steady", "range", r"range= ?PCT \(default (\S+)\)", r"intervals, range (\S+)%")
same("steady", "slope", r"slope= ?PCT \(default (\S+)\)", r"%, slope (\S+)%")
same("steady", "ramp", r"ramp= ?DURATION \([^)]*default (\S+)\)", r"%, (?:no ramp()|ramp (\S+))\)",
     "DURATION")
same("steady", "interval", r"--interval \((\d+ seconds?) unless given\)",
     r"intervals \(default (\S+)\)", "DURATION")
same("steady", "runtime", r"\((\d+ minutes?) with --steady unless given\)",
     r"\(default (\S+) with --steady\)", "DURATION")
same("target", "time=", r"whole search \(default (\S+)\)", r"whole search \(default (\S+)\)",
     "DURATION")
sys.exit(1 if failed else 0)
EOF
t_done
