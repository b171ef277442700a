# SPDX-License-Identifier: MIT
"""Description: the workload builds its psql scripts from the SQL files
with the scale factor's sizes, times queries from the server's time
stamps, checks the refresh size, and lists its q_time.csv and wal.csv
rows in the documented order (run here against a fake cluster)."""

import argparse
import datetime
import unittest

from diskio_analysis.errors import UsageError
from diskio_analysis.pgphases import workload
from diskio_analysis.pgphases.workload import Workload


def options(**kw):
    a = dict(sf=0.01, streams=2, refresh_size=None)
    a.update(kw)
    return argparse.Namespace(**a)


class ScriptsTest(unittest.TestCase):
    def test_scale_has_minimum_row_counts(self):
        self.assertEqual(workload.scale(0.001), {"nsupp": 10, "npart": 200, "ncust": 150})
        self.assertEqual(workload.scale(1.0),
                         {"nsupp": 10000, "npart": 200000, "ncust": 150000})

    def test_schema_and_load_scripts_carry_the_sizes(self):
        schema = workload.schema_script(0.5)
        self.assertTrue(schema.startswith("SET client_min_messages = warning;\n"))
        self.assertIn("i * (5000 / 4)) % 5000 + 1", schema)
        self.assertIn("(0.5 * 1000)::int", schema)
        load = workload.load_script(0.5, 750000, 300)
        self.assertIn("gen_orders(750000 + 1, 750000 + 300)", load)
        self.assertIn("FROM generate_series(1, 100000) AS k", load)
        self.assertNotIn("{{", schema + load)

    def test_query_11_fraction_follows_the_scale_factor(self):
        self.assertIn("* 0.0010000000", workload.queries(0.1)[11])
        self.assertIn("* 0.0001000000", workload.queries(1.0)[11])
        self.assertEqual(sorted(workload.queries(1.0)), list(range(1, 23)))

    def test_a_stream_times_each_query_between_two_time_stamps(self):
        qs = {1: "SELECT 1;", 2: "SELECT 2;"}
        lines = workload.stream_script(qs, [2, 1]).splitlines()
        self.assertEqual(lines[0], "SET client_min_messages = warning;")
        self.assertEqual(lines[1:4], [
            "SELECT '@@B', 2, extract(epoch FROM clock_timestamp());",
            "SELECT 2;", "SELECT '@@E', 2, extract(epoch FROM clock_timestamp());"])
        self.assertEqual(lines[5], "SELECT 1;")

    def test_a_refresh_function_commits_once_per_order(self):
        text = workload.refresh_script("rf2", 7, 3)
        self.assertEqual(text.count("BEGIN;"), 3)
        self.assertEqual(text.count("COMMIT;"), 3)
        self.assertIn("l_orderkey = 9;", text)
        self.assertNotIn("= 10;", text)
        self.assertIn("new_lineitem WHERE l_orderkey = 15001;",
                      workload.refresh_script("rf1", 15001, 1))

    def test_stream_rows_use_the_server_time_stamps(self):
        out = "@@B|3|1000.5\nsome|result\n@@E|3|1002.0\n@@B|1|1002.0\n@@E|1|1002.25\n"
        rows = workload.stream_rows("P", out)
        self.assertEqual([(r[0], r[3]) for r in rows], [("P.Q3", 1.5), ("P.Q1", 0.25)])
        self.assertEqual(rows[0][1], datetime.datetime.fromtimestamp(1000.5))


class SizesTest(unittest.TestCase):
    def test_default_refresh_is_one_percent_of_the_orders(self):
        w = Workload(options(sf=0.01))
        self.assertEqual((w.norders, w.refresh), (15000, 150))
        self.assertEqual(Workload(options(sf=0.001)).norders, 1500)

    def test_refresh_larger_than_the_orders_is_a_usage_error(self):
        with self.assertRaises(UsageError) as ctx:
            Workload(options(refresh_size=100000))
        self.assertEqual(str(ctx.exception), "--refresh-size 100000 x (streams 2 + 1) "
                         "is more than the 15000 orders loaded")


class FakeCluster:
    """psql answers streams with time stamps and records the rest."""

    def __init__(self):
        self.calls = []
        self.clock = 1000.0

    def psql(self, script, what, capture=False):
        self.calls.append(what)
        out = []
        for line in script.splitlines():
            if line.startswith("SELECT '@@"):
                self.clock += 0.01
                out.append("%s|%s|%.3f" % (line[8:11], line.split(", ")[1], self.clock))
        return "\n".join(out) + "\n" if capture else None


class PhasesTest(unittest.TestCase):
    def setUp(self):
        self.w = Workload(options(sf=0.001, streams=2, refresh_size=5))
        self.w.cluster = FakeCluster()
        self.n = 0

        def snapshot():
            self.n += 1
            return {"wal_sync": float(self.n), "checkpoint_sync_time_ms": 0.0}
        self.w.snapshot = snapshot

    def test_rows_are_listed_in_the_documented_order(self):
        s = self.w.phase_load()
        s = self.w.phase_power(s)
        self.w.phase_throughput(s)
        names = [t[0] for t in self.w.tasks]
        self.assertEqual(names[:3], ["LOAD", "LOAD.DATA", "LOAD.CHECKPOINT"])
        self.assertEqual(names[3:25], ["PERF.POWER.Q%d" % n for n in range(1, 23)])
        # q_time.csv: the power phase's row after its parts; wal.csv: before
        self.assertEqual(names[25:29], ["PERF.POWER.RF1", "PERF.POWER.RF2",
                                        "PERF.POWER", "PERF.THRUPUT"])
        self.assertEqual(names[29], "PERF.THRUPUT.QS1.ALL")
        self.assertEqual(names[-1], "PERF.THRUPUT.RFST")
        self.assertEqual([r[0] for r in self.w.walrows], [
            "LOAD", "LOAD.DATA", "LOAD.CHECKPOINT", "PERF.POWER", "PERF.POWER.RF1",
            "PERF.POWER.RF2", "PERF.THRUPUT"])

    def test_refresh_functions_walk_through_new_and_old_orders(self):
        self.w.rf1()
        self.w.rf1()
        self.w.rf2()
        self.assertEqual((self.w.next_rf1, self.w.next_rf2), (2, 1))
        self.assertEqual(self.w.cluster.calls, ["RF1", "RF1", "RF2"])


if __name__ == "__main__":
    unittest.main()
