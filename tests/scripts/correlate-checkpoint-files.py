#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: diskio-correlate models the checkpoints' syncs from the files they synced.

The checkpoints' basis of the WAL model: when wal.csv counts the files
the checkpoints synced (checkpoint_sync_files, from log_checkpoints),
count x latency difference, like the WAL flushes' (a data file's fsync
flushes every dirty page of it, so the files times diskio's one-block
fsync latency falls far short of PostgreSQL's own time, and the check
against that time says so); without the count, the checkpoint sync time
scaled by the latency ratio.
The runner's settings.json tells which wal_sync_method wal.csv counts.
The fixtures' load phase is checkpoint-heavy (60 s of checkpoint sync
against 0.4 s of WAL sync), so the checkpoints dominate its
prediction."""
import json
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import CORRELATE, FIXTURES, check, close, finish, run  # noqa: E402

work = tempfile.mkdtemp(prefix="diskio-ckpt-test.")
try:
    for name in ("env-a", "env-b"):
        shutil.copytree(os.path.join(FIXTURES, name), os.path.join(work, name))
    # the baseline's checkpoints synced 250 files during load
    path = os.path.join(work, "env-a", "wal.csv")
    lines = open(path).read().splitlines()
    lines[0] += ",checkpoint_sync_files"
    lines[1:] = [line + ("," + ("250" if line.startswith("load,") else "3"))
                 for line in lines[1:]]
    open(path, "w").write("\n".join(lines) + "\n")

    def fsync_mean_us(env):
        doc = json.load(open(os.path.join(work, env, "result.json")))
        run_ = next(r for r in doc["runs"] if r["mode"] == "fsync")
        return run_["latency"]["total"]["mean"] / 1000.0

    lat_a, lat_b = fsync_mean_us("env-a"), fsync_mean_us("env-b")
    status, out, err = run(CORRELATE, "--format", "json",
                           os.path.join(work, "env-a"), os.path.join(work, "env-b"))
    check(status == 0, "diskio-correlate accepts checkpoint_sync_files", err)
    report = json.loads(out)
    load = report["wal_model"]["predictions"][0]["phases"]["load"]
    ckpt = load["bases"]["checkpoint"]
    wal = 5000 * (104 - 80) / 1e6
    check(ckpt["how"] == "count x latency difference" and ckpt["count"] == 250,
          "the counted files are the basis", ckpt)
    expected = 1000.0 + wal + 250 * (lat_b - lat_a) / 1e6
    check(close(load["predicted_s"], expected),
          "load predicted = 1000 s + 5000 x 24 us + 250 x (%.1f - %.1f) us = "
          "%.6f s" % (lat_b, lat_a, expected), load["predicted_s"])
    check("0.00038x in A (checkpoint, disagrees)"
          in load["trust"]["pg_check"],
          "250 files x one-block fsync sync part (90 us) vs 60 s: the disagreement is "
          "said", load["trust"])

    # without the column: the ratio of the sync time
    shutil.copy(os.path.join(FIXTURES, "env-a", "wal.csv"), path)
    status, out, err = run(CORRELATE, "--format", "json",
                           os.path.join(work, "env-a"), os.path.join(work, "env-b"))
    load = json.loads(out)["wal_model"]["predictions"][0]["phases"]["load"]
    check(status == 0 and load["bases"]["checkpoint"]["how"] ==
          "PostgreSQL's sync time x (latency ratio - 1)"
          and load["dominant_basis"] == "checkpoint",
          "without a count the sync time is scaled", load)
    expected = 1000.0 + wal + 60.0 * (lat_b / lat_a - 1.0)
    check(close(load["predicted_s"], expected), "load predicted = %.6f s" % expected,
          load["predicted_s"])

    # the runner's settings.json says which wal_sync_method wal.csv counts
    settings = {"tool": "diskio-pgphases", "wal_sync_method": "open_datasync"}
    for env in ("env-a", "env-b"):
        json.dump(settings, open(os.path.join(work, env, "settings.json"), "w"))
    status, out, err = run(CORRELATE, "--format", "json",
                           os.path.join(work, "env-a"), os.path.join(work, "env-b"))
    check(status == 0 and json.loads(out)["wal_model"]["sync_method"] == "open_datasync",
          "wal_sync_method taken from diskio-pgphases' settings.json", err or out[:300])
    status, out, err = run(CORRELATE, "--format", "json", "--wal-sync-method", "fsync",
                           os.path.join(work, "env-a"), os.path.join(work, "env-b"))
    report = json.loads(out)
    check(report["wal_model"]["sync_method"] == "fsync", "--wal-sync-method overrides it")
    check(any("ran with wal_sync_method open_datasync" in n for n in report["notes"]),
          "the disagreement is noted", report["notes"])
    json.dump({"tool": "diskio-pgphases", "wal_sync_method": "bogus"},
              open(os.path.join(work, "env-b", "settings.json"), "w"))
    status, out, err = run(CORRELATE, os.path.join(work, "env-a"), os.path.join(work, "env-b"))
    check(status == 1 and "settings.json" in err and not out,
          "an unknown wal_sync_method in settings.json is an error naming the file", err)
finally:
    shutil.rmtree(work, ignore_errors=True)
finish()
