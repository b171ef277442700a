#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: the Markdown of diskio-correlate and diskio-compare renders as meant in CommonMark.

The markdown of diskio-correlate and diskio-compare through a real
CommonMark renderer (markdown-it-py, with GFM tables; Debian:
python3-markdown-it): every verdict line is its own list item, every
note its own paragraph (none run into the next line), the tables render
as tables and the headings as headings.  Skips (77) without the
renderer."""

import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, EXIT_SKIP, FIXTURES, TOP_BUILDDIR,  # noqa
                       check, finish, run)

COMPARE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-compare")
RENDER = ("import sys\nfrom markdown_it import MarkdownIt\n"
          "sys.stdout.write(MarkdownIt('commonmark').enable('table')"
          ".render(sys.stdin.read()))\n")


def renderer():
    """A Python that has markdown_it: this one, or the system's."""
    for python in (sys.executable, "/usr/bin/python3"):
        if shutil.which(python) and subprocess.run(
                [python, "-c", "import markdown_it"],
                capture_output=True).returncode == 0:
            return python
    return None


class Elements(html.parser.HTMLParser):
    """The text of every li, p and heading, and the tables' cells."""

    BLOCKS = ("li", "p", "h1", "h2", "h3", "th", "td")

    def __init__(self):
        super().__init__()
        self.found = {tag: [] for tag in self.BLOCKS + ("table",)}
        self.open = []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.found["table"].append("")
        if tag in self.BLOCKS:
            self.open.append([tag, ""])

    def handle_endtag(self, tag):
        if self.open and self.open[-1][0] == tag:
            tag, text = self.open.pop()
            self.found[tag].append(" ".join(text.split()))
            if self.open:
                self.open[-1][1] += text

    def handle_data(self, data):
        if self.open:
            self.open[-1][1] += data


def render(python, markdown):
    proc = subprocess.run([python, "-c", RENDER], input=markdown,
                          capture_output=True, text=True, timeout=60)
    parser = Elements()
    parser.feed(proc.stdout)
    return parser.found


python = renderer()
if python is None:
    print("SKIP: no CommonMark renderer (apt-get install python3-markdown-it)")
    sys.exit(EXIT_SKIP)

A, B, C = (os.path.join(FIXTURES, d) for d in ("env-a", "env-b", "env-c"))
status, out, err = run(CORRELATE, "--format", "json", A, B)
report = json.loads(out)
verdicts = [report["comparisons"][0]["phase_analysis"][p]["verdict"]
            for p in report["shown"]["phases"]]

status, md, err = run(CORRELATE, "--format", "markdown", A, B)
check(status == 0, "correlate markdown: exit 0", err)
found = render(python, md)
check(len(found["table"]) == 3 and "predicted" in found["th"]
      and "diskio/PG" in found["th"] and "95% interval" in found["th"],
      "the predictions, the calibration and the disk ratios render as "
      "tables", found["th"])
# the verdicts against the disks: under --details
status, md, err = run(CORRELATE, "--format", "markdown", "--details", A, B)
found = render(python, md)
for verdict in verdicts:
    items = [li for li in found["li"] if li.startswith(verdict)]
    check(len(items) == 1, f"its own list item: {verdict[:50]}...",
          found["li"])
check(all(sum(v.split(":")[0] + ":" in text for v in verdicts) <= 1
          for text in found["li"] + found["p"]),
      "no list item or paragraph holds two verdicts", found)
check(found["h1"] == ["diskio-correlate: B vs A (baseline)"]
      and "B vs A (baseline): the WAL model's prediction of each phase"
      in found["h2"], "headings render as headings",
      found["h1"] + found["h2"])
check(any(p.startswith("Noise: ") or "Noise: " in p for p in found["p"])
      and any(p.startswith("disks: slower: ") for p in found["p"]),
      "the disk line and the footer are paragraphs of their own", found["p"])

status, md, err = run(CORRELATE, "--format", "markdown", "--details", A, B, C)
found = render(python, md)
check(status == 0 and len(found["table"]) >= 4
      and "95% interval" in found["th"] and "fsync.mean_us" in found["td"],
      "--details: the comparison, fit and WAL tables render as tables",
      (len(found["table"]), found["th"][:12]))
check(any(li.startswith("consistent with, if this share of the phase")
          for li in found["li"]), "the phase lists are list items")
check(not any("| --- |" in p for p in found["p"]),
      "no table left as paragraph text")

work = tempfile.mkdtemp(prefix="diskio-md-test.")
try:
    results = []
    for name, fixture in (("a", A), ("b", B)):
        os.mkdir(os.path.join(work, name))
        shutil.copy(os.path.join(fixture, "result.json"),
                    os.path.join(work, name))
        results.append(os.path.join(work, name, "result.json"))
    status, md, err = run(COMPARE, "--format", "markdown", *results)
    found = render(python, md)
    status_json, out, _ = run(COMPARE, "--format", "json", *results)
    summary = json.loads(out)["summary"]
    check(status == 0 and all(line in found["li"] for line in summary),
          "compare: each summary line its own list item", found["li"])
    check(len([p for p in found["p"] if "interval" in p or "noise" in p])
          >= 1 and all(p.count("change") <= 1 for p in found["p"]),
          "compare: each note its own paragraph", found["p"])
    check(len(found["table"]) == 1 and "verdict" in found["th"],
          "compare: the table renders as a table", found["th"])
    status, md, err = run(CORRELATE, "--format", "markdown",
                          os.path.join(work, "a"), os.path.join(work, "b"))
    found = render(python, md)
    check(status == 0 and found["p"][0].startswith("No phase timings")
          and found["h1"] == ["diskio-compare"],
          "correlate without phases: the note, then compare's document",
          found["p"][:1])
finally:
    shutil.rmtree(work, ignore_errors=True)
finish()
