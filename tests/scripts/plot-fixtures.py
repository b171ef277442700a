#!/usr/bin/env python3
"""Description: diskio-plot draws every chart of the fixtures as PNG and SVG, with what each promises.

diskio-plot on the fixtures: every chart exists as PNG (magic bytes,
> 2 KB) or SVG (XML with <svg); the SVGs' text says what the charts
promise (ticks in µs, block size and pattern in titles, the ratio axis
centred on 1 with the top-level phases); existing files are not
overwritten without --force; a missing --outdir is created; a missing
gnuplot gives status 3.  Skips (77) without gnuplot."""

import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, EXIT_SKIP, FIXTURES, PLOT, check,  # noqa
                       finish, run)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

if shutil.which(os.environ.get("GNUPLOT", "gnuplot")) is None:
    print("SKIP: gnuplot not found (apt-get install gnuplot-nox)")
    sys.exit(EXIT_SKIP)

work = tempfile.mkdtemp(prefix="diskio-plot-test.")
try:
    status, out, err = run(CORRELATE, "--format", "json",
                           *(os.path.join(FIXTURES, d)
                             for d in ("env-a", "env-b", "env-c")))
    check(status == 0, "diskio-correlate JSON report for the plot", err)
    report = os.path.join(work, "report.json")
    with open(report, "w", encoding="utf-8") as handle:
        handle.write(out)
    inputs = [os.path.join(FIXTURES, "env-a", "result.json"),
              os.path.join(FIXTURES, "env-b", "result.json"),
              os.path.join(FIXTURES, "plot", "sweep.json"),
              os.path.join(FIXTURES, "plot", "fsync-trace.csv"), report]
    expected = ["diskio-hist-async", "diskio-hist-fsync",
                "diskio-hist-fdatasync", "diskio-percentiles-async",
                "diskio-percentiles-fsync", "diskio-percentiles-fdatasync",
                "diskio-bs-throughput", "diskio-bs-latency",
                "diskio-trace-fsync-trace-index",
                "diskio-trace-fsync-trace-time", "diskio-ratios",
                "diskio-sync-share"]

    png_dir = os.path.join(work, "png")
    os.mkdir(png_dir)
    status, out, err = run(PLOT, "--outdir", png_dir, *inputs)
    check(status == 0, "PNG run: exit 0", err)
    for name in expected:
        path = os.path.join(png_dir, name + ".png")
        data = open(path, "rb").read() if os.path.exists(path) else b""
        check(data.startswith(PNG_MAGIC) and len(data) > 2048,
              f"{name}.png: PNG, {len(data)} bytes")
    check(sorted(os.listdir(png_dir)) == sorted(n + ".png" for n in expected),
          "no other files (no temporaries left)", os.listdir(png_dir))
    check(out.split() == [os.path.join(png_dir, n + ".png") for n in expected],
          "stdout lists the files written")

    status, out, err = run(PLOT, "--outdir", png_dir, *inputs)
    check(status == 1 and out == "" and "--force" in err
          and "diskio-hist-async.png" in err,
          "refuses to overwrite without --force (exit 1)", err)
    before = os.path.getmtime(os.path.join(png_dir, "diskio-ratios.png"))
    status, out, err = run(PLOT, "--force", "--outdir", png_dir, *inputs)
    check(status == 0 and os.path.getmtime(
        os.path.join(png_dir, "diskio-ratios.png")) >= before,
        "--force overwrites", err)

    svg_dir = os.path.join(work, "svg", "created")    # created by the tool
    status, out, err = run(PLOT, "--format", "svg", "--outdir", svg_dir,
                           *inputs)
    check(status == 0, "SVG run: exit 0", err)
    for name in expected:
        path = os.path.join(svg_dir, name + ".svg")
        text = open(path, encoding="utf-8").read() if os.path.exists(
            path) else ""
        check(text.lstrip().startswith("<?xml") and "<svg" in text,
              f"{name}.svg: XML with <svg>")
    text = open(os.path.join(svg_dir, "diskio-ratios.svg"),
                encoding="utf-8").read()
    check("fsync.mean_us" in text and "env-c" in text and "power" in text,
          "ratio chart names metrics, phases and environments")
    text = open(os.path.join(svg_dir, "diskio-hist-fsync.svg"),
                encoding="utf-8").read()
    check("A fsync" in text and "B fsync" in text and "(log scale)" in text
          and " µs<" in text
          and "fsync, seq writes of several block sizes" in text,
          "histogram legend names environment and mode; ticks in µs; the "
          "title says block size and pattern")
    text = open(os.path.join(svg_dir, "diskio-bs-latency.svg"),
                encoding="utf-8").read()
    check("64 KiB<" in text and " µs<" in text
          and "seq writes" in text,
          "block-size sweep: sizes and latencies as ticks, pattern in the title")
    text = open(os.path.join(svg_dir, "diskio-ratios.svg"),
                encoding="utf-8").read()
    check(">1×<" in text and "centred on 1" in text
          and "power.q1" not in text,
          "ratio chart: log axis centred on 1, top-level phases only")

    status, out, err = run(PLOT, "--outdir", work, inputs[0],
                           env={"GNUPLOT": "/nonexistent/gnuplot"})
    check(status == 3 and "gnuplot not found" in err and out == "",
          "missing gnuplot: exit 3 with a message", err)

    bad = os.path.join(work, "bad.json")
    with open(bad, "w", encoding="utf-8") as handle:
        json.dump({"schema": "diskio-result", "schema_version": 9}, handle)
    status, out, err = run(PLOT, "--outdir", work, bad)
    check(status == 1 and bad in err and "schema_version 9" in err
          and "Traceback" not in err, "unknown schema version: exit 1", err)
    status, out, err = run(PLOT, "--format", "gif", bad)
    check(status == 2, "unknown --format: exit 2", err)
finally:
    shutil.rmtree(work, ignore_errors=True)
finish()
