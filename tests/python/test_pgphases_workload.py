# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases builds and times the DBT-3 kit's phases from its SQL files.

the workload builds its psql scripts from the SQL files
with the scale factor's sizes, times queries from the server's time
stamps, runs the DBT-3 kit's power test (RF1, the 22 queries in stream
0's order, RF2) and throughput test (each query stream in its own order,
the refresh stream's RFST<n>, .RF1, .RF2 tasks), refreshes 0.1% of the
orders in one transaction per RF1 and RF2 unless --commit-every asks
for more commits, and lists its q_time.csv and wal.csv rows in the
documented order (run here against a fake cluster)."""

import argparse
import datetime
import unittest
from unittest import mock

from diskio_analysis.errors import UsageError
from diskio_analysis.pgphases import interference, stats, workload
from diskio_analysis.pgphases.workload import Workload


def options(**kw):
    a = dict(sf=0.01, streams=2, refresh_size=None, commit_every=None)
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

    def test_a_refresh_function_is_one_transaction_as_in_the_kit(self):
        text = workload.refresh_script("rf2", 7, 3)
        self.assertEqual(text.count("BEGIN;"), 1)
        self.assertEqual(text.count("COMMIT;"), 1)
        self.assertIn("l_orderkey BETWEEN 7 AND 9;", text)
        self.assertIn("o_orderkey BETWEEN 7 AND 9;", text)
        self.assertIn("FROM new_lineitem\n  WHERE l_orderkey BETWEEN 15001 AND 15015;",
                      workload.refresh_script("rf1", 15001, 15))

    def test_commit_every_n_orders_splits_the_refresh_into_transactions(self):
        text = workload.refresh_script("rf1", 101, 10, 4)
        self.assertEqual(text.count("COMMIT;"), 3)
        for lo, hi in ((101, 104), (105, 108), (109, 110)):
            self.assertIn("o_orderkey BETWEEN %d AND %d;" % (lo, hi), text)
        one = workload.refresh_script("rf2", 7, 3, 1)
        self.assertEqual(one.count("COMMIT;"), 3)
        self.assertIn("l_orderkey BETWEEN 8 AND 8;", one)
        self.assertEqual(workload.refresh_script("rf2", 7, 3, 50).count("COMMIT;"), 1)
        self.assertEqual([workload.commits(10, e) for e in (None, 1, 4, 10, 50)],
                         [1, 10, 3, 1, 1])

    def test_stream_rows_use_the_server_time_stamps(self):
        out = "@@B|3|1000.5\nsome|result\n@@E|3|1002.0\n@@B|1|1002.0\n@@E|1|1002.25\n"
        rows = workload.stream_rows("P", out)
        self.assertEqual([(r[0], r[3]) for r in rows], [("P.Q3", 1.5), ("P.Q1", 0.25)])
        self.assertEqual(rows[0][1], datetime.datetime.fromtimestamp(1000.5))


class OrderTest(unittest.TestCase):
    def test_the_power_stream_runs_qgens_stream_0_order(self):
        self.assertEqual(workload.stream_order(0), [
            14, 2, 9, 20, 6, 17, 18, 8, 21, 13, 3, 22, 16, 4, 11, 15, 1, 10, 19, 5, 7, 12])

    def test_throughput_streams_take_the_following_rows(self):
        self.assertEqual(workload.stream_order(1)[:6], [21, 3, 18, 5, 11, 7])
        self.assertEqual(workload.stream_order(2)[:6], [6, 17, 14, 16, 19, 10])
        self.assertEqual(workload.stream_order(40)[-3:], [12, 5, 19])
        # qgen wraps the stream number around the 41 rows
        self.assertEqual(workload.stream_order(41), workload.stream_order(0))
        self.assertEqual(workload.stream_order(43), workload.stream_order(2))

    def test_every_row_is_a_permutation_of_the_22_queries(self):
        self.assertEqual(len(workload.PERMUTATIONS), 41)
        for row in workload.PERMUTATIONS:
            self.assertEqual(sorted(row), list(range(1, 23)))
        self.assertEqual(len(set(workload.PERMUTATIONS)), 41)


class SizesTest(unittest.TestCase):
    def test_default_refresh_is_sf_times_1500_orders(self):
        w = Workload(options(sf=0.01))
        self.assertEqual((w.norders, w.refresh, w.commits), (15000, 15, 1))
        self.assertEqual(Workload(options(sf=1.0)).refresh, 1500)
        self.assertEqual(Workload(options(sf=0.005)).refresh, 7)
        w = Workload(options(sf=0.001))
        self.assertEqual((w.norders, w.refresh), (1500, 1))

    def test_commit_every_sets_the_commits_per_refresh(self):
        w = Workload(options(sf=0.01, commit_every=1, refresh_size=15))
        self.assertEqual((w.refresh, w.commit_every, w.commits), (15, 1, 15))
        w = Workload(options(sf=0.01, refresh_size=150, commit_every=20))
        self.assertEqual((w.refresh, w.commits), (150, 8))

    def test_the_commit_heavy_variant_commits_enough_to_be_measured(self):
        # without --refresh-size, 4000 commits per refresh function (2 s and
        # more here), within the orders the load makes room for
        w = Workload(options(sf=0.01, commit_every=1))
        self.assertEqual((w.refresh, w.commits), (4000, 4000))
        w = Workload(options(sf=0.01, commit_every=2))
        self.assertEqual((w.refresh, w.commits), (5000, 2500))
        w = Workload(options(sf=0.001, commit_every=1))
        self.assertEqual((w.refresh, w.commits), (500, 500))
        self.assertEqual(Workload(options(sf=0.01)).refresh, 15)

    def test_refresh_larger_than_the_orders_is_a_usage_error(self):
        with self.assertRaises(UsageError) as ctx:
            Workload(options(refresh_size=100000))
        self.assertEqual(str(ctx.exception), "--refresh-size 100000 x (streams 2 + 1) "
                         "is more than the 15000 orders loaded")


class FakeCluster:
    """psql answers streams with time stamps and records the rest."""

    def __init__(self):
        self.calls = []
        self.scripts = {}
        self.clock = 1000.0

    def psql(self, script, what, capture=False):
        self.calls.append(what)
        self.scripts.setdefault(what, []).append(script)
        out = []
        for line in script.splitlines():
            if line.startswith("SELECT '@@"):
                self.clock += 0.01
                out.append("%s|%s|%.3f" % (line[8:11], line.split(", ")[1], self.clock))
        return "\n".join(out) + "\n" if capture else None


class InterferenceWindowTest(unittest.TestCase):
    def test_a_phases_interference_leaves_out_the_counters_reading(self):
        # each reading of the server's counters takes 1 s (the statistics
        # pause and a psql); RF1 and RF2 take 0.25 s each
        clock = [0.0]

        def machine():
            return {"elapsed": clock[0], "own_s": clock[0] / 2, "server_s": clock[0] / 4,
                    "client_s": clock[0] / 4, "stat": None, "hz": 100,
                    "psi": {k: None for k in interference.PSI}, "dirty_kib": None,
                    "devices": {}}

        def counters(cluster):
            clock[0] += 1.0
            return dict({k: 0.0 for k in stats.COUNTERS}, checkpoint_sync_files=0.0)
        cluster = FakeCluster()
        psql = cluster.psql

        def timed_psql(script, what, capture=False):
            if what in ("RF1", "RF2"):
                clock[0] += 0.25
            return psql(script, what, capture)
        cluster.psql = timed_psql
        w = Workload(options(sf=0.001, streams=2, refresh_size=5))
        w.cluster, w.interference_snapshot = cluster, machine
        with mock.patch.object(workload.stats, "snapshot", counters):
            w.phase_power(w.snapshot())
        rows = dict(w.ifrrows)
        self.assertEqual(rows["PERF.POWER.RF1"]["wall_s"], 0.25)
        self.assertEqual(rows["PERF.POWER.RF2"]["wall_s"], 0.25)
        self.assertEqual(rows["PERF.POWER.RF2"]["server_cpus"], 0.25)
        # the power test: RF1, the queries and RF2, and the reading of the
        # counters between them, which other phases' rows leave out
        self.assertEqual(rows["PERF.POWER"]["wall_s"], 2.5)


class PhasesTest(unittest.TestCase):
    def setUp(self, **kw):
        opts = dict(sf=0.001, streams=2, refresh_size=5)
        opts.update(kw)
        self.w = Workload(options(**opts))
        self.w.cluster = FakeCluster()
        self.n = 0

        def snapshot():
            self.n += 1
            return {"wal_sync": float(self.n), "checkpoint_sync_time_ms": 0.0}
        self.w.snapshot = snapshot

    def run_all(self):
        s = self.w.phase_load()
        s = self.w.phase_power(s)
        self.w.phase_throughput(s)
        return [t[0] for t in self.w.tasks]

    def test_the_power_test_runs_rf1_then_the_queries_then_rf2(self):
        s = self.w.phase_load()
        self.w.cluster.calls.clear()
        self.w.phase_power(s)
        self.assertEqual(self.w.cluster.calls, ["RF1", "PERF.POWER", "RF2"])
        names = [t[0] for t in self.w.tasks[3:]]
        self.assertEqual(names, ["PERF.POWER", "PERF.POWER.RF1"]
                         + ["PERF.POWER.Q%d" % n for n in workload.stream_order(0)]
                         + ["PERF.POWER.RF2"])
        self.assertEqual(names[2], "PERF.POWER.Q14")
        rows = {t[0]: t for t in self.w.tasks}
        power = rows["PERF.POWER"]
        # RF1 + the query block + RF2 (the queries' own rows carry the
        # server's time stamps, here the fake's clock)
        self.assertGreaterEqual(power[3], rows["PERF.POWER.RF1"][3]
                                + rows["PERF.POWER.RF2"][3])
        self.assertEqual(power[1], rows["PERF.POWER.RF1"][1])
        self.assertEqual(power[2], rows["PERF.POWER.RF2"][2])

    def test_rows_are_listed_in_the_kits_task_names_and_order(self):
        names = self.run_all()
        self.assertEqual(names[:3], ["LOAD", "LOAD.DATA", "LOAD.CHECKPOINT"])
        self.assertEqual(names[3:5], ["PERF.POWER", "PERF.POWER.RF1"])
        self.assertEqual(names[27:29], ["PERF.POWER.RF2", "PERF.THRUPUT"])
        qs1 = ["PERF.THRUPUT.QS1.ALL"] + ["PERF.THRUPUT.QS1.Q%d" % n
                                         for n in workload.stream_order(1)]
        qs2 = ["PERF.THRUPUT.QS2.ALL"] + ["PERF.THRUPUT.QS2.Q%d" % n
                                         for n in workload.stream_order(2)]
        self.assertEqual(names[29:75], qs1 + qs2)
        self.assertEqual(names[30], "PERF.THRUPUT.QS1.Q21")
        self.assertEqual(names[75:], [
            "PERF.THRUPUT.RFST1", "PERF.THRUPUT.RFST1.RF1", "PERF.THRUPUT.RFST1.RF2",
            "PERF.THRUPUT.RFST2", "PERF.THRUPUT.RFST2.RF1", "PERF.THRUPUT.RFST2.RF2"])
        self.assertNotIn("PERF.THRUPUT.RFST", names)
        self.assertEqual([r[0] for r in self.w.walrows], [
            "LOAD", "LOAD.DATA", "LOAD.CHECKPOINT", "PERF.POWER", "PERF.POWER.RF1",
            "PERF.POWER.RF2", "PERF.THRUPUT"])
        rows = {t[0]: t for t in self.w.tasks}
        for n in (1, 2):
            rfst = "PERF.THRUPUT.RFST%d" % n
            self.assertLessEqual(rows[rfst + ".RF1"][3] + rows[rfst + ".RF2"][3],
                                 rows[rfst][3])

    def test_each_refresh_is_one_transaction_by_default(self):
        self.run_all()
        scripts = self.w.cluster.scripts
        self.assertEqual((len(scripts["RF1"]), len(scripts["RF2"])), (3, 3))
        for text in scripts["RF1"] + scripts["RF2"]:
            self.assertEqual(text.count("COMMIT;"), 1)
        # RF1 inserts the refresh data set's orders after the 1500 loaded,
        # RF2 deletes the oldest orders, five (--refresh-size) at a time
        self.assertIn("o_orderkey BETWEEN 1501 AND 1505;", scripts["RF1"][0])
        self.assertIn("o_orderkey BETWEEN 1511 AND 1515;", scripts["RF1"][2])
        self.assertIn("o_orderkey BETWEEN 6 AND 10;", scripts["RF2"][1])

    def test_commit_every_commits_that_many_orders_at_a_time(self):
        self.setUp(commit_every=2)
        self.run_all()
        for text in self.w.cluster.scripts["RF1"] + self.w.cluster.scripts["RF2"]:
            self.assertEqual(text.count("COMMIT;"), 3)
        self.assertIn("o_orderkey BETWEEN 1505 AND 1505;",
                      self.w.cluster.scripts["RF1"][0])

    def test_refresh_functions_walk_through_new_and_old_orders(self):
        self.w.rf1()
        self.w.rf1()
        self.w.rf2()
        self.assertEqual((self.w.next_rf1, self.w.next_rf2), (2, 1))
        self.assertEqual(self.w.cluster.calls, ["RF1", "RF1", "RF2"])


if __name__ == "__main__":
    unittest.main()
