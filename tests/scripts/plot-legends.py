#!/usr/bin/env python3
"""Description: no chart of diskio-plot has two legend entries alike.

no chart of diskio-plot has two legend entries alike.
From recorded results (a crystal suite run, whose aio rows differ only by
queue depth and row; a --jobs 1,2,4 sweep; block-size sweeps at two
patterns; an --interval run; a sweep suite, short), the same result given twice
(repetitions of one label), a trace, a diskio-correlate report and a
diskio-compare comparison, every kind of chart is made (histograms,
linear and log, percentiles, block-size sweeps, intervals, I/O length,
traces, ratios, sync shares, comparisons) and in each the entries of its
key are distinct; the key sits inside the plot, in a corner the data
leave free, or below it; and the real diskio-plot draws them all."""

import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, FIXTURES, PLOT, TOP_BUILDDIR,  # noqa: E402
                       check, finish, run)

from diskio_analysis.plot.charts import run_charts  # noqa: E402
from diskio_analysis.plot.compare_charts import compare_charts  # noqa: E402
from diskio_analysis.plot.plotinputs import load_inputs  # noqa: E402
from diskio_analysis.plot.report_charts import report_charts  # noqa: E402

COMPARE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-compare")
LEGENDS = os.path.join(FIXTURES, "legends")
work = tempfile.mkdtemp(prefix="diskio-plot-legends.")

# a report and a comparison of the fixtures env-a, env-b and env-c
status, out, err = run(CORRELATE, "--format", "json",
                       *(os.path.join(FIXTURES, e) for e in ("env-a", "env-b")))
check(status == 0, "diskio-correlate --format json", err)
with open(os.path.join(work, "report.json"), "w") as f:
    f.write(out)
status, out, err = run(COMPARE, "--format", "json", "--metrics",
                       "mean,mb_per_s", *(os.path.join(FIXTURES, e, "result.json")
                                          for e in ("env-a", "env-b", "env-c")))
check(status == 0, "diskio-compare --format json", err)
with open(os.path.join(work, "compare.json"), "w") as f:
    f.write(out)

inputs = [os.path.join(LEGENDS, name) for name in sorted(os.listdir(LEGENDS))]
inputs += [os.path.join(LEGENDS, "jobs.json"),      # again: a repetition
           os.path.join(FIXTURES, "plot", "sweep.json"),
           os.path.join(FIXTURES, "plot", "fsync-trace.csv"),
           os.path.join(work, "report.json"), os.path.join(work, "compare.json")]
runs, traces, reports, comparisons = load_inputs(inputs)
charts = (run_charts(runs, traces, "png", work)
          + run_charts(runs, traces, "png", work, histogram_log=True)
          + report_charts(reports, "png", None, re.compile("mean_us$"), work)
          + compare_charts(comparisons, "png", work))

# a title is one or more gnuplot strings joined with '.': 'it'."'".'s'
STRING = r"(?:'[^']*'|\"'+\")"
TITLE = re.compile(rf"(?<!set )title ({STRING}(?:\.{STRING})*"
                   r"|columnheader\(\d+\))")


def titles(commands):
    found = []
    for match in TITLE.finditer(commands):
        text = match.group(1)
        if text.startswith("columnheader"):
            found.append(text)
        else:
            found.append("".join(piece[1:-1] for piece in
                                 re.findall(STRING, text)))
    return found


for chart in charts:
    entries = titles(chart.commands)
    check(entries and len(entries) == len(set(entries)),
          f"{chart.filename}: {len(entries)} legend entries, all distinct",
          entries)
    place = re.search(r"^set key (.*)$", chart.commands, re.M)
    check(place is not None and (place.group(1).startswith("inside ")
                                 or place.group(1).startswith("below")),
          f"{chart.filename}: the key inside the plot or below it",
          place and place.group(1))
names = sorted(chart.filename for chart in charts)
for kind in ("hist", "percentiles", "bs-throughput", "bs-latency", "intervals",
             "sweep-io-length", "trace", "ratios", "sync-share", "compare"):
    check(any(name.startswith(f"diskio-{kind}") for name in names),
          f"a chart of kind {kind} was made", names)

# the crystal run's aio rows: each its own entry, named by its row
aio = next(c for c in charts if c.filename == "diskio-percentiles-aio.png")
check("ext4 aio SEQ1M Q8T1 write" in titles(aio.commands)
      and "ext4 aio SEQ1M Q1T1 write" in titles(aio.commands),
      "crystal's SEQ1M Q8T1 and Q1T1 writes are told apart by their row",
      titles(aio.commands))
jobs = next(c for c in charts if c.filename == "diskio-hist-fdatasync.png")
check({"ext4 fdatasync 1 job", "ext4 fdatasync x4 jobs",
       "ext4 fdatasync 1 job #2", "ext4 fdatasync 16 KiB write"}
      <= set(titles(jobs.commands)),
      "--jobs runs by their jobs, a repetition numbered, a suite's by its row",
      titles(jobs.commands))

if shutil.which(os.environ.get("GNUPLOT", "gnuplot")):
    status, out, err = run(PLOT, "--outdir", os.path.join(work, "out"), *inputs)
    check(status == 0 and out.count("\n") >= len(charts) // 2,
          "diskio-plot draws every chart of these inputs", err or out)
else:
    print("note: gnuplot not installed; the charts were not drawn")
shutil.rmtree(work, ignore_errors=True)
finish()
