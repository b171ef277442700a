#!/usr/bin/env python3
"""Description: diskio-correlate reads real fio output as it reads diskio's results.

diskio-correlate on real fio 3.33 output (fixtures/fio/fio.json, made by
  fio --output-format=json --name=fsync --rw=write --bs=8k --size=4m
      --fsync=1 --filename=F1 --name=fdatasync --stonewall --rw=write
      --bs=8k --size=4m --fdatasync=1 --filename=F2 --name=async
      --stonewall --rw=write --bs=8k --size=4m --filename=F3):
the mean of an fsync/fdatasync job is write mean + sync mean, the sync
count comes from sync.lat_ns.N when fio leaves sync.total_ios at 0, the
percentiles are sync-only, and a plain job keeps its own percentiles."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, FIXTURES, check, close, finish,  # noqa: E402
                       run)

FIO_DIR = os.path.join(FIXTURES, "fio")
with open(os.path.join(FIO_DIR, "fio.json"), encoding="utf-8") as handle:
    fio = json.load(handle)
jobs = {job["jobname"]: job for job in fio["jobs"]}
check(fio["fio version"].startswith("fio-"), "fixture is fio JSON output")

status, out, err = run(CORRELATE, "--format", "json",
                       os.path.join(FIXTURES, "env-a"), FIO_DIR)
check(status == 0, "env-a against the fio environment: exit 0", err)
report = json.loads(out)
fio_env = report["environments"][1]
check(fio_env["name"] == "fio", "fio environment named after its directory")
metrics = fio_env["metrics"]
runs = {r["metric_prefix"]: r for r in fio_env["runs"]}

for mode in ("fsync", "fdatasync"):
    job = jobs[mode]
    write_mean = job["write"]["lat_ns"]["mean"]
    sync_mean = job["sync"]["lat_ns"]["mean"]
    check(close(metrics[f"{mode}.mean_us"]["value"],
                (write_mean + sync_mean) / 1000.0),
          f"{mode}.mean_us = write mean + sync mean "
          f"({write_mean:.0f} + {sync_mean:.0f} ns)")
    check(close(metrics[f"{mode}.write_mean_us"]["value"], write_mean / 1000)
          and close(metrics[f"{mode}.sync_mean_us"]["value"],
                    sync_mean / 1000),
          f"{mode}.write_mean_us and {mode}.sync_mean_us")
    check(close(metrics[f"{mode}.sync_p99_us"]["value"],
                job["sync"]["lat_ns"]["percentile"]["99.000000"] / 1000),
          f"{mode}.sync_p99_us from the sync percentiles")
    check(f"{mode}.p99_us" not in metrics,
          f"no {mode}.p99_us: fio's write and sync percentiles do not combine")
    check(runs[mode]["syncs"] == job["sync"]["lat_ns"]["N"],
          f"{mode}: sync count {runs[mode]['syncs']} = sync.lat_ns.N")
    check(close(metrics[f"{mode}.ops_per_s"]["value"], job["write"]["iops"]),
          f"{mode}.ops_per_s = write iops")
check(jobs["fdatasync"]["sync"]["total_ios"] == 0
      and runs["fdatasync"]["syncs"] > 0,
      "fio 3.33 quirk: fdatasync sync.total_ios is 0, count taken from "
      "sync.lat_ns.N")
check(any("percentiles are of the sync part only" in n
          for n in report["notes"]), "the report says which percentiles are "
      "sync-only")
job = jobs["async"]
check(close(metrics["async.mean_us"]["value"],
            job["write"]["lat_ns"]["mean"] / 1000)
      and close(metrics["async.p50_us"]["value"],
                job["write"]["clat_ns"]["percentile"]["50.000000"] / 1000),
      "plain buffered job maps to async with its own percentiles")
comparison = report["comparisons"][0]
check(comparison["metrics"]["fsync.mean_us"]["ratio"] is not None
      and comparison["metrics"]["fsync.p99_us"]["value"] is None,
      "fio and diskio environments compare on the shared names only")
finish()
