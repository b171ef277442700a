#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: diskio-compare refuses a key given twice, a fractional count, a copy, too many repetitions.

Real diskio results (--repeat 3, two labels) compared by
scripts/diskio-compare, then each broken one way a hand or a script
could: a key given twice in an object (JSON readers keep one value and
drop the other unseen), a count of 2.5 or -1 (latency.total.count,
ops), a repetition copied into its run, the whole result copied under
another name (one run copied 5,000 times would be 5,000 repetitions of
no spread), more repetitions than diskio --repeat makes, a file larger
than any JSON input is read.  Each is bad input: status 1 (as
diskio-compare(1) says), nothing on standard output, and a message that
names the file, the JSON path and what to do; no traceback.
"""

import copy
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import TOP_BUILDDIR, check, finish  # noqa: E402

from diskio_analysis.jsonfile import MAX_JSON_BYTES  # noqa: E402
from diskio_analysis.result import MAX_REPETITIONS  # noqa: E402

COMPARE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-compare")
DISKIO = os.environ.get("DISKIO") or os.path.join(TOP_BUILDDIR, "diskio")


def compare(*paths):
    proc = subprocess.run([sys.executable, COMPARE, *paths], capture_output=True,
                          text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def refused(what, paths, said, path_named):
    """diskio-compare on paths is bad input naming path_named and said."""
    status, out, err = compare(*paths)
    check(status == 1, f"{what}: status 1 (bad input), got {status}", err)
    check(out == "", f"{what}: nothing on standard output", out[:500])
    check(f"{path_named}: " in err and said in err,
          f"{what}: the message names {os.path.basename(path_named)} and says {said!r}", err)
    check("Traceback" not in err, f"{what}: no traceback", err)


def write(path, doc=None, text=None):
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=1) if text is None else text)
    return path


def main():
    with tempfile.TemporaryDirectory(prefix="diskio-false.") as work:
        target = os.path.join(work, "target")
        os.mkdir(target)
        made = {}
        for label in ("a", "b"):
            made[label] = os.path.join(work, f"{label}.json")
            subprocess.run([DISKIO, "--quiet", "--mode", "fdatasync", "--count", "20",
                            "--size", "256k", "--bs", "4k", "--repeat", "3", "--label",
                            label, "--output", made[label], target], check=True, timeout=120)
        a, b = made["a"], made["b"]
        status, out, err = compare(a, b)
        check(status == 0 and "b vs a" in out, "the results as diskio wrote them compare",
              err)
        with open(a, encoding="utf-8") as f:
            text = f.read()
        doc = json.loads(text)
        bad = os.path.join(work, "bad.json")

        # a key given twice: the first repetition's count
        at = text.index('"count": ', text.index('"repetitions"'))
        write(bad, text=text[:at] + '"count": 1, ' + text[at:])
        refused("a key given twice", [bad, b],
                "runs[0].repetitions[0].latency.total.count: given twice in one object", bad)

        # counts that are no whole number from 0 up
        for value in (2.5, -1):
            broken = copy.deepcopy(doc)
            broken["runs"][0]["latency"]["total"]["count"] = value
            refused(f"latency.total.count {value}", [write(bad, broken), b],
                    f"runs[0].latency.total.count: {value}, expected a count "
                    "(a whole number, 0 or more)", bad)
        broken = copy.deepcopy(doc)
        broken["runs"][0]["repetitions"][1]["ops"] = 6.5
        refused("a repetition's ops 6.5", [write(bad, broken), b],
                "runs[0].repetitions[1].ops: 6.5, expected a count", bad)

        # a repetition copied into its run, a result copied whole
        broken = copy.deepcopy(doc)
        broken["runs"][0]["repetitions"].append(broken["runs"][0]["repetitions"][0])
        refused("a repetition copied", [write(bad, broken), b],
                "runs[0].repetitions[3]: the same measurement as runs[0].repetitions[0] "
                "(began ", bad)
        copied = write(os.path.join(work, "a-copy.json"), text=text)
        refused("a result copied", [a, copied, b],
                f"runs[0].repetitions[0]: the same measurement as runs[0].repetitions[0] "
                f"of {a}", copied)
        refused("a result named twice", [a, a, b], "of this file, named twice", a)

        # more repetitions than diskio --repeat makes
        broken = copy.deepcopy(doc)
        reps = broken["runs"][0]["repetitions"]
        reps[:] = [dict(reps[i % 3], start_offset_ns=i) for i in range(MAX_REPETITIONS + 1)]
        refused("too many repetitions", [write(bad, broken), b],
                f"runs[0].repetitions: {MAX_REPETITIONS + 1} items, more than the "
                f"{MAX_REPETITIONS} repetitions diskio --repeat makes", bad)

        # a file larger than any JSON input (sparse: no disk used)
        with open(bad, "wb") as f:
            f.truncate(MAX_JSON_BYTES + 1)
        refused("a file too large", [bad, b],
                f"more than the {MAX_JSON_BYTES >> 20} MiB any JSON input", bad)
    finish()


if __name__ == "__main__":
    main()
