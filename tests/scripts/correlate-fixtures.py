#!/usr/bin/env python3
"""Description: diskio-correlate on hand-made fixtures gives the exact ratios, verdicts and candidates.

diskio-correlate on the hand-written fixtures env-a (baseline, label A),
env-b (label B) and env-c (no label: named after its directory): exact
ratios, the verdict of each metric against its noise, the candidates of
each phase ranked by the share they need, the verdict text, correlations
withheld at n = 3 and the fits, and the WAL model basis by basis, all
computed by hand below; the text leads with the model's predictions."""

import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, FIXTURES, check, close, finish,  # noqa: E402
                       run)

A, B, C = (os.path.join(FIXTURES, d) for d in ("env-a", "env-b", "env-c"))

status, out, err = run(CORRELATE, "--format", "json", A, B, C)
check(status == 0, "3 environments: exit 0", err)
report = json.loads(out)
check(report["schema"] == "diskio-correlate" and report["baseline"] == "A",
      "report schema and baseline A")
check([e["name"] for e in report["environments"]] == ["A", "B", "env-c"],
      "names: labels A, B; env-c from its directory")
check(report["phase_order"] == ["load", "power", "throughput", "power.rf1",
                                "power.q1", "power.rf2",
                                "throughput.qs1.all"],
      "phase names from q_time.csv (LOAD, PERF.POWER, PERF.POWER.Q1, "
      "PERF.THRUPUT.QS1.ALL ...)", report["phase_order"])

b_vs_a = report["comparisons"][0]
check(b_vs_a["environment"] == "B", "first comparison is B vs A")
# Phase ratios: B/A from q_time.csv seconds.
for phase, expected in (("load", 1300 / 1000), ("power", 142 / 100),
                        ("throughput", 360 / 300), ("power.q1", 15 / 10),
                        ("power.rf1", 4 / 5), ("power.rf2", 5.2 / 4),
                        ("throughput.qs1.all", 180 / 150)):
    check(close(b_vs_a["phases"][phase]["ratio"], expected),
          f"phase ratio {phase} = {expected:.4f}",
          b_vs_a["phases"][phase])
# Metric ratios (from the designed figures, microseconds).
metrics = b_vs_a["metrics"]
for name, base, other in (("fsync.mean_us", 100, 151),
                          ("fsync.p99_us", 200, 400),
                          ("fsync.write_mean_us", 10, 10),
                          ("fsync.sync_mean_us", 90, 139.5),
                          ("fdatasync.mean_us", 80, 104),
                          ("fdatasync.p90_us", 100, 125),
                          ("async.mean_us", 5, 4),
                          ("net.rtt_us", 50, 56)):
    row = metrics[name]
    check(close(row["baseline"], base) and close(row["value"], other)
          and close(row["ratio"], other / base)
          and close(row["normalized_ratio"], other / base),
          f"{name}: {base} -> {other} us, ratio {other / base:.4f}", row)
# Throughput-like metrics: the normalized ratio is baseline / other.
for name, base, other in (("fsync.ops_per_s", 10000, 6500),
                          ("async.ops_per_s", 180000, 225000),
                          ("pg.tps", 1000, 780)):
    row = metrics[name]
    check(row["higher_is_better"] and close(row["ratio"], other / base)
          and close(row["normalized_ratio"], base / other),
          f"{name}: ratio {other / base:.4f}, normalized {base / other:.4f}",
          row)

# Verdicts: each metric judged against its noise (single values on both
# sides: beyond 25% a change; within it nothing is shown the same, so
# inconclusive), the candidates of a phase ranked by the share of it
# they would need, s = (r_phase - 1) / (r_metric - 1).
for name, verdict in (("fsync.mean_us", "slower"), ("fsync.p99_us", "slower"),
                      ("fdatasync.p90_us", "inconclusive"),
                      ("async.mean_us", "inconclusive"),
                      ("fsync.write_mean_us", "inconclusive"),
                      ("fsync.ops_per_s", "slower"),
                      ("async.ops_per_s", "inconclusive")):
    check(metrics[name]["verdict"] == verdict, f"{name}: {verdict}",
          metrics[name])
analysis = b_vs_a["phase_analysis"]
power = analysis["power"]
check([c["metric"] for c in power["candidates"]]
      == ["fsync.sync_mean_us", "fsync.mean_us", "fdatasync.sync_mean_us",
          "fdatasync.mean_us"]
      and close(power["candidates"][1]["share"], 0.42 / 0.51)
      and [c["plausible"] for c in power["candidates"]]
      == [True, True, False, False],
      "power: mean-latency candidates ranked by the share they need "
      "(fsync.mean_us 0.42/0.51 = 82%; fdatasync's above 100%: implausible)",
      power["candidates"])
check(power["undecided"] == ["async.mean_us", "fsync.write_mean_us",
                             "fdatasync.write_mean_us"]
      and power["other_direction"] == [],
      "power: async 0.80x is within noise, not 'the other way'", power)
expected_verdicts = {
    "power": "power: 1.42× (slower); consistent with fsync.sync_mean_us 1.55× "
             "(needs 76%), fsync.mean_us 1.51× (needs 82%)",
    # the fixtures' wal_sync_method is fdatasync: its metrics come first
    # where they are plausible (needing no more than the whole phase)
    "load": "load: 1.30× (slower); consistent with fdatasync.sync_mean_us 1.33× "
            "(needs 91%), fdatasync.mean_us 1.30× (needs 100%) and 2 more",
    "power.rf1": "power.rf1: 0.80× (faster); no disk metric moved enough to "
                 "explain this phase; fsync.mean_us, fsync.sync_mean_us and 2 "
                 "more moved the other way",
}
for phase, text in expected_verdicts.items():
    check(analysis[phase]["verdict"] == text, f"verdict {phase}",
          analysis[phase]["verdict"])
check(all("explains" not in a["verdict"] and "closest" not in a["verdict"]
          for a in analysis.values()), "no verdict claims a cause")

# Across A, B, env-c: correlations withheld (n = 3 < 4), fits given.
corr = report["correlations"]
check(corr["environments"] == ["A", "B", "env-c"] and corr["n"] == 3
      and corr["withheld"] == "n = 3 < 4: so few points give ±1 by chance"
      and corr["phases"] == {},
      "3 environments: correlations withheld with n and the reason", corr)
fit = next(f for f in report["fits"]["phases"]["power"]
           if f["metric"] == "fsync.mean_us")
xs, ys = [100.0, 151.0, 200.0], [100.0, 142.0, 150.0]
mean_x, mean_y = sum(xs) / 3, sum(ys) / 3
slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / \
    sum((x - mean_x) ** 2 for x in xs)
r = statistics.correlation(xs, ys)
check(close(fit["slope"], slope) and close(fit["r2"], r * r)
      and fit["dof"] == 1 and close(fit["residuals_s"]["B"],
                                    142.0 - (mean_y + slope * (151 - mean_x))),
      f"power on fsync.mean_us: slope {slope:.4f} s/us, R² {r * r:.4f}, "
      "residuals, 1 degree of freedom", fit)

# WAL model (default wal_sync_method fdatasync: A 80 us, B 104 us), basis
# by basis.
model = report["wal_model"]
a_power = model["environments"]["A"]["phases"]["power"]
commit = a_power["bases"]["wal_commit"]
check(close(commit["est_s"], 2000 * 80e-6)
      and close(commit["share"], 2000 * 80e-6 / 100)
      and close(commit["pg_time_s"], 0.18)
      and commit["count_source"] == "wal_sync",
      "A power: 2000 syncs x 80 us = 0.16 s (0.16%), PostgreSQL 0.18 s",
      commit)
a_load = model["environments"]["A"]["phases"]["load"]
check(a_load["bases"]["checkpoint"]["background"]
      and close(a_load["bases"]["checkpoint"]["pg_time_s"], 60.0)
      and close(a_load["background_share"], 0.06),
      "A load: 60 s of checkpoint sync, 6% of the phase, in the background",
      a_load)
pred_b = model["predictions"][0]
check(pred_b["environment"] == "B", "first prediction is for B")
power = pred_b["phases"]["power"]
wal = 2000 * (104 - 80) / 1e6
checkpoint = 0.05 * (151 / 100 - 1)
check(close(power["bases"]["wal_commit"]["delta_s"], wal)
      and close(power["predicted_commit_path_s"], 100 + wal)
      and close(power["predicted_s"], 100 + wal + checkpoint)
      and close(power["bases"]["wal_commit"]["delta_alt_s"],
                (2100 * 104 - 2000 * 80) / 1e6)
      and close(power["actual_s"], 142.0),
      "B power predicted 100.048 s on the commit path, + the checkpoints' "
      "0.0255 s", power)
load = pred_b["phases"]["load"]
check(load["dominant_basis"] == "checkpoint"
      and close(load["predicted_s"], 1000 + 5200e-6 * 0 + 5000 * 24e-6
                + 60 * (151 / 100 - 1)),
      "B load: checkpoint sync x fsync ratio dominates: 1030.72 s", load)
check(sorted(load["trust"]["not_measured"]) == ["segment_switch",
                                                "wal_background"]
      and "agrees" in load["trust"]["pg_check"],
      "B load: what the prediction rests on", load["trust"])
pred_c = model["predictions"][1]["phases"]["power"]
check(pred_c["predicted_alt_s"] is None
      and close(pred_c["predicted_s"], 100 + 2000 * (120 - 80) / 1e6
                + 0.05 * (200 / 100 - 1)),
      "env-c (no wal.csv): prediction without the alternative", pred_c)

# --wal-sync-method fsync uses fsync latency (A 100 us, B 151 us).
status, out, err = run(CORRELATE, "--format", "json", "--wal-sync-method",
                       "fsync", A, B)
power = json.loads(out)["wal_model"]["predictions"][0]["phases"]["power"]
check(status == 0 and close(power["predicted_commit_path_s"],
                            100 + 2000 * 51 / 1e6),
      "--wal-sync-method fsync: B power predicted 100.102 s", power)
# open_datasync counts wal_write x odsync latency: none measured -> a note.
status, out, err = run(CORRELATE, "--format", "json", "--wal-sync-method",
                       "open_datasync", A, B)
notes = json.loads(out)["notes"]
check(status == 0 and any("no odsync.mean_us measured" in n for n in notes),
      "open_datasync without odsync measurements is reported in notes", notes)

# --baseline by name; the text, markdown and csv formats carry the same names.
status, out, err = run(CORRELATE, "--baseline", "B", A, B)
check(status == 0 and out.splitlines()[0] == "diskio-correlate: A vs B "
      "(baseline)", "--baseline B")
status, out, err = run(CORRELATE, A, B)
lines = out.splitlines()
check(status == 0 and lines[0] == "diskio-correlate: B vs A (baseline)"
      and lines[2] == "== B vs A (baseline): the WAL model's prediction of "
      "each phase =="
      and [line.split()[0] for line in lines[4:9]]
      == ["load", "power", "throughput", "power.rf1", "power.rf2"]
      and lines[5].split() == ["power", "off", "-30%", "100.1", "s", "1.00×",
                               "n/a", "142.0", "s", "1.42×", "0.21%→0.2%"]
      and len(lines) <= 40 and all(len(line) <= 100 for line in lines)
      and "more: --details" in " ".join(out.split()),
      "text output leads with the WAL model's predictions, RF1 and RF2 "
      "included, in one screen", out)
check(lines.index("== calibration: time per sync, PostgreSQL's own (PG) "
                  "against diskio's ==")
      < lines.index("== disk ratios the predictions rest on (vs A) ==")
      and "  A    WAL, throughput (1)    86.67 us  80.00 us      0.92×        "
      "n/a            n/a" in lines
      and "  checkpoint  fsync.mean_us      1.51×           n/a   slower"
      in lines and " async.mean_us" not in out,
      "then the calibration, then the disk ratios the model used", out)
status, out, err = run(CORRELATE, "--details", A, B)
check("  power: 1.42× (slower); consistent with fsync.sync_mean_us 1.55× "
      "(needs 76%), fsync.mean_us 1.51×" in out.splitlines()
      and "-- phase power.rf2" in out.splitlines(),
      "--details: each phase's verdict against the disks, RF2's lists", out)
check(any(line.split() == ["phase", "power", "100.0", "s", "142.0", "s", "1.42×",
                          "n/a", "1/1", "slower"]
          for line in out.splitlines())
      and "ratios are B/A" in " ".join(out.split()),
      "--details: values with units, the B/A ratio with two decimals, the verdict",
      out)
status, out, err = run(CORRELATE, "--format", "markdown", "--details", A, B)
check(status == 0 and "| phase | power | 100.0 s | 142.0 s | 1.42× | "
      "n/a | 1/1 | slower |" in out, "markdown table row for power")
status, out, err = run(CORRELATE, "--format", "csv", A, B)
check(status == 0 and out.startswith(
    "section,environment,baseline,phase,metric,quantity,value,unit\n")
    and "metric,B,A,,fsync.mean_us,ratio,1.51,\n" in out
    and "prediction,B,A,power,,predicted_commit_path_s,100.048,s\n" in out,
    "csv: long format with full-precision values")
finish()
