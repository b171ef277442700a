# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases' rounds give medians, every round's seconds and their spread.

diskio-pgphases' rounds: q_time.csv gives each task's
median over the rounds with the first round's time stamps, wal.csv each
counter's median, rounds.csv every round's seconds, and each task's
spread is (max - min) / median, none for a task of one round."""

import contextlib
import datetime
import io
import unittest

from diskio_analysis.pgphases import command, rounds, workload

T0 = datetime.datetime(2026, 11, 27, 12, 0, 0)
T1 = datetime.datetime(2026, 11, 27, 12, 0, 2)


def tasks(load, rf1):
    return [("LOAD", T0, T1, load), ("PERF.POWER.RF1", T0, T1, rf1)]


class RoundsTest(unittest.TestCase):
    def setUp(self):
        self.rounds = [tasks(2.0, 1.0), tasks(2.2, 1.3), tasks(1.9, 1.1)]

    def test_each_task_is_its_median_with_the_first_rounds_time_stamps(self):
        self.assertEqual(rounds.median_tasks(self.rounds),
                         [("LOAD", T0, T1, 2.0), ("PERF.POWER.RF1", T0, T1, 1.1)])

    def test_each_counter_is_its_median(self):
        walrows = [[("LOAD", {"wal_sync": s, "xact_commit": c})]
                   for s, c in ((10, 5), (30, 7), (20, 6))]
        self.assertEqual(rounds.median_walrows(walrows),
                         [("LOAD", {"wal_sync": 20, "xact_commit": 6})])

    def test_rounds_csv_lists_every_round(self):
        rows = rounds.round_rows(self.rounds)
        self.assertEqual(rows[:2], [("LOAD", 1, 2.0), ("PERF.POWER.RF1", 1, 1.0)])
        self.assertEqual(len(rows), 6)
        self.assertEqual(rows[-1], ("PERF.POWER.RF1", 3, 1.1))

    def test_the_spread_is_the_range_over_the_median(self):
        s = rounds.spread(self.rounds)
        self.assertAlmostEqual(s["PERF.POWER.RF1"]["spread"], 0.3 / 1.1)
        self.assertEqual((s["LOAD"]["min_s"], s["LOAD"]["max_s"]), (1.9, 2.2))
        self.assertIsNone(rounds.spread(self.rounds[:1])["LOAD"]["spread"])
        self.assertEqual(rounds.spread_line("LOAD", s["LOAD"]),
                         "LOAD 2.000 s (1.900-2.200, spread 15.0%)")

    def test_the_progress_shows_the_phases_the_probe_and_the_refreshes(self):
        self.assertTrue(rounds.shown("PERF.POWER"))
        self.assertTrue(rounds.shown("COMMIT.C4"))
        self.assertTrue(rounds.shown("PERF.POWER.RF2"))
        self.assertFalse(rounds.shown("PERF.POWER.Q14"))
        self.assertFalse(rounds.shown("LOAD.DATA"))


class OptionsTest(unittest.TestCase):
    def test_three_rounds_and_no_commit_probe_by_default(self):
        a = command.parse_args(["-o", "out", "dir"])
        self.assertEqual((a.rounds, a.commit_probe, a.probe_committers), (3, 0, [1, 4]))
        a = command.parse_args(["-o", "out", "--rounds", "1", "--commit-probe", "500",
                                "--probe-committers", "1,2,8", "dir"])
        self.assertEqual((a.rounds, a.commit_probe, a.probe_committers), (1, 500, [1, 2, 8]))
        self.assertEqual(workload.probe_task(4), "COMMIT.C4")

    def test_bad_rounds_and_committers_are_usage_errors(self):
        for bad in (["--rounds", "0"], ["--commit-probe", "-1"],
                    ["--probe-committers", "1,1"], ["--probe-committers", "0"],
                    ["--probe-committers", "x"]):
            with self.assertRaises(SystemExit) as ctx, \
                    contextlib.redirect_stderr(io.StringIO()):
                command.parse_args(["-o", "out"] + bad + ["dir"])
            self.assertEqual(ctx.exception.code, 2, bad)


if __name__ == "__main__":
    unittest.main()
