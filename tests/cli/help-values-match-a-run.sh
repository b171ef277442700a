#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every value diskio --help names beside the options' defaults is what diskio does.
#
# help-defaults-match-a-run.sh holds the "(default: X)" of the workload's
# options against a run; this holds the usage's other values against
# what diskio does with them: --runtime's default (a run without --count
# or --runtime), --steady's runtime, interval and SPEC defaults (a steady
# run's JSON) and its metrics (each taken), --target's time= default (the
# refusal of a point longer than a quarter of it), the --percentiles the
# table shows by default (its columns), the blocks --size holds at least,
# --precondition's passes and writes (a preconditioned run's JSON),
# the ranges of --bs, --iodepth, --jobs and --suite-runs, the most
# --percentiles, the shortest --interval (each bound taken, one past it
# refused), and the exit statuses of bad usage and of an unusable target.
# A value that is not printed where it was fails too: the usage's text
# changed without this test.
. "${top_srcdir:-.}/tests/lib/cli.sh"

dir="$t_scratch/dir"
mkdir "$dir"
t_expect_status 0 "diskio --help" -- "$DISKIO" --help || t_done
cp "$t_scratch/stdout" "$t_scratch/usage"

"${PYTHON3:-python3}" - "$t_scratch" "$DISKIO" "$dir" <<'EOF' || t_fail "a value --help prints is not what diskio does"
import json
import re
import subprocess
import sys

scratch, diskio, target = sys.argv[1:4]
with open(f"{scratch}/usage", encoding="utf-8") as f:
    usage = f.read()
# the usage as one line: an option's text wraps at any space
flat = re.sub(r"\s+", " ", usage)
failed = 0


def check(ok, what):
    global failed
    print(("ok: " if ok else "FAIL: ") + what)
    failed += not ok


def found(pattern, what):
    """The groups of pattern in the usage, or None (a failure)."""
    m = re.search(pattern, flat)
    check(m is not None, f"--help prints {what} (/{pattern}/)")
    return m.groups() if m else None


def size(text):
    m = re.fullmatch(r"(\d+)([kmgt]?)", text)
    return int(m.group(1)) * 1024 ** " kmgt".index(m.group(2) or " ")


def ns(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m)?", text)
    unit = {"ms": 1e6, "s": 1e9, "m": 60e9, None: 1e9}[m.group(2)]
    return round(float(m.group(1)) * unit)


def diskio_run(*args):
    p = subprocess.run([diskio, *args], capture_output=True, text=True, check=False)
    return p.returncode, p.stdout, p.stderr


def json_run(name, *args):
    out = f"{scratch}/{name}.json"
    status, _, err = diskio_run("--quiet", "--mode", "fsync", "--output", out, *args, target)
    check(status == 0, f"the {name} run (exit {status}) {err.strip()}")
    if status != 0:
        return None
    with open(out, encoding="utf-8") as f:
        return json.load(f)["runs"][0]


# --runtime: a run without --count or --runtime
g = found(r"--runtime DURATION .*?\(default: (\S+) when --count is not given", "--runtime's default")
run = json_run("runtime", "--warmup", "0")
if g and run:
    check(round(run["parameters"]["runtime_s"] * 1e9) == ns(g[0]),
          f"--runtime: --help's {g[0]}, a run's {run['parameters']['runtime_s']} s")

# --steady: its interval, runtime and SPEC when none is given
g = found(r"--steady\[=SPEC\] .*?intervals \(default (\S+)\) .*?--runtime \(default (\S+) "
          r"with --steady\).*?\(default: (\w+), SNIA's (\d+) intervals, range (\d+(?:\.\d+)?)%, "
          r"slope (\d+(?:\.\d+)?)%, (no ramp|ramp \S+)\)", "--steady's defaults")
run = json_run("steady", "--count", "10", "--steady")
if g and run:
    st = run["steady"]
    check(st["interval_ns"] == ns(g[0]), f"--steady: interval {g[0]}, the run's {st['interval_ns']} ns")
    check(round(run["parameters"]["runtime_s"] * 1e9) == ns(g[1]),
          f"--steady: runtime {g[1]}, the run's {run['parameters']['runtime_s']} s")
    ramp = 0 if g[6] == "no ramp" else ns(g[6].split()[1])
    spec = (g[2], int(g[3]), float(g[4]), float(g[5]), ramp)
    ran = (st["metric"], st["window"], st["range_limit_pct"], st["slope_limit_pct"], st["ramp_ns"])
    check(spec == ran, f"--steady: SPEC {spec}, the run's {ran}")

# --steady: the metrics SPEC names, each taken
g = found(r"SPEC: metric=([\w|]+),window=N", "--steady's metrics")
for metric in g[0].split("|") if g else ():
    status, _, err = diskio_run(f"--steady=metric={metric}")
    check(status == 2 and "metric" not in err, f"--steady=metric={metric}: taken ({err.strip()})")

# --target: time=T's default, as the refusal of a point over a quarter of it names it
g = found(r"time=T bounds the whole search \(default (\S+)\)", "--target's time= default")
if g:
    point_s = ns(g[0]) / 4e9 + 1
    status, _, err = diskio_run("--target", f"p99=2ms,point={point_s:g}s", target)
    m = re.search(r"in time=(\S+) s", err)
    check(status == 2 and m is not None and round(float(m.group(1)) * 1e9) == ns(g[0]),
          f"--target: --help's time {g[0]}; a point of {point_s:g} s is refused as: {err.strip()}")

# --percentiles: the table's columns without it
g = found(r"--percentiles P\[,P\.\.\.\] .*?\(default: ([\d.,]+);", "--percentiles' default")
status, out, err = diskio_run("--mode", "fsync", "--count", "5", target)
if g:
    header = next((line for line in out.splitlines() if line.startswith("mode ")), "")
    columns = [c[1:] for c in header.split() if re.fullmatch(r"p[\d.]+", c)]
    check(status == 0 and columns == g[0].split(","),
          f"--percentiles: --help's {g[0]}, the table's columns {columns}")

# --size: at least so many blocks of the largest --bs
g = found(r"--size SIZE .*?\(default: (\S+), or (\d+) blocks\)", "--size's blocks")
if g:
    bs = 16 << 20
    run = json_run("size", "--pattern", "create", "--bs", "16m", "--warmup", "0", "--count", "1")
    want = max(size(g[0]), int(g[1]) * bs)
    check(run is not None and run["parameters"]["file_size"] == want,
          f"--size: {g[0]} or {g[1]} blocks of --bs 16m, {want}; the run's "
          f"{run and run['parameters']['file_size']}")


def bounds(option, taken, refused):
    """The values taken (diskio goes on to want a target), and those
    refused naming the value."""
    for value, taken in [(v, True) for v in taken] + [(v, False) for v in refused]:
        status, _, err = diskio_run(f"--{option}", value)
        refused = status == 2 and f"--{option}" in err and f"'{value}'" in err
        check(refused != taken, f"--{option} {value}: {'taken' if taken else 'refused'} "
              f"(exit {status}: {err.strip().splitlines()[0]})")


# --precondition: its passes and writes, as a preconditioned run reports them
g = found(r"--precondition .*? sequentially (once|twice|\d+ times) in (\d+) (bytes|KiB|MiB|GiB) "
          r"writes", "--precondition's passes and writes")
if g:
    out = f"{scratch}/precondition.json"
    status, _, err = diskio_run("--quiet", "--precondition", "--mode", "fsync", "--count", "5",
                                "--size", "4m", "--output", out, target)
    check(status == 0, f"the preconditioned run (exit {status}) {err.strip()}")
    if status == 0:
        with open(out, encoding="utf-8") as f:
            pre = json.load(f)["precondition"]
        passes = {"once": 1, "twice": 2}.get(g[0]) or int(g[0].split()[0])
        bs = int(g[1]) * 1024 ** ["bytes", "KiB", "MiB", "GiB"].index(g[2])
        check((passes, bs) == (pre["passes"], pre["block_size"]),
              f"--precondition: --help's {passes} passes of {bs}-byte writes, the run's "
              f"{pre['passes']} of {pre['block_size']}")

# the ranges --help gives
for option, kind in (("bs", "size"), ("iodepth", "n"), ("jobs", "n"), ("suite-runs", "n")):
    g = found(r"--" + option + r" \S+ .*? (\d+[kmgt]?) to (\d+[kmgt]?)\b", f"--{option}'s range")
    if g:
        read = size if kind == "size" else int
        lo, hi = read(g[0]), read(g[1])
        bounds(option, (str(lo), str(hi)), (str(lo - 1), str(hi + 1)))

# the most --percentiles
g = found(r"the latency percentiles the table shows, up to (\d+),", "the most --percentiles")
if g:
    n = int(g[0])
    most = ",".join(str(p) for p in range(1, n + 1))
    bounds("percentiles", (most,), (most + f",{n + 1}",))

# the shortest --interval, the library's
g = found(r"--interval DURATION .*?DURATION \((\S+) up to --runtime;", "the shortest --interval")
if g:
    shortest = ns(g[0])
    for value, want in ((shortest, 0), (shortest - 1000000, 2)):
        status, _, err = diskio_run("--quiet", "--mode", "fsync", "--count", "5", "--runtime", "1s",
                                    "--interval", f"{value / 1e6:g}ms", target)
        check(status == want, f"--interval {value / 1e6:g}ms: exit {status}, {want} expected "
              f"{err.strip()}")

# the exit statuses
g = found(r"Exit status: .*?; (\d+) bad usage \(nothing created\); (\d+) the target or an output "
          r"file cannot be used;", "the exit statuses")
if g:
    status, _, _ = diskio_run("--no-such-option", target)
    check(status == int(g[0]), f"bad usage: exit {status}, --help says {g[0]}")
    status, _, _ = diskio_run("--mode", "fsync", "--count", "1", f"{target}/missing/file")
    check(status == int(g[1]), f"a target in a missing directory: exit {status}, --help says {g[1]}")
sys.exit(1 if failed else 0)
EOF
t_done
