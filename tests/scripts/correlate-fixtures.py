#!/usr/bin/env python3
"""diskio-correlate on the hand-written fixtures env-a (baseline, label A),
env-b (label B) and env-c (no label: named after its directory): exact
ratios, closest metric per phase, verdict text, correlations and the WAL
model, all computed by hand below."""

import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import (CORRELATE, FIXTURES, check, close, finish,  # noqa: E402
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

# Closest metric: smallest |ln r_metric - ln r_phase|.
expected_closest = {"load": ("fdatasync.mean_us", 0.0),
                    "power": ("fsync.mean_us", abs(math.log(1.51 / 1.42))),
                    "throughput": ("fdatasync.p90_us",
                                   abs(math.log(1.25 / 1.2))),
                    "power.q1": ("fsync.mean_us", abs(math.log(1.51 / 1.5))),
                    "power.rf1": ("async.mean_us", 0.0),
                    "power.rf2": ("fdatasync.mean_us", 0.0)}
analysis = b_vs_a["phase_analysis"]
for phase, (metric, distance) in expected_closest.items():
    closest = analysis[phase]["closest"]
    check(closest["metric"] == metric
          and abs(closest["log_distance"] - distance) < 1e-9,
          f"closest to {phase}: {metric} (distance {distance:.4f})", closest)
check(analysis["power"]["other_direction"] == [
    "async.mean_us", "async.p50_us", "async.p90_us", "async.p99_us",
    "async.p99_9_us", "async.max_us", "async.ops_per_s"],
    "power: the async metrics moved the other way",
    analysis["power"]["other_direction"])
check(analysis["power"]["unchanged"] == ["fsync.write_mean_us"],
      "power: fsync.write_mean_us unchanged")
check(analysis["power.rf1"]["direction"] == "faster"
      and "fsync.mean_us" in analysis["power.rf1"]["other_direction"],
      "power.rf1 is faster; fsync moved the other way")

expected_verdicts = {
    "power": "power: 1.42× slower; closest: fsync.mean_us 1.51× (same "
             "direction); async.mean_us, async.p50_us, async.p90_us, "
             "async.p99_us and 3 more moved the other way",
    "power.rf1": "power.rf1: 1.25× faster; closest: async.mean_us 0.80× "
                 "(same direction); fsync.mean_us, fsync.p50_us, "
                 "fsync.p90_us, fsync.p99_us and 19 more moved the other way",
    "load": "load: 1.30× slower; closest: fdatasync.mean_us 1.30× (same "
            "direction); async.mean_us, async.p50_us, async.p90_us, "
            "async.p99_us and 3 more moved the other way",
}
for phase, text in expected_verdicts.items():
    check(analysis[phase]["verdict"] == text, f"verdict {phase}",
          analysis[phase]["verdict"])

# Correlations across A, B, env-c on normalized ratios (baseline = 1).
corr = report["correlations"]
check(corr is not None and corr["environments"] == ["A", "B", "env-c"],
      "correlations over 3 environments")
fsync_ratios = [1.0, 151 / 100, 200 / 100]
power_ratios = [1.0, 142 / 100, 150 / 100]
pearson_by_hand = statistics.correlation(fsync_ratios, power_ratios)
check(abs(pearson_by_hand - 0.93499) < 1e-4, "hand Pearson value sane")
cell = corr["phases"]["power"]["fsync.mean_us"]
check(close(cell["pearson"], pearson_by_hand, 1e-9)
      and close(cell["spearman"], 1.0),
      f"power vs fsync.mean_us: pearson {pearson_by_hand:.5f}, spearman 1",
      cell)
# async: ratios 1, 0.8, 1.2 -> ranks 2,1,3 vs power ranks 1,2,3: 1-6*2/24.
cell = corr["phases"]["power"]["async.mean_us"]
check(close(cell["spearman"], 0.5)
      and close(cell["pearson"], statistics.correlation([1.0, 0.8, 1.2],
                                                        power_ratios)),
      "power vs async.mean_us: spearman 0.5", cell)
# Throughput-like metric correlates on its normalized ratio (base/other).
cell = corr["phases"]["power"]["pg.tps"]
check(close(cell["pearson"], statistics.correlation(
    [1.0, 1000 / 780, 1000 / 700], power_ratios)),
    "pg.tps correlates on its normalized ratio", cell)

# WAL model (default wal_sync_method fdatasync: A 80 us, B 104 us).
model = report["wal_model"]
a_power = model["environments"]["A"]["phases"]["power"]
check(close(a_power["est_sync_s"], 2000 * 80e-6)
      and close(a_power["share"], 2000 * 80e-6 / 100)
      and close(a_power["pg_sync_time_s"], 0.18)
      and a_power["basis"] == "wal_sync",
      "A power: 2000 syncs x 80 us = 0.16 s (0.16%), PostgreSQL 0.18 s",
      a_power)
a_load = model["environments"]["A"]["phases"]["load"]
check(a_load["basis"] == "checkpoint_sync_time"
      and close(a_load["checkpoint_sync_time_s"], 60.0),
      "A load is checkpoint-heavy (60 s checkpoint sync vs 0.4 s WAL sync)",
      a_load)
pred_b = model["predictions"][0]
check(pred_b["environment"] == "B", "first prediction is for B")
power = pred_b["phases"]["power"]
check(close(power["predicted_s"], 100 + 2000 * (104 - 80) / 1e6)
      and close(power["predicted_wal_alt_s"],
                100 + (2100 * 104 - 2000 * 80) / 1e6)
      and close(power["actual_s"], 142.0),
      "B power predicted 100.048 s (alt with B's 2100 syncs: 100.0584 s)",
      power)
load = pred_b["phases"]["load"]
check(load["basis"] == "checkpoint_sync_time"
      and close(load["predicted_s"], 1000 + 60 * (151 / 100 - 1)),
      "B load predicted from checkpoint sync x fsync ratio: 1030.6 s", load)
pred_c = model["predictions"][1]["phases"]["power"]
check(pred_c["predicted_wal_alt_s"] is None
      and close(pred_c["predicted_s"], 100 + 2000 * (120 - 80) / 1e6),
      "env-c (no wal.csv): prediction without the alternative", pred_c)

# --wal-sync-method fsync uses fsync latency (A 100 us, B 151 us).
status, out, err = run(CORRELATE, "--format", "json", "--wal-sync-method",
                       "fsync", A, B)
power = json.loads(out)["wal_model"]["predictions"][0]["phases"]["power"]
check(status == 0 and close(power["predicted_s"], 100 + 2000 * 51 / 1e6),
      "--wal-sync-method fsync: B power predicted 100.102 s", power)
# open_datasync counts wal_write x odsync latency: none measured -> a note.
status, out, err = run(CORRELATE, "--format", "json", "--wal-sync-method",
                       "open_datasync", A, B)
notes = json.loads(out)["notes"]
check(status == 0 and any("no odsync.mean_us measured" in n for n in notes),
      "open_datasync without odsync measurements is reported in notes", notes)

# --baseline by name; the text, markdown and csv formats carry the same names.
status, out, err = run(CORRELATE, "--baseline", "B", A, B)
check(status == 0 and "baseline B" in out.splitlines()[0]
      and "A vs B (baseline)" in out, "--baseline B")
status, out, err = run(CORRELATE, A, B)
check(status == 0 and "power: 1.42× slower; closest: fsync.mean_us 1.51× "
      "(same direction)" in out and "slower" in out
      and "normalized ratio > 1 always means worse/slower" in out,
      "text output has the verdict and the direction note")
check("  phase   power                      100.0 s    142.0 s   1.42" in out,
      "text table: values with units, ratio with two decimals")
status, out, err = run(CORRELATE, "--format", "markdown", A, B)
check(status == 0 and "| phase | power | 100.0 s | 142.0 s | 1.42 | 1.42 |"
      in out, "markdown table row for power")
status, out, err = run(CORRELATE, "--format", "csv", A, B)
check(status == 0 and out.startswith(
    "section,environment,baseline,phase,metric,quantity,value,unit\n")
    and "metric,B,A,,fsync.mean_us,ratio,1.51,\n" in out
    and "prediction,B,A,power,,predicted_s,100.048,s\n" in out,
    "csv: long format with full-precision values")
finish()
