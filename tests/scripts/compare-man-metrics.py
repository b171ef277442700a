#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: diskio-compare(1) names exactly the metrics the command knows.

diskio-compare(1) as groff renders it names the metrics the command
knows: its sentence on throughput metrics lists, in one balanced
parenthesis, exactly the metrics for which a higher value is faster,
and --metrics lists every metric.  Skips (77) without groff."""

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import EXIT_SKIP, TOP_BUILDDIR, check, finish  # noqa: E402

from diskio_analysis.compare.analysis import METRICS  # noqa: E402


def rendered(page):
    proc = subprocess.run(["groff", "-man", "-Tutf8", "-P-cbou", "-rLL=400n", page],
                          capture_output=True, text=True, check=True)
    # one line of text per paragraph, hyphenation undone
    text = re.sub(r"\u2010\n\s*", "", proc.stdout)
    return re.sub(r"\s+", " ", text.replace("\u2010", "-"))


def main():
    if not shutil.which("groff"):
        print("SKIP: groff not found")
        return EXIT_SKIP
    text = rendered(os.path.join(TOP_BUILDDIR, "man", "diskio-compare.1"))
    faster = sorted(name for name, spec in METRICS.items() if spec[2])
    match = re.search(r"For a throughput metric \(([^()]*)\)(.*?)a higher value is faster", text)
    check(match is not None, "the throughput sentence is there, its list in one parenthesis",
          text[text.find("For a throughput"):][:200])
    if match:
        listed = sorted(re.split(r", | and ", match.group(1)))
        check(listed == faster, "it lists exactly the throughput metrics",
              f"listed {listed}, the code's {faster}")
        check(match.group(2).strip() == "", "nothing stray between the list and its verb",
              repr(match.group(2)))
    options = text[text.find("--metrics LIST Comma"):][:1200]
    for name in METRICS:
        check(re.search(rf"(?<![\w.]){re.escape(name)}(?![\w.])", options) is not None,
              f"--metrics names {name}", options[:300])
    return finish()


if __name__ == "__main__":
    sys.exit(main())
