#!/usr/bin/env python3
"""Description: every ratio a person reads is B/A, with its word derived from it.

every ratio a person reads is B/A, the other
environment's value over the baseline's, whatever the quantity, with the
word derived from it (or, in diskio-compare's table, no ratio where
the verdict is undecided and the interval holds 1).  On the fixtures
env-a (A) and env-b (B), whose
fsync is slower in B (latencies up, MB/s and ops/s down) and async faster
(latency down, MB/s up): every "N×" that diskio-correlate's summary and
details print beside a phase or a metric, and every ratio diskio-compare's
summary and table print beside a run, equals that quantity's B/A from
the JSON output (so no screen shows 1.35× where another shows 0.74×); a
throughput that fell reads below 1 and "slower", a latency that fell
below 1 and "faster"."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, FIXTURES, TOP_BUILDDIR, check,  # noqa: E402
                       finish, run)

from diskio_analysis.ratios import fmt_factor  # noqa: E402

COMPARE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-compare")
A, B = (os.path.join(FIXTURES, d) for d in ("env-a", "env-b"))


def shown(ratio):
    """The ratio as every screen shows it, without its ×."""
    return fmt_factor(ratio)[:-1]


# ---- diskio-correlate: summary and details, text ----
status, out, err = run(CORRELATE, "--format", "json", A, B)
check(status == 0, "diskio-correlate --format json: exit 0", err)
comparison = json.loads(out)["comparisons"][0]
b_over_a = {name: row["ratio"] for name, row in comparison["metrics"].items()
            if row["ratio"] is not None}
b_over_a.update((name, row["ratio"])
                for name, row in comparison["phases"].items())
check(b_over_a["fsync.write.mb_per_s"] < 1 < b_over_a["fsync.mean_us"]
      and b_over_a["async.mean_us"] < 1 < b_over_a["async.write.mb_per_s"],
      "the fixtures: fsync slower in B (MB/s down, latency up), async faster")

status, text, err = run(CORRELATE, "--details", "--metrics", "all",
                        "--phases", "all", A, B)
check(status == 0, "diskio-correlate --details: exit 0", err)
flat = " ".join(text.split())
seen, wrong = {}, []
for name, value in re.findall(r"([A-Za-z][\w.@]*):? ([0-9.]+)×", flat):
    if name not in b_over_a:
        continue            # "WAL model 1.03×", "vs PostgreSQL A 0.87×"
    seen.setdefault(name, set()).add(value)
    if value != shown(b_over_a[name]):
        wrong.append(f"{name} {value}× (B/A is {b_over_a[name]:.4g})")
# the table's rows: "metric NAME baseline other RATIO× ..."
for name, value in re.findall(r"(?:metric|phase) +([\w.@]+) +\S+(?: \S+)? +"
                              r"\S+(?: \S+)? +([0-9.]+)×", text):
    seen.setdefault(name, set()).add(value)
    if name in b_over_a and value != shown(b_over_a[name]):
        wrong.append(f"table: {name} {value}× (B/A is {b_over_a[name]:.4g})")
check(not wrong, "diskio-correlate: every ratio beside a phase or metric is "
      "its B/A", "\n".join(wrong))
check(all(name in seen for name in ("load", "power", "fsync.mean_us",
                                    "fsync.write.mb_per_s", "fsync.ops_per_s",
                                    "async.mean_us", "pg.tps")),
      "diskio-correlate: phases, latencies and throughputs were all read",
      sorted(seen))
check(not [n for n, values in seen.items() if len(values) > 1],
      "diskio-correlate: no quantity is shown with two ratios",
      {n: v for n, v in seen.items() if len(v) > 1})
check(f"fsync.write.mb_per_s {shown(b_over_a['fsync.write.mb_per_s'])}× "
      "(slower" in flat,
      "a throughput that fell: below 1 and slower", flat)
check(re.search(r"(power\.rf1|power\.q1|power\.rf2): 0\.\d\d× \(faster\)",
                flat) is not None or "0.80× (faster)" in flat
      or "faster: async.mean_us 0.80×" in flat,
      "a time that fell: below 1 and faster", flat)
check("ratios are B/A" in flat, "the details say the convention once", flat)

# ---- diskio-compare: summary and table ----
results = [os.path.join(d, "result.json") for d in (A, B)]
status, out, err = run(COMPARE, "--format", "json", "--metrics",
                       "mb_per_s,mean,ops_per_s", *results)
check(status == 0, "diskio-compare --format json: exit 0", err)
doc = json.loads(out)
ratios = {(c["run_label"], c["metric"]): c["ratio"] for c in doc["comparisons"]}
# where the interval holds 1 and the verdict is not a change or same,
# the table shows "-" for the ratio: the interval is the answer
undecided = {(c["run_label"], c["metric"]) for c in doc["comparisons"]
             if (c["undisturbed_verdict"] or c["verdict"]) not in ("slower", "faster", "same")
             and (c["interval"] is None or c["interval"][0] <= 1 <= c["interval"][1])}
status, text, err = run(COMPARE, "--metrics", "mb_per_s,mean,ops_per_s",
                        *results)
check(status == 0, "diskio-compare: exit 0", err)
lines = text.splitlines()
summary = lines[0]
wrong, read = [], 0
for verdict, items in re.findall(r"(slower|faster) in ([^;]+)", summary):
    for label, value in re.findall(r"([^,]+?) ([0-9.]+)×", items):
        read += 1
        want = ratios[(label.strip(), "mb_per_s")]
        if value != shown(want):
            wrong.append(f"summary: {label} {value}× (B/A is {want:.4g})")
        if (want < 1) != (verdict == "slower"):
            wrong.append(f"summary: {label}: MB/s B/A {want:.4g} called {verdict}")
for line in lines:
    cells = re.split(r" {2,}", line.strip())
    if len(cells) == 7 and (cells[0], cells[1]) in ratios:
        read += 1
        want = ratios[(cells[0], cells[1])]
        if cells[4] == "-" and (cells[0], cells[1]) in undecided:
            continue
        if cells[4] != shown(want) + "×":
            wrong.append(f"table: {cells[0]} {cells[1]} {cells[4]} "
                         f"(B/A is {want:.4g})")
check(read >= 10 and not wrong, f"diskio-compare: every ratio of its summary "
      f"and table ({read}) is B/A", "\n".join(wrong) or text)
check("slower in fsync 8 KiB 0.65×" in summary,
      "diskio-compare: the MB/s that fell reads 0.65×, slower", summary)
finish()
