# SPDX-License-Identifier: MIT
"""Description: the WAL model predicts a phase from each sync kind's count x latency difference.

the WAL model estimates each kind of sync as count ×
the latency of its diskio mode, predicts the other environment's phase
as the baseline's plus every basis' count × latency difference (the
checkpoints without a file count: their time × (latency ratio − 1)),
shows the background share and the commit path alone apart, and says
what each prediction rests on: the share of the phase it covers, how it
compares with PostgreSQL's own time, the latency noise, the bases not
measured and the incomplete runs."""

import unittest

from diskio_analysis import noise
from diskio_analysis.walmodel import latency_metric, wal_model
from envlib import make_env

ROW = {"wal_write": 1000.0, "wal_sync": 500.0, "wal_write_time_ms": 300.0,
       "wal_sync_time_ms": 50.0, "wal_bytes": 32 << 20}
LAT = {"fdatasync.mean_us": 100.0, "fsync.mean_us": 200.0}
LAT_B = {"fdatasync.mean_us": 300.0, "fsync.mean_us": 600.0}


def model(base_row=ROW, other_row=ROW, base_lat=LAT, other_lat=LAT_B,
          base_settings=None, other_settings=None, notes=None):
    base = make_env("A", {"load": 10.0}, base_lat, {"load": base_row},
                    base_settings)
    other = make_env("B", {"load": 12.0}, other_lat, {"load": other_row},
                     other_settings)
    return wal_model(base, [base, other], "fdatasync",
                     [] if notes is None else notes)


class EstimateTest(unittest.TestCase):
    def test_sync_time_share_and_the_check_against_postgresql(self):
        est = model()["environments"]["A"]["phases"]["load"]
        commit = est["bases"]["wal_commit"]
        self.assertAlmostEqual(commit["est_s"], 0.05)        # 500 × 100 us
        self.assertAlmostEqual(commit["share"], 0.005)
        self.assertAlmostEqual(commit["pg_share"], 0.005)
        self.assertAlmostEqual(commit["pg_agreement"], 1.0)
        self.assertAlmostEqual(est["commit_path_share"], 0.005)
        self.assertIsNone(est["background_share"])

    def test_background_share_apart(self):
        row = dict(ROW, checkpoint_sync_files=100.0,
                   checkpoint_sync_time_ms=1000.0)
        est = model(row, row)["environments"]["A"]["phases"]["load"]
        self.assertAlmostEqual(est["background_share"], 100 * 200e-6 / 10)
        self.assertAlmostEqual(est["modelled_share"],
                               0.005 + 100 * 200e-6 / 10)
        self.assertAlmostEqual(est["checkpoint_share"], 0.002)

    def test_latency_metric_falls_back_to_the_8k_run(self):
        env = make_env("A", {"load": 1.0}, {"fsync@8k.mean_us": 5.0,
                                            "fsync@16m.mean_us": 9.0})
        self.assertEqual(latency_metric(env, "fsync"), "fsync@8k.mean_us")
        self.assertEqual(latency_metric(env, "fsync", 16 << 20),
                         "fsync@16m.mean_us")
        self.assertIsNone(latency_metric(env, "osync"))


class PredictionTest(unittest.TestCase):
    def test_the_bases_add_up(self):
        row = dict(ROW, checkpoint_sync_files=100.0,
                   checkpoint_sync_time_ms=1000.0, wal_segment_switches=2.0)
        p = model(row, dict(row, wal_sync=400.0))["predictions"][0][
            "phases"]["load"]
        wal = 500 * (300 - 100) / 1e6
        segments = 2 * (600 - 200) / 1e6
        checkpoint = 100 * (600 - 200) / 1e6
        self.assertAlmostEqual(p["bases"]["wal_commit"]["delta_s"], wal)
        self.assertAlmostEqual(p["bases"]["segment_switch"]["delta_s"],
                               segments)
        self.assertAlmostEqual(p["bases"]["checkpoint"]["delta_s"], checkpoint)
        self.assertAlmostEqual(p["predicted_s"],
                               10.0 + wal + segments + checkpoint)
        self.assertAlmostEqual(p["predicted_commit_path_s"],
                               10.0 + wal + segments)
        self.assertAlmostEqual(p["background_delta_s"], checkpoint)
        self.assertEqual(p["dominant_basis"], "wal_commit")
        self.assertAlmostEqual(p["actual_ratio"], 1.2)
        # the other environment's own WAL count: 400 × 300 − 500 × 100 us
        self.assertAlmostEqual(p["bases"]["wal_commit"]["delta_alt_s"], 0.07)

    def test_checkpoints_without_a_file_count_scale_their_time(self):
        row = dict(ROW, checkpoint_sync_time_ms=2000.0)
        p = model(row, row)["predictions"][0]["phases"]["load"]
        self.assertEqual(p["bases"]["checkpoint"]["how"],
                         "PostgreSQL's sync time x (latency ratio - 1)")
        self.assertAlmostEqual(p["bases"]["checkpoint"]["delta_s"],
                               2.0 * (600 / 200 - 1))
        self.assertEqual(p["dominant_basis"], "checkpoint")

    def test_counted_checkpoint_files_far_below_their_time_are_flagged(self):
        row = dict(ROW, checkpoint_sync_time_ms=2000.0,
                   checkpoint_sync_files=3.0, wal_sync_time_ms=0.0)
        p = model(row, row)["predictions"][0]["phases"]["load"]
        self.assertEqual(p["bases"]["checkpoint"]["how"],
                         "count x latency difference")
        self.assertAlmostEqual(p["bases"]["checkpoint"]["delta_s"],
                               3 * 400e-6)
        self.assertIn("0.0003x in A (checkpoint, disagrees)",
                      p["trust"]["pg_check"])

    def test_trust_names_what_was_not_measured(self):
        p = model(other_row=dict(ROW, wal_sync_time_ms=150.0))[
            "predictions"][0]["phases"]["load"]
        trust = p["trust"]
        self.assertEqual(sorted(trust["not_measured"]),
                         ["checkpoint", "segment_switch", "wal_background"])
        self.assertEqual(trust["pg_check"],
                         "diskio's count x latency against PostgreSQL's own "
                         "time: 1.00x in A (wal_commit, agrees), 1.00x in B "
                         "(wal_commit, agrees)")
        self.assertAlmostEqual(trust["modelled_share"], 0.005)
        self.assertAlmostEqual(trust["modelled_share_other"], 0.15 / 12)
        self.assertIn("no repetitions", trust["latency_noise"])
        self.assertIsNone(trust["predicted_ratio_range"])
        self.assertAlmostEqual(trust["residual_s"], 12.0 - p["predicted_s"])

    def test_untimed_wal_io_is_not_checked(self):
        untimed = dict(ROW, wal_sync_time_ms=0.0)
        p = model(untimed, untimed)["predictions"][0]["phases"]["load"]
        self.assertEqual(p["trust"]["pg_agreement"], {})
        self.assertIn("not checked", p["trust"]["pg_check"])
        est = model(dict(ROW, wal_sync_time_ms=0.0))["environments"]["A"][
            "phases"]["load"]
        self.assertIsNone(est["bases"]["wal_commit"]["pg_time_s"])

    def test_a_disagreement_with_postgresql_is_said(self):
        p = model(dict(ROW, wal_sync_time_ms=500.0))["predictions"][0][
            "phases"]["load"]
        self.assertIn("0.10x in A (wal_commit, disagrees)",
                      p["trust"]["pg_check"])

    def test_the_sync_part_is_held_against_postgresqls_sync_time(self):
        lat = dict(LAT, **{"fdatasync.sync_mean_us": 80.0})
        est = model(base_lat=lat)["environments"]["A"]["phases"]["load"]
        # 500 × 80 us against PostgreSQL's 50 ms
        self.assertAlmostEqual(est["bases"]["wal_commit"]["pg_agreement"],
                               0.8)
        self.assertAlmostEqual(est["bases"]["wal_commit"]["est_s"], 0.05)

    def test_times_too_small_to_compare_are_not_compared(self):
        tiny = dict(ROW, wal_sync=5.0, wal_sync_time_ms=0.01)
        est = model(tiny, tiny)["environments"]["A"]["phases"]["load"]
        self.assertIsNone(est["bases"]["wal_commit"]["pg_agreement"])

    def test_repeated_latencies_give_a_predicted_range(self):
        p = model(base_lat={"fdatasync.mean_us": [99.0, 100.0, 101.0]},
                  other_lat={"fdatasync.mean_us": [290.0, 300.0, 310.0]}
                  )["predictions"][0]["phases"]["load"]
        low, high = p["trust"]["predicted_ratio_range"]
        self.assertTrue(low < p["predicted_ratio"] < high)
        self.assertIn("interval", p["trust"]["latency_noise"])

    def test_the_phases_own_rounds_widen_the_predicted_range(self):
        base = make_env("A", {"load": 10.0}, {"fdatasync.mean_us": [99.0, 100.0, 101.0]},
                        {"load": ROW})
        other = make_env("B", {"load": 12.0}, {"fdatasync.mean_us": [290.0, 300.0, 310.0]},
                         {"load": ROW})
        without = wal_model(base, [base, other], "fdatasync", [])
        plain = without["predictions"][0]["phases"]["load"]["trust"]["predicted_ratio_range"]
        base.phase_rounds["load"] = [noise.Sample(v, f"r{i}") for i, v in
                                     enumerate((9.0, 10.0, 11.0))]
        other.phase_rounds["load"] = [noise.Sample(v, f"r{i}") for i, v in
                                      enumerate((11.0, 12.0, 13.0))]
        p = wal_model(base, [base, other], "fdatasync", [])["predictions"][0]["phases"]["load"]
        low, high = p["trust"]["predicted_ratio_range"]
        self.assertTrue(low < plain[0] and plain[1] < high, (plain, low, high))
        self.assertIsNotNone(p["trust"]["measured_ratio_interval"])

    def test_rounds_that_disagree_more_than_the_predicted_change_are_inconclusive(self):
        # the model predicts +10% (500 syncs x 200 us more of a 10 s phase
        # is +1%: make it large), the rounds spread by far more
        base = make_env("A", {"load": 10.0}, {"fdatasync.mean_us": [99.0, 100.0, 101.0]},
                        {"load": ROW})
        other = make_env("B", {"load": 12.0}, {"fdatasync.mean_us": [290.0, 300.0, 310.0]},
                         {"load": ROW})
        base.phase_rounds["load"] = [noise.Sample(v, f"a{i}") for i, v in
                                     enumerate((5.0, 10.0, 20.0))]
        other.phase_rounds["load"] = [noise.Sample(v, f"b{i}") for i, v in
                                      enumerate((6.0, 12.0, 24.0))]
        p = wal_model(base, [base, other], "fdatasync", [])["predictions"][0]["phases"]["load"]
        self.assertIn("rounds disagree by", p["trust"]["inconclusive"])
        self.assertIn("more than the predicted change +1%", p["trust"]["inconclusive"])

    def test_disturbed_latencies_are_named_in_the_trust(self):
        base = make_env("A", {"load": 10.0}, {}, {"load": ROW})
        other = make_env("B", {"load": 12.0}, {}, {"load": ROW})
        for env, values, bad in ((base, (99.0, 100.0, 101.0), ()),
                                 (other, (290.0, 300.0, 310.0), (0, 1))):
            for i, v in enumerate(values):
                why = ("other processes used 1.96 CPUs (threshold 1.00)",) if i in bad else ()
                env.add_metric("fdatasync.mean_us", v, f"{env.name}.json", repeat_of="diskio",
                               meta=(f"{env.name}.json", 1000.0 + 300 * i, why))
        p = wal_model(base, [base, other], "fdatasync", [])["predictions"][0]["phases"]["load"]
        self.assertIn("B: other processes used 1.96 CPUs", p["trust"]["disturbed"])

    def test_a_model_whose_syncs_outlast_the_phase_says_it_is_implausible(self):
        # 500 syncs x 100 us = 0.05 s in a phase of 10 s: plausible
        preds = model()["predictions"][0]["phases"]["load"]
        self.assertIsNone(preds["trust"]["implausible"])
        # 500 syncs x 30 ms = 15 s in a phase of 10 s: not
        slow = {"fdatasync.mean_us": 30000.0, "fsync.mean_us": 30000.0}
        fast = {"fdatasync.mean_us": 10.0, "fsync.mean_us": 10.0}
        preds = model(base_lat=slow, other_lat=fast)["predictions"][0]["phases"]["load"]
        self.assertLess(preds["predicted_s"], 0)
        text = preds["trust"]["implausible"]
        self.assertIn("150% of the baseline's phase", text)
        self.assertIn("no time left", text)

    def test_incomplete_runs_are_flagged(self):
        p = model(other_settings={"complete": False})["predictions"][0][
            "phases"]["load"]
        self.assertEqual(p["trust"]["incomplete_runs"], ["B"])
        est = model(base_settings={"complete": False})["environments"]["A"][
            "phases"]["load"]
        self.assertIs(est["complete"], False)

    def test_a_missing_latency_is_not_measured(self):
        notes = []
        p = model(other_lat={"fsync.mean_us": 600.0}, notes=notes)[
            "predictions"][0]["phases"]["load"]
        self.assertIn("no fdatasync.mean_us in both A and B",
                      p["bases"]["wal_commit"]["not_measured"])
        self.assertIn("B: wal.csv present but no fdatasync.mean_us", notes[0])

    def test_no_wal_no_model_and_baseline_without_wal_no_predictions(self):
        base = make_env("A", {"load": 10.0}, LAT)
        other = make_env("B", {"load": 12.0}, LAT_B, {"load": ROW})
        notes = []
        result = wal_model(base, [base, other], "fdatasync", notes)
        self.assertEqual(result["predictions"], [])
        self.assertIn("baseline A has no wal.csv", notes[-1])
        other.wal = {}
        self.assertIsNone(wal_model(base, [base, other], "fdatasync", []))


if __name__ == "__main__":
    unittest.main()
