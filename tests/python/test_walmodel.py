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

import os
import shutil
import subprocess
import tempfile
import unittest

from diskio_analysis import noise
from diskio_analysis.correlate.environment import load_environment
from diskio_analysis.correlate.details import prediction_rows
from diskio_analysis.correlate.walmodel import commit_pause_ns, latency_metric, pick_run, \
    wal_model
from envlib import make_env, wal_runs

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

    def test_the_syncs_postgresql_timed_are_told_apart_from_the_rest_of_the_phase(self):
        # PostgreSQL's own sync time went from 50 to 150 ms, as the model
        # predicts (500 × (300 − 100) us); the phase from 10 to 12 s
        m = model(other_row=dict(ROW, wal_sync_time_ms=150.0))
        t = m["predictions"][0]["phases"]["load"]["trust"]
        self.assertAlmostEqual(t["syncs_predicted_delta_s"], 0.1)
        self.assertAlmostEqual(t["syncs_postgres_delta_s"], 0.1)
        self.assertAlmostEqual(t["rest_delta_s"], 1.9)
        _, texts = prediction_rows(m, {"load"})
        self.assertIn("the commit path's syncs changed by +0.100 s by PostgreSQL's own "
                      "timing (predicted +0.100 s), the rest of the phase by +1.900 s",
                      texts[0])

    def test_the_cpu_time_spent_beside_the_rest_is_its_change_in_the_median_round(self):
        base = make_env("A", {"load": 10.0}, LAT, {"load": ROW})
        other = make_env("B", {"load": 12.0}, LAT_B, {"load": dict(ROW, wal_sync_time_ms=150.0)})
        base.phase_cpu_rounds["load"] = [4.0, 4.2, 9.0]
        other.phase_cpu_rounds["load"] = [5.0, 4.9, 5.1]
        m = wal_model(base, [base, other], "fdatasync", [])
        t = m["predictions"][0]["phases"]["load"]["trust"]
        self.assertAlmostEqual(t["cpu_delta_s"], 5.0 - 4.2)
        _, texts = prediction_rows(m, {"load"})
        self.assertIn("the rest of the phase by +1.900 s; the CPU time of the server's "
                      "processes and their client changed by +0.800 s", texts[0])

    def test_no_cpu_change_where_one_side_did_not_record_it(self):
        base = make_env("A", {"load": 10.0}, LAT, {"load": ROW})
        other = make_env("B", {"load": 12.0}, LAT_B, {"load": ROW})
        other.phase_cpu_rounds["load"] = [5.0]
        m = wal_model(base, [base, other], "fdatasync", [])
        self.assertIsNone(m["predictions"][0]["phases"]["load"]["trust"]["cpu_delta_s"])
        _, texts = prediction_rows(m, {"load"})
        self.assertNotIn("CPU time", texts[0])

    def test_untimed_syncs_fall_in_the_rest(self):
        # segment switches are counted, never timed by PostgreSQL: the
        # check holds the WAL flushes alone, the switches' change is rest
        row = dict(ROW, wal_segment_switches=2.0)
        m = model(row, dict(row, wal_sync_time_ms=150.0))
        p = m["predictions"][0]["phases"]["load"]
        self.assertIsNotNone(p["bases"]["segment_switch"]["delta_s"])
        self.assertAlmostEqual(p["trust"]["syncs_predicted_delta_s"], 0.1)
        self.assertAlmostEqual(p["trust"]["syncs_postgres_delta_s"], 0.1)
        self.assertAlmostEqual(p["trust"]["rest_delta_s"], 1.9)

    def test_syncs_postgresql_did_not_time_on_both_sides_are_not_told_apart(self):
        for other in (dict(ROW, wal_sync_time_ms=0.0), None):
            m = model(other_row=other) if other else model()
            t = m["predictions"][0]["phases"]["load"]["trust"]
            if other:
                self.assertIsNone(t["syncs_postgres_delta_s"])
                self.assertIsNone(t["rest_delta_s"])
                _, texts = prediction_rows(m, {"load"})
                self.assertNotIn("the rest of the phase", texts[0])
            else:
                # the same timing on both sides: the whole change is the rest
                self.assertAlmostEqual(t["syncs_postgres_delta_s"], 0.0)
                self.assertAlmostEqual(t["rest_delta_s"], 2.0)

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


RUNS_A = [("wal", "fdatasync", 1, 0, {"mean_us": 400, "sync_mean_us": 390}),
          ("wal", "fdatasync", 1, 150000, {"mean_us": 520, "sync_mean_us": 500}),
          ("wal", "fdatasync", 4, 150000, {"mean_us": 700, "sync_mean_us": 600}),
          ("wal", "odsync", 1, 0, {"mean_us": 450, "write_mean_us": 440}),
          ("checkpoint", "fsync", 1, 0, {"mean_us": 30, "sync_mean_us": 4000,
                                          "write_mean_us": 5})]
RUNS_B = [(p, m, j, g, {k: 2 * v for k, v in parts.items()})
          for p, m, j, g, parts in RUNS_A]


class CommitPauseTest(unittest.TestCase):
    """The pause between one committer's commits, from a phase's time per
    commit: the same transactions give the same pause alone and sharing
    the WAL."""

    def test_a_lone_committer_waits_for_its_own_flush(self):
        # 500 us per commit, 330 us of it the WAL's
        self.assertEqual(commit_pause_ns(500e-6, 1, 1.0, 330e-6), 170000)

    def test_committers_sharing_the_wal_wait_for_the_flush_under_way_too(self):
        # PostgreSQL's commit probes here, first round of
        # bench/results/real-envs-duel-2026-11-27.json: on ext4 one
        # session had 100 us between commits; four had 0.50 syncs per
        # commit, 277 us per flush and 627 us per commit each.  The flush
        # under way is not the transaction's work.
        self.assertAlmostEqual(commit_pause_ns(627e-6, 4, 0.50, 277e-6) / 1000, 100, delta=10)
        # btrfs: alone 80 us; four sessions 0.48, 662 us, 1.362 ms
        self.assertAlmostEqual(commit_pause_ns(1362e-6, 4, 0.48, 662e-6) / 1000, 80, delta=10)

    def test_an_idle_wal_adds_only_its_share(self):
        # the WAL busy a fifth of the time: a commit waits 1.2 flushes
        self.assertEqual(commit_pause_ns(1e-3, 2, 1.0, 100e-6), 880000)

    def test_never_negative_or_from_nothing(self):
        self.assertEqual(commit_pause_ns(300e-6, 4, 1.0, 200e-6), 0)
        self.assertEqual(commit_pause_ns(0.0, 1, 1.0, 1e-4), 0)
        self.assertEqual(commit_pause_ns(1e-3, 1, 1.0, 0.0), 0)


class RunChoiceTest(unittest.TestCase):
    """Which diskio run stands for PostgreSQL's syncs: --pattern wal of
    the wal_sync_method's mode, the phase's committers, the nearest pause
    between commits, and the part PostgreSQL's counter counts; the
    checkpoint's file syncs by --pattern checkpoint; the plain mode only
    where there is no such run."""

    def env(self, name, runs, committers=None, phases=None, wal=None):
        phases = phases or {"commit.c1": 1.0, "commit.c4": 1.0}
        # 2000 commits in 1 s at one committer: 500 us each, 330 of it WAL
        wal = wal or {"commit.c1": dict(ROW, wal_sync=2000.0, wal_write=2000.0,
                                        wal_sync_time_ms=600.0, wal_write_time_ms=60.0,
                                        xact_commit=2000.0),
                      "commit.c4": dict(ROW, wal_sync=1000.0, wal_write=1000.0,
                                        wal_sync_time_ms=600.0, wal_write_time_ms=20.0,
                                        xact_commit=4000.0)}
        env = make_env(name, phases, LAT, wal, {"phase_committers": committers or
                                                {"commit.c4": 4}})
        return wal_runs(env, runs)

    def test_the_committers_and_the_pause_pick_the_wal_run(self):
        a = self.env("A", RUNS_A)
        self.assertEqual(pick_run(a, "wal", "fdatasync", 4, 0)["prefix"],
                         "fdatasync@wal-jobs4-gap150us")
        self.assertEqual(pick_run(a, "wal", "fdatasync", 1, 140000)["prefix"],
                         "fdatasync@wal-gap150us")
        self.assertEqual(pick_run(a, "wal", "fdatasync", 1, 1000)["prefix"], "fdatasync@wal")
        self.assertIsNone(pick_run(a, "wal", "fsync", 1, 0))
        m = wal_model(a, [a, self.env("B", RUNS_B)], "fdatasync", [])
        phases = m["environments"]["A"]["phases"]
        c1, c4 = phases["commit.c1"], phases["commit.c4"]
        self.assertEqual((c1["context"]["committers"], c4["context"]["committers"]), (1, 4))
        # commit.c1: 1 s / 2000 commits - 660 ms / 2000 = 170 us between commits
        self.assertEqual(c1["context"]["gap_ns"], 170000)
        self.assertEqual(c1["bases"]["wal_commit"]["latency_metric"],
                         "fdatasync@wal-gap150us.sync_mean_us")
        self.assertEqual(c4["bases"]["wal_commit"]["latency_metric"],
                         "fdatasync@wal-jobs4-gap150us.sync_mean_us")
        # count x the sync part against PostgreSQL's own sync time
        self.assertAlmostEqual(c1["bases"]["wal_commit"]["est_s"], 2000 * 500e-6)
        self.assertAlmostEqual(c1["bases"]["wal_commit"]["pg_agreement"], 1.0 / 0.6)
        # the other environment uses the baseline's run
        p = m["predictions"][0]["phases"]["commit.c4"]["bases"]["wal_commit"]
        self.assertEqual((p["latency_baseline_us"], p["latency_other_us"]), (600, 1200))

    def test_open_datasync_takes_the_synced_write(self):
        a = self.env("A", RUNS_A)
        m = wal_model(a, [a], "open_datasync", [])
        b = m["environments"]["A"]["phases"]["commit.c1"]["bases"]["wal_commit"]
        self.assertEqual(b["latency_metric"], "odsync@wal.write_mean_us")
        self.assertEqual(b["pg_time_column"], "wal_write_time_ms")

    def test_checkpoint_file_syncs_take_the_checkpoint_run(self):
        row = dict(ROW, checkpoint_sync_files=10.0, checkpoint_sync_time_ms=50.0)
        a = self.env("A", RUNS_A, phases={"load": 10.0}, wal={"load": row})
        m = wal_model(a, [a], "fdatasync", [])
        b = m["environments"]["A"]["phases"]["load"]["bases"]["checkpoint"]
        self.assertEqual(b["latency_metric"], "fsync@checkpoint.sync_mean_us")
        self.assertAlmostEqual(b["est_s"], 10 * 4000e-6)
        cal = m["calibration"]["A"]["checkpoint"]
        self.assertAlmostEqual(cal["pg_us"], 5000.0)
        self.assertAlmostEqual(cal["ratio"], 0.8)

    def test_without_pattern_runs_the_plain_mode_stands_in(self):
        a = self.env("A", [])
        m = wal_model(a, [a], "fdatasync", [])
        b = m["environments"]["A"]["phases"]["commit.c4"]["bases"]["wal_commit"]
        self.assertEqual(b["latency_metric"], "fdatasync.mean_us")

    def test_the_calibration_line_holds_each_probe_against_its_run(self):
        a = self.env("A", RUNS_A)
        cal = wal_model(a, [a], "fdatasync", [])["calibration"]["A"]
        self.assertEqual([c["phase"] for c in cal["wal"]], ["commit.c1", "commit.c4"])
        c1, c4 = cal["wal"]
        self.assertAlmostEqual(c1["pg_us"], 300.0)
        self.assertAlmostEqual(c1["ratio"], 500 / 300)
        self.assertAlmostEqual(c4["pg_syncs_per_commit"], 0.25)
        self.assertIn("commit.c4 (4 committers): PostgreSQL 600 us per WAL sync, diskio "
                      "fdatasync@wal-jobs4-gap150us 600 us (1.00x)", cal["text"])
        self.assertEqual(cal["short"], "A 1.67x, 1.00x")
        self.assertIsNone(c4["pg_cpus"])
        self.assertNotIn("CPUs busy", cal["text"])

    def test_the_calibration_says_how_busy_postgresql_kept_the_cpus(self):
        a = self.env("A", RUNS_A)
        # commit.c4 took 1 s; the server and pgbench used 1.3 s of CPU
        a.phase_cpu_rounds["commit.c4"] = [1.3]
        cal = wal_model(a, [a], "fdatasync", [])["calibration"]["A"]
        c1, c4 = cal["wal"]
        self.assertIsNone(c1["pg_cpus"])
        self.assertAlmostEqual(c4["pg_cpus"], 1.3 / a.phases["commit.c4"])
        self.assertIn("(1.00x), PostgreSQL and its client %.2f CPUs busy"
                      % (1.3 / a.phases["commit.c4"]), cal["text"])

    def test_the_calibration_holds_the_devices_time_under_both(self):
        # PostgreSQL's commit.c4 rounds: the data directory's device took
        # 170-180 us per flush; under diskio's runs 165 us
        a = wal_runs(self.env("A", []), RUNS_A, device_us={"write": 100.0, "flush": 165.0})
        a.phase_device_rounds["commit.c4"] = {"write": [110.0, 115.0, 120.0],
                                              "flush": [170.0, 180.0, 176.0]}
        cal = wal_model(a, [a], "fdatasync", [])["calibration"]["A"]
        c1, c4 = cal["wal"]
        self.assertEqual(c4["device_us"], {"write": {"pg": 115.0, "diskio": 100.0},
                                           "flush": {"pg": 176.0, "diskio": 165.0}})
        self.assertIn("(1.00x), the device 176 us per flush under PostgreSQL, 165 us "
                      "under diskio", cal["text"])
        # commit.c1's rounds recorded none: nothing said of its device
        self.assertEqual(c1["device_us"]["flush"], {"pg": None, "diskio": 165.0})
        self.assertEqual(cal["text"].count("the device"), 1)

    def test_without_flushes_the_calibration_holds_the_writes(self):
        # a device that is never flushed (ext4 nobarrier): its writes
        a = wal_runs(self.env("A", []), RUNS_A, device_us={"write": 30.0, "flush": None})
        a.phase_device_rounds["commit.c4"] = {"write": [44.0]}
        cal = wal_model(a, [a], "fdatasync", [])["calibration"]["A"]
        self.assertIn("the device 44 us per write under PostgreSQL, 30 us under diskio",
                      cal["text"])


class ResultFileTest(unittest.TestCase):
    """The names a real diskio result gives its --pattern wal runs, and
    the runs the model picks from them."""

    def test_a_real_result_names_its_wal_and_checkpoint_runs(self):
        diskio = os.path.join(os.environ.get("top_builddir", "."), "diskio")
        if not os.access(diskio, os.X_OK):
            self.skipTest("no diskio built")
        top = tempfile.mkdtemp(prefix="test-walmodel.")
        self.addCleanup(shutil.rmtree, top)
        os.mkdir(os.path.join(top, "dir"))
        env_dir = os.path.join(top, "env")
        os.mkdir(env_dir)
        for i, extra in enumerate((["--pattern", "wal", "--mode", "fdatasync", "--jobs", "1,2"],
                                   ["--pattern", "wal", "--mode", "fdatasync",
                                    "--wal-gap", "0.1ms"],
                                   ["--pattern", "checkpoint", "--size", "1m",
                                    "--checkpoint-files", "2", "--checkpoint-pages", "16"],
                                   ["--mode", "fdatasync"])):
            subprocess.run([diskio, "-q", "--count", "20", "--warmup", "0", "--output",
                            os.path.join(env_dir, f"r{i}.json")] + extra +
                           [os.path.join(top, "dir")], check=True)
        with open(os.path.join(env_dir, "phases.csv"), "w") as f:
            f.write("phase,seconds\nload,1.0\n")
        env = load_environment(env_dir)
        names = sorted(r["prefix"] for r in env.pattern_runs)
        self.assertEqual(names, ["fdatasync@wal", "fdatasync@wal-gap100us",
                                 "fdatasync@wal-jobs2", "fsync@checkpoint"])
        self.assertIn("fdatasync.mean_us", env.metrics)
        self.assertIn("fdatasync@wal-jobs2.sync_mean_us", env.metrics)
        self.assertIn("fsync@checkpoint.sync_mean_us", env.metrics)
        self.assertEqual(pick_run(env, "wal", "fdatasync", 2)["jobs"], 2)
        self.assertEqual(pick_run(env, "wal", "fdatasync", 1, 90000)["gap_ns"], 100000)


if __name__ == "__main__":
    unittest.main()
