#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every default diskio --help prints is what a run without that option does (its JSON result).
#
# The usage says "(default: X)" for the workload's options; a run that
# does not give the option must run with X.  Three short runs with none
# of them given (the seq pattern, the WAL pattern, the checkpoint
# pattern) are read back from their JSON results, and each default the
# usage prints is held against the figure the run reports: --bs, --size,
# --pattern, --warmup, --iodepth, --batch, --jobs, --wal-bytes,
# --wal-segment-size, --wal-gap, --checkpoint-files, --checkpoint-pages
# and --checkpoint-flush-after.  A default that is not printed at all
# fails too: the usage's text for it changed without this test.
. "${top_srcdir:-.}/tests/lib/cli.sh"

dir="$t_scratch/dir"
mkdir "$dir"
t_expect_status 0 "diskio --help" -- "$DISKIO" --help || t_done
cp "$t_scratch/stdout" "$t_scratch/usage"
# --count: a few writes; --mode fsync: a mode every pattern takes; the
# checkpoint's 16 files of 4m rather than 64m each (its pages fit still)
t_expect_status 0 "a seq run without workload options" -- \
    "$DISKIO" --quiet --mode fsync --count 10 --output "$t_scratch/seq.json" "$dir" || t_done
t_expect_status 0 "a WAL run without its options" -- \
    "$DISKIO" --quiet --mode fsync --count 10 --pattern wal --output "$t_scratch/wal.json" \
    "$dir" || t_done
t_expect_status 0 "a checkpoint run without its options" -- \
    "$DISKIO" --quiet --mode fsync --count 10 --pattern checkpoint --size 4m \
    --output "$t_scratch/checkpoint.json" "$dir" || t_done

"${PYTHON3:-python3}" - "$t_scratch" <<'EOF' || t_fail "a default --help prints is not what a run does"
import json
import re
import sys

scratch = sys.argv[1]

# the usage: an option's line, and its text's continuation lines (indented)
texts = {}
name = None
with open(f"{scratch}/usage", encoding="utf-8") as f:
    for line in f:
        m = re.match(r"  (?:-\w, |    )--([\w-]+)", line)
        if m:
            name = m.group(1)
            texts[name] = line[m.end():].strip()
        elif name and line.startswith(" " * 20):
            texts[name] += " " + line.strip()
        else:
            name = None


def size(text):
    m = re.fullmatch(r"(\d+)([kmgt]?)", text)
    return int(m.group(1)) * 1024 ** " kmgt".index(m.group(2) or " ") if m else None


def duration_ns(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)?", text)
    if not m:
        return None
    return round(float(m.group(1)) * (1e6 if m.group(2) == "ms" else 1e9))


def run(name):
    with open(f"{scratch}/{name}.json", encoding="utf-8") as f:
        return json.load(f)["runs"][0]


seq, wal, checkpoint = run("seq"), run("wal"), run("checkpoint")
# option: (how its value reads, what the run reports)
checks = {
    "bs": (size, seq["parameters"]["block_size"]),
    "size": (size, seq["parameters"]["file_size"]),
    "pattern": (str, seq["parameters"]["pattern"]),
    "warmup": (int, seq["parameters"]["warmup"]),
    "iodepth": (int, seq["parameters"]["iodepth"]),
    "batch": (int, seq["parameters"]["batch"]),
    "jobs": (int, seq["parameters"]["jobs"]),
    "wal-bytes": (size, wal["wal"]["bytes_per_commit"]),
    "wal-segment-size": (size, wal["wal"]["segment_size"]),
    "wal-gap": (duration_ns, wal["wal"]["gap_ns"]),
    "checkpoint-files": (int, checkpoint["checkpoint"]["files"]),
    "checkpoint-pages": (int, checkpoint["checkpoint"]["pages_per_checkpoint"]),
    "checkpoint-flush-after": (int, checkpoint["checkpoint"]["flush_after_pages"]),
}
failed = 0
for option, (read, ran) in checks.items():
    m = re.search(r"\(default: ([^;,) ]+)", texts.get(option, ""))
    if not m:
        print(f"FAIL: --{option}: no '(default: X)' in its usage text: "
              f"{texts.get(option)!r}")
        failed += 1
        continue
    try:
        printed = read(m.group(1))
    except ValueError:
        printed = None
    if printed != ran:
        print(f"FAIL: --{option}: --help prints the default {m.group(1)!r}, "
              f"a run without it ran with {ran!r}")
        failed += 1
    else:
        print(f"ok: --{option}: --help's default {m.group(1)} is the run's {ran!r}")
sys.exit(1 if failed else 0)
EOF
t_done
