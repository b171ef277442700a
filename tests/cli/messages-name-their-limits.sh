#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every range a refusal names is diskio's: its ends taken, one past refused.
#
# A value's refusal names what the option takes ("--bs: ... (accepted:
# 512 to 64m)", "--steady: ... window=N (2 to 1000 intervals)"...).  For
# each such message this provokes it, reads the numbers it names, and
# holds them to what diskio does: the value at each end is taken (diskio
# goes on to ask for a target), the value one step past it is refused
# with the same message.  A message whose number is not the limit the
# code checks fails, and so does a message that no longer names one (its
# text changed without this test).  The suite file's limits too (a row's
# label and column).
. "${top_srcdir:-.}/tests/lib/cli.sh"

"${PYTHON3:-python3}" - "$t_scratch" "$DISKIO" <<'EOF' || t_fail "a message names a wrong limit"
import re
import subprocess
import sys

scratch, diskio = sys.argv[1:3]
failed = 0
UNITS = " kmgt"


def check(ok, what):
    global failed
    print(("ok: " if ok else "FAIL: ") + what)
    failed += not ok


def size(text):
    m = re.fullmatch(r"(\d+)([kmgt]?)", text)
    return int(m.group(1)) * 1024 ** UNITS.index(m.group(2) or " ")


def ns(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h)?", text)
    unit = {"ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9, None: 1e9}[m.group(2)]
    return round(float(m.group(1)) * unit)


def diskio_run(*args):
    p = subprocess.run([diskio, *args], capture_output=True, text=True, check=False)
    return p.returncode, p.stderr.strip().splitlines()[0] if p.stderr.strip() else ""


def refusal(args, prefix, pattern):
    """The groups of pattern in the refusal of args (exit 2, prefix)."""
    status, err = diskio_run(*args)
    m = re.search(pattern, err) if status == 2 and err.startswith(prefix) else None
    check(m is not None, f"{' '.join(args)}: refused as /{pattern}/ (exit {status}: {err})")
    return m.groups() if m else None


def taken(args, prefix, want):
    """Whether args are taken (diskio goes on to want a target) as want says."""
    status, err = diskio_run(*args)
    refused = status == 2 and err.startswith(prefix)
    ok = status == 2 and "no target" in err if want else refused
    check(ok, f"{' '.join(args)}: {'taken' if want else 'refused'} (exit {status}: {err})")


def ends(option, provoke, pattern, read, lo_past, hi_past, spell=str):
    """The range option's refusal of provoke names: its ends taken, one
    step past each refused (lo_past/hi_past: the value past an end, or
    None for an end with nothing past it)."""
    prefix = f"diskio: --{option}"
    g = refusal([f"--{option}", provoke], prefix, pattern)
    if not g:
        return
    for i, text in enumerate(g):
        value = read(text)
        taken([f"--{option}", spell(value)], prefix, True)
        past = (lo_past if len(g) > 1 and i == 0 else hi_past)
        if past:
            taken([f"--{option}", spell(past(value))], prefix, False)


up = lambda v: v + 1
down = lambda v: v - 1
ms = lambda v: f"{v / 1e6:.0f}ms"
up_ms = lambda v: v + 1000000

ends("bs", "1t", r"accepted: (\S+) to (\S+)\)", size, down, up)
ends("bs", "x", r"accepted: (\S+) to (\S+), ", size, down, up)
ends("size", "2000t", r"is not a size up to (\S+) ", size, None, up)
ends("wal-bytes", "2g", r"is not a size from (\S+) to (\S+) ", size, down, up)
ends("wal-segment-size", "2g", r"is not a size up to (\S+) ", size, None, up)
ends("wal-gap", "1h", r"is not a duration from (\S+) to (\S+) ", ns, None, up_ms, ms)
ends("repeat-pause", "2h", r"is not a duration from (\S+) to (\S+) ", ns, None, up_ms, ms)
ends("runtime", "x", r"duration up to (\d+) days ", lambda d: int(d) * 86400 * 10**9, None,
     up_ms, ms)
ends("checkpoint-pages", "x", r"pages \((\d+) or more\)", int, down, None)
ends("checkpoint-flush-after", "x", r"from (\d+) \(no writeback hints\) to (\d+)$", int, None, up)
ends("warmup", "x", r"ops \((\d+) or more\)", int, None, None)
ends("batch", "x", r"from (\d+) to --iodepth", int, down, None)
ends("write-back", "x", r"percentage from (\d+) to (\d+) ", int, None, up)
ends("suite-max-bs", "x", r"size of at least (\S+) ", size, down, None)
ends("jobs", "x", r"whole number from (\d+) to (\d+) ", int, down, up)
ends("rate", "x", r"rate from (\S+) to (\S+) ops/s", float, lambda v: v * 0.999, up,
     lambda v: f"{v:g}" if v < 1 else f"{v:.0f}")
# the options refused with the table's own range
for option in ("iodepth", "count", "repeat", "suite-runs", "checkpoint-files", "sync-every"):
    ends(option, "x", r"whole number from (\d+) to (\d+)$", int, down, up)

# --percentiles: how many, and the most
g = refusal(["--percentiles", "101"], "diskio: --percentiles",
            r"up to (\d+) numbers above 0 and at most (\d+) ")
if g:
    n, most = int(g[0]), int(g[1])
    listed = ",".join(str(p) for p in range(1, n))
    taken(["--percentiles", f"{listed},{most}"], "diskio: --percentiles", True)
    taken(["--percentiles", f"{listed},{n},{most}"], "diskio: --percentiles", False)
    taken(["--percentiles", f"{most}.001"], "diskio: --percentiles", False)

# --label: its characters
g = refusal(["--label="], "diskio: --label", r"must be (\d+) to (\d+) characters")
if g:
    taken(["--label", "x" * int(g[1])], "diskio: --label", True)
    taken(["--label", "x" * (int(g[1]) + 1)], "diskio: --label", False)

# --steady's window=N
g = refusal(["--steady=window=0"], "diskio: --steady", r"window=N \((\d+) to (\d+) intervals\)")
if g:
    for n, want in ((int(g[0]), True), (int(g[1]), True), (int(g[0]) - 1, False),
                    (int(g[1]) + 1, False)):
        taken([f"--steady=window={n}"], "diskio: --steady", want)

# --target: the least time= and point=, and time='s default
g = refusal(["--target", "p99=2ms,time=1ms"], "diskio: --target",
            r"duration of at least (\S+) .*the whole search, default (\S+)\)")
if g:
    least = ns(g[0])
    for key in ("time", "point"):
        taken(["--target", f"p99=2ms,time=1h,{key}={least / 1e6:g}ms"], "diskio: --target", True)
        taken(["--target", f"p99=2ms,time=1h,{key}={least / 1e6 - 1:g}ms"], "diskio: --target",
              False)
    point_s = ns(g[1]) / 4e9
    taken(["--target", f"p99=2ms,point={point_s:g}s"], "diskio: --target", True)
    taken(["--target", f"p99=2ms,point={point_s + 0.001:g}s"], "diskio: --target", False)


# the library's rules the command names: a queued run's buffers, O_DIRECT's alignment
def rule(args, prefix):
    """args with a target in a missing directory: taken (exit 3: the
    target) or refused (exit 2, prefix)."""
    status, err = diskio_run(*args, f"{scratch}/missing/file")
    return status == 3, status == 2 and err.startswith(prefix), err


_, _, err = rule(["--mode", "aio", "--iodepth", "1024", "--bs", "64m"], "diskio: --iodepth")
m = re.search(r"exceed (\d+) MiB of buffers", err)
check(m is not None, f"--iodepth 1024 --bs 64m: refused naming the buffers' limit ({err})")
if m:
    mib = int(m.group(1))
    queued = ["--mode", "aio", "--bs", "1m", "--size", f"{2 * mib}m", "--iodepth"]
    ok, _, err = rule(queued + [str(mib)], "diskio: --iodepth")
    check(ok, f"--iodepth {mib} --bs 1m ({mib} MiB): taken ({err})")
    _, no, err = rule(queued + [str(mib + 1)], "diskio: --iodepth")
    check(no, f"--iodepth {mib + 1} --bs 1m: refused ({err})")
_, _, err = rule(["--mode", "direct-dsync", "--bs", "1000"], "diskio: --bs")
m = re.search(r"is not a multiple of (\d+), which O_DIRECT", err)
check(m is not None, f"--bs 1000 with O_DIRECT: refused naming the alignment ({err})")
if m:
    align = int(m.group(1))
    ok, _, err = rule(["--mode", "direct-dsync", "--bs", str(2 * align)], "diskio: --bs")
    check(ok, f"--bs {2 * align} with O_DIRECT: taken ({err})")
    _, no, err = rule(["--mode", "direct-dsync", "--bs", str(2 * align + align // 2)],
                      "diskio: --bs")
    check(no, f"--bs {2 * align + align // 2} with O_DIRECT: refused ({err})")


# a suite row's label and column
def suite_row(label, column):
    path = f"{scratch}/row.suite"
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'suite limits\nrow "{label}" {column} --mode fsync\n')
    status, err = diskio_run("--suite", path, "--count", "1", f"{scratch}/missing/file")
    return status, err


status, err = suite_row("x" * 200, "read")
m = re.search(r"a row's label is 1 to (\d+) characters, its column 1 to (\d+)$", err)
check(status == 2 and m is not None, f"a long row label: refused naming the limits ({err})")
if m:
    label, column = int(m.group(1)), int(m.group(2))
    for lab, col, want in (("x" * label, "c" * column, 3), ("x" * (label + 1), "c", 2),
                           ("x", "c" * (column + 1), 2)):
        status, err = suite_row(lab, col)
        check(status == want, f"a row of a {len(lab)}-character label and {len(col)}-character "
              f"column: exit {status}, {want} expected ({err})")
# a suite's 'runs N'
def suite_runs(n):
    path = f"{scratch}/runs.suite"
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'suite limits\nruns {n}\nrow "a" read --mode fsync\n')
    return diskio_run("--suite", path, "--count", "1", f"{scratch}/missing/file")


status, err = suite_runs(0)
m = re.search(r"'runs N' takes a whole number from (\d+) to (\d+)$", err)
check(status == 2 and m is not None, f"'runs 0': refused naming the range ({err})")
if m:
    lo, hi = int(m.group(1)), int(m.group(2))
    for n, want in ((lo, 3), (hi, 3), (lo - 1, 2), (hi + 1, 2)):
        status, err = suite_runs(n)
        check(status == want, f"'runs {n}': exit {status}, {want} expected ({err})")
sys.exit(1 if failed else 0)
EOF
t_done
