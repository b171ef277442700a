# SPDX-License-Identifier: MIT
"""Description: the WAL model's arithmetic: sync time = syncs × measured
latency, the share of the phase, the prediction when only the latency
changes (and with the other environment's own count), and the checkpoint
basis scaled by files or by time."""

import unittest

from diskio_analysis.walmodel import (checkpoint_latency, latency_metric,
                                      wal_model, wal_phase_estimate)
from envlib import make_env

ROW = {"wal_write": 1000.0, "wal_sync": 500.0, "wal_write_time_ms": 300.0,
       "wal_sync_time_ms": 800.0, "wal_bytes": 1e6}


def pair(base_row=ROW, other_row=ROW, other_latency=300.0):
    base = make_env("A", {"load": 10.0}, {"fdatasync.mean_us": 100.0},
                    {"load": base_row})
    other = make_env("B", {"load": 12.0},
                     {"fdatasync.mean_us": other_latency},
                     {"load": other_row})
    return base, other


class EstimateTest(unittest.TestCase):
    def test_sync_time_and_share(self):
        base, _ = pair()
        notes = []
        est = wal_phase_estimate(base, "load", base.wal["load"], "fdatasync",
                                 notes)
        self.assertEqual(est["sync_count"], 500.0)
        self.assertAlmostEqual(est["est_sync_s"], 0.05)     # 500 × 100 us
        self.assertAlmostEqual(est["share"], 0.005)
        self.assertAlmostEqual(est["pg_sync_time_s"], 0.8)
        self.assertEqual(est["basis"], "wal_sync")
        self.assertEqual(notes, [])

    def test_open_sync_methods_count_writes(self):
        env = make_env("A", {"load": 10.0}, {"odsync.mean_us": 10.0},
                       {"load": ROW})
        est = wal_phase_estimate(env, "load", env.wal["load"],
                                 "open_datasync", [])
        self.assertEqual((est["counted"], est["sync_count"]),
                         ("wal_write", 1000.0))
        self.assertAlmostEqual(est["est_sync_s"], 0.01)

    def test_no_syncs_but_writes_suggests_the_method(self):
        base, _ = pair(dict(ROW, wal_sync=0.0))
        notes = []
        wal_phase_estimate(base, "load", base.wal["load"], "fdatasync", notes)
        self.assertIn("pass --wal-sync-method", notes[0])

    def test_checkpoint_time_above_wal_time_changes_the_basis(self):
        base, _ = pair(dict(ROW, checkpoint_sync_time_ms=2000.0))
        est = wal_phase_estimate(base, "load", base.wal["load"], "fdatasync",
                                 [])
        self.assertEqual(est["basis"], "checkpoint_sync_time")
        self.assertAlmostEqual(est["checkpoint_share"], 0.2)

    def test_latency_metric_falls_back_to_the_8k_run(self):
        env = make_env("A", {"load": 1.0}, {"fsync@8k.mean_us": 5.0})
        self.assertEqual(latency_metric(env, "fsync"), "fsync@8k.mean_us")
        self.assertIsNone(latency_metric(env, "osync"))


class PredictionTest(unittest.TestCase):
    def test_prediction_when_only_latency_changes(self):
        base, other = pair(other_row=dict(ROW, wal_sync=400.0))
        model = wal_model(base, [base, other], "fdatasync", [])
        p = model["predictions"][0]["phases"]["load"]
        # 10 s + 500 syncs × (300 − 100) us
        self.assertAlmostEqual(p["predicted_wal_s"], 10.1)
        # 10 s + (400 × 300 − 500 × 100) us
        self.assertAlmostEqual(p["predicted_wal_alt_s"], 10.07)
        self.assertAlmostEqual(p["predicted_ratio"], 1.01)
        self.assertAlmostEqual(p["actual_ratio"], 1.2)

    def test_checkpoint_prediction_by_files_and_by_time(self):
        for extra, basis, predicted in (
                ({"checkpoint_sync_files": 100.0}, "checkpoint_sync_files",
                 10.0 + 100 * 200 / 1e6),
                ({}, "checkpoint_sync_time_ratio", 10.0 + 2.0 * (3.0 - 1.0))):
            row = dict(ROW, checkpoint_sync_time_ms=2000.0, **extra)
            base, other = pair(row, row)
            p = wal_model(base, [base, other], "fdatasync",
                          [])["predictions"][0]["phases"]["load"]
            with self.subTest(basis=basis):
                self.assertEqual(p["checkpoint_basis"], basis)
                self.assertEqual(p["basis"], "checkpoint_sync_time")
                self.assertAlmostEqual(p["predicted_s"], predicted)

    def test_checkpoint_latency_falls_back_to_the_wal_mode(self):
        base, other = pair()
        notes = []
        self.assertEqual(checkpoint_latency(base, other, "fdatasync", notes),
                         (100.0, 300.0))
        self.assertIn("checkpoint predictions use fdatasync latency",
                      notes[0])

    def test_no_wal_no_model_and_baseline_without_wal_no_predictions(self):
        base, other = pair()
        base.wal = {}
        notes = []
        model = wal_model(base, [base, other], "fdatasync", notes)
        self.assertEqual(model["predictions"], [])
        self.assertIn("baseline A has no wal.csv", notes[-1])
        other.wal = {}
        self.assertIsNone(wal_model(base, [base, other], "fdatasync", []))


if __name__ == "__main__":
    unittest.main()
