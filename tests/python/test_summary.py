# SPDX-License-Identifier: MIT
"""Description: the correlate summary leads with the answer and fits a screen.

the correlate summary leads with the answer and fits a
screen (at most MAX_LINES lines) even on a full DBT-3 kit q_time.csv
(LOAD, the power test's RF1, 22 queries and RF2, four throughput streams
of 22 queries with their refresh streams: 131 phases): with wal.csv the
phases the WAL model predicts, the rest named as not predicted;
without it the top-level phases by default, one verdict each, the disk
metrics beyond noise, and across three environments the fit,
correlations withheld with their n (with wal.csv those are in the
details)."""

import os
import shutil
import unittest

from diskio_analysis.correlate.details import details_blocks
from diskio_analysis.correlate.environment import load_environment
from diskio_analysis.correlate.report import build_report
from diskio_analysis.correlate.summary import MAX_LINES, disk_line, summary_blocks
from diskio_analysis.document import draw_text
from envlib import make_env
from filelib import FIXTURES, TempDirTest

STREAMS = 4


def kit_tasks(scale):
    """The task names the DBT-3 kit's scripts record (dbt3-load-test,
    dbt3-power-test, dbt3-throughput-stream and its wrapper), with times
    that grow by scale."""
    tasks = [("LOAD", 1000.0), ("PERF.POWER", 300.0), ("PERF.POWER.RF1", 4.0)]
    tasks += [(f"PERF.POWER.Q{q}", 5.0 + q) for q in range(1, 23)]
    tasks += [("PERF.POWER.RF2", 3.0), ("PERF.THRUPUT", 900.0)]
    for n in range(1, STREAMS + 1):
        tasks.append((f"PERF.THRUPUT.QS{n}.ALL", 800.0 + n))
        tasks += [(f"PERF.THRUPUT.QS{n}.Q{q}", 20.0 + q) for q in range(1, 23)]
        tasks += [(f"PERF.THRUPUT.RFST{n}", 9.0), (f"PERF.THRUPUT.RFST{n}.RF1",
                                                   5.0),
                  (f"PERF.THRUPUT.RFST{n}.RF2", 4.0)]
    return [(name, seconds * scale) for name, seconds in tasks]


def q_time_csv(scale):
    lines = ["task_name,s_time,e_time,diff_time,seconds"]
    lines += [f"{name},2026-11-20 10:00:00,2026-11-20 10:10:00,00:10:00,"
              f"{seconds:.6f}" for name, seconds in kit_tasks(scale)]
    return "\n".join(lines) + "\n"


class KitTest(TempDirTest):
    def env(self, name, fixture, scale):
        directory = os.path.join(self.dir, name)
        os.mkdir(directory)
        shutil.copy(os.path.join(FIXTURES, fixture, "result.json"), directory)
        if os.path.exists(os.path.join(FIXTURES, fixture, "wal.csv")):
            shutil.copy(os.path.join(FIXTURES, fixture, "wal.csv"), directory)
        with open(os.path.join(directory, "q_time.csv"), "w") as out:
            out.write(q_time_csv(scale))
        return load_environment(directory)

    def summary(self, envs, **kw):
        report = build_report(envs, envs[0], "fdatasync", **kw)
        return report, draw_text(summary_blocks(report, False))

    def test_a_full_kit_q_time_summary_fits_one_screen(self):
        envs = [self.env("A", "env-a", 1.0), self.env("B", "env-b", 1.3)]
        report, text = self.summary(envs)
        self.assertEqual(len(report["phase_order"]), 131)
        lines = text.splitlines()
        self.assertLessEqual(len(lines), MAX_LINES, text)
        self.assertTrue(all(len(line) <= 100 for line in lines), text)
        # the top-level phases and those wal.csv counts (RF1, RF2)
        self.assertEqual(report["shown"]["phases"],
                         ["load", "power", "throughput", "power.rf1",
                          "power.rf2"])
        for phase in report["shown"]["phases"]:
            self.assertEqual(sum(line.split()[:2] == [phase, "off"]
                                 for line in lines), 1, text)
        self.assertIn("  not predicted: power.q1, power.q2, power.q3 and 123 "
                      "more: no WAL counters in A's wal.csv", lines)
        details = draw_text(details_blocks(report))
        self.assertIn("(5 of 131: --phases all)", " ".join(details.split()))
        self.assertNotIn("-- phase power.q1", details)

    def test_three_kit_environments_still_fit(self):
        envs = [self.env("A", "env-a", 1.0), self.env("B", "env-b", 1.3),
                self.env("C", "env-c", 1.1)]
        report, text = self.summary(envs)
        self.assertLessEqual(len(text.splitlines()), MAX_LINES, text)
        self.assertIn("== C vs A (baseline): the WAL model's prediction of "
                      "each phase ==", text)
        details = draw_text(details_blocks(report))
        self.assertIn("== across A, B, C ==", details)
        self.assertIn("Correlations withheld: n = 3 < 4", details)
        self.assertIn("fits best: R²", details)


class DiskLineTest(unittest.TestCase):
    def test_inconclusive_names_the_option_to_raise(self):
        row = {"verdict": "inconclusive", "ratio": 1.1, "more_repetitions": 9,
               "disturbed": None}
        line = disk_line({"metrics": {"fsync.mean_us": row}}, ["fsync.mean_us"])
        self.assertIn("inconclusive: 1 (9 more repetitions a side would decide: "
                      "raise --repeat)", line)


class SummaryTest(unittest.TestCase):
    def envs(self, other_metrics, other_phases=None, wal=None):
        base = make_env("A", {"load": 100.0, "power": 50.0,
                              "power.q1": 5.0},
                        {"fsync.mean_us": 100.0, "async.mean_us": 5.0},
                        wal and {"load": wal})
        other = make_env("B", other_phases or {"load": 130.0, "power": 50.5,
                                               "power.q1": 9.0},
                         other_metrics, wal and {"load": wal})
        return [base, other]

    def text(self, envs, details=False, **kw):
        report = build_report(envs, envs[0], "fdatasync", **kw)
        return draw_text(summary_blocks(report, details)
                         + (details_blocks(report) if details else []))

    def test_the_answer_first(self):
        text = self.text(self.envs({"fsync.mean_us": 151.0,
                                    "async.mean_us": 5.1}))
        lines = text.splitlines()
        self.assertEqual(lines[0], "diskio-correlate: B vs A (baseline)")
        self.assertIn("disks: slower: fsync.mean_us 1.51×; same within ±min_change: "
                      "0, inconclusive: 1 of 2", text)
        self.assertIn("  load: 1.30× (slower); consistent with fsync.mean_us "
                      "1.51× (needs 59%).", lines)
        self.assertIn("  power: same (1.01×, within 5%); nothing to explain "
                      "(fsync.mean_us changed without it).", lines)
        self.assertIn("Across environments: nothing with 2 (a fit needs 3, "
                      "a correlation 4).", text)
        self.assertIn("More: --details.", text)
        self.assertNotIn("power.q1", text)

    def test_phases_option_shows_the_others(self):
        import re
        text = self.text(self.envs({"fsync.mean_us": 151.0,
                                    "async.mean_us": 5.0}),
                         phases_wanted=re.compile(r"\.q1$"))
        self.assertIn("power.q1: 1.80× (slower); no disk metric moved enough "
                      "to explain this phase (fsync.mean_us 1.51× would need "
                      "157% of it: implausible).", " ".join(text.split()))

    def test_the_wal_model_clause(self):
        wal = {"wal_write": 10.0, "wal_sync": 1e5, "wal_write_time_ms": 1.0,
               "wal_sync_time_ms": 0.0, "wal_bytes": 100.0}
        envs = self.envs({"fsync.mean_us": 151.0, "async.mean_us": 5.0},
                         wal=wal)
        for env in envs:
            env.add_metric("fdatasync.mean_us",
                           80.0 if env.name == "A" else 104.0, "m.csv")
        # under --details, beside each phase's verdict
        text = " ".join(self.text(envs, details=True).split())
        self.assertIn("WAL model 1.02× (commit path 1.02×; syncs 8.0%→8.0%).",
                      text)
        self.assertIn("vs PostgreSQL: their time / its own; not measured: "
                      "wal_background, segment_switch, checkpoint.", text)

    def test_an_implausible_wal_model_says_so_in_the_summary(self):
        # 1e5 syncs x 2 ms = 200 s in a phase of 100 s
        wal = {"wal_write": 10.0, "wal_sync": 1e5, "wal_write_time_ms": 1.0,
               "wal_sync_time_ms": 0.0, "wal_bytes": 100.0}
        envs = self.envs({"fsync.mean_us": 151.0, "async.mean_us": 5.0},
                         wal=wal)
        for env in envs:
            env.add_metric("fdatasync.mean_us",
                           2000.0 if env.name == "A" else 20.0, "m.csv")
        text = " ".join(self.text(envs).split())
        self.assertIn("IMPLAUSIBLE: count x diskio latency is 200% of the "
                      "baseline's phase", text)


if __name__ == "__main__":
    unittest.main()
