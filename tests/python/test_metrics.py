# SPDX-License-Identifier: MIT
"""Description: a metric's name gives its unit and direction, and runs of one mode are told apart.

a metric's name gives its unit and whether higher is
better; values must be positive and bounded; runs of one mode are told
apart by what differs between them, and two runs nothing tells apart are
refused."""

import unittest

from diskio_analysis.errors import InputError
from diskio_analysis.metrics import (DIRECTIONS, is_higher_better,
                                     metric_unit, new_metric, qualified_names,
                                     size_label, throughput_metric,
                                     unique_run_names)


def desc(mode, block_size=8192, pattern="seq", iodepth=1, sync_every=1):
    return dict(mode=mode, block_size=block_size, pattern=pattern,
                iodepth=iodepth, sync_every=sync_every)


class NameTest(unittest.TestCase):
    def test_units(self):
        self.assertEqual(metric_unit("fsync.mean_us"), "us")
        self.assertEqual(metric_unit("fsync.ops_per_s"), "/s")
        self.assertEqual(metric_unit("fsync@8k.write.mb_per_s"), "MB/s")
        self.assertEqual(metric_unit("load_s"), "s")
        self.assertEqual(metric_unit("fsync.count"), "")

    def test_higher_is_better(self):
        for name in ("fsync.ops_per_s", "db.tps", "dbt3.qphh", "x.iops",
                     "fsync@8k.write.mb_per_s", "direct@1m.read.mb_per_s"):
            self.assertTrue(is_higher_better(name), name)
        for name in ("fsync.mean_us", "throughput_s", "tpsx"):
            self.assertFalse(is_higher_better(name), name)

    def test_throughput_is_named_after_the_direction_of_the_data(self):
        for direction in DIRECTIONS:
            self.assertEqual(throughput_metric(direction), f"{direction}.mb_per_s")

    def test_size_label(self):
        self.assertEqual(size_label(8192), "8k")
        self.assertEqual(size_label(3 << 20), "3m")
        self.assertEqual(size_label(1 << 30, "KMG"), "1G")
        self.assertEqual(size_label(1536), "1536")


class MetricTest(unittest.TestCase):
    def test_metric_carries_unit_and_source(self):
        metric = new_metric("fsync.mean_us", 12.5, "m.csv", 3)
        self.assertEqual((metric.unit, metric.higher_is_better, metric.source),
                         ("us", False, "m.csv:3"))

    def test_rejects_non_positive_and_huge(self):
        for value, text in ((0.0, "must be > 0"), (1e31, "outside")):
            with self.subTest(value=value), self.assertRaises(InputError) as c:
                new_metric("m_us", value, "r.json")
            self.assertIn(text, str(c.exception))


class RunNameTest(unittest.TestCase):
    def test_only_what_differs_qualifies(self):
        self.assertEqual(qualified_names([desc("fsync"), desc("async")]),
                         ["fsync", "async"])
        self.assertEqual(qualified_names([desc("fsync", 4096),
                                          desc("fsync", 8192, "rand"),
                                          desc("async")]),
                         ["fsync@4k-seq", "fsync@8k-rand", "async"])
        self.assertEqual(qualified_names([desc("aio", iodepth=1),
                                          desc("aio", iodepth=4)]),
                         ["aio@qd1", "aio@qd4"])

    def test_cached_and_uncached_reads_are_told_apart(self):
        cached = desc("read")
        cached["cached"] = True
        self.assertEqual(qualified_names([desc("read"), cached]),
                         ["read", "read@cached"])
        # alone in its file too: never a repetition of another file's
        # uncached read
        self.assertEqual(qualified_names([cached]), ["read@cached"])
        self.assertEqual(qualified_names([desc("read", 4096), dict(cached, block_size=4096),
                                          desc("read")]),
                         ["read@4k", "read@4k-cached", "read@8k"])
        # a descriptor without the key (fio, older files) is uncached
        self.assertEqual(qualified_names([desc("read"), desc("direct-read")]),
                         ["read", "direct-read"])
    def test_runs_of_several_jobs_are_told_apart(self):
        one, four = desc("fdatasync"), desc("fdatasync")
        four["jobs"] = 4
        shared = dict(four, shared_file=True)
        self.assertEqual(qualified_names([one, four, shared]),
                         ["fdatasync@jobs1-own", "fdatasync@jobs4-own",
                          "fdatasync@jobs4-shared"])
        self.assertEqual(unique_run_names("r.json", [one, four]),
                         ["fdatasync@jobs1", "fdatasync@jobs4"])

    def test_a_custom_run_among_runs_of_its_name_is_custom(self):
        """A custom run (parameters null: no block size, pattern...)
        with a measured run of the same name: told apart, not a crash."""
        custom = dict(mode="fsync", block_size=None, pattern=None,
                      iodepth=None, sync_every=None)
        self.assertEqual(qualified_names([desc("fsync"), custom]),
                         ["fsync@8k-seq-qd1-every1", "fsync@custom"])

    def test_names_take_two_passes_over_the_runs(self):
        """The work grows with the number of runs, not its square: each
        descriptor is looked into a fixed number of times (20,000 runs of
        one mode took over two minutes when each run looked at all)."""
        reads = [0]

        class Counted(dict):
            def get(self, key, default=None):
                reads[0] += 1
                return super().get(key, default)

            def __getitem__(self, key):
                reads[0] += 1
                return super().__getitem__(key)

        count = 2000
        runs = [Counted(desc("fsync", 512 * (i + 1))) for i in range(count)]
        names = qualified_names(runs)
        self.assertEqual(len(set(names)), count)
        self.assertEqual(names[1], "fsync@1k")
        self.assertLess(reads[0], 60 * count)

    def test_indistinguishable_runs_are_refused(self):
        with self.assertRaises(InputError) as ctx:
            unique_run_names("r.json", [desc("fsync"), desc("fsync")])
        self.assertIn("two runs of mode fsync", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
