# SPDX-License-Identifier: MIT
"""Description: an environment directory is read into one Environment:
diskio results become metrics (runs without ops skipped, incomplete ones
noted), phases and metrics are given once, the name comes from the label
or the directory, and a baseline is chosen by name."""

import copy
import json
import os
import unittest

from diskio_analysis.environment import (Environment, check_names_unique,
                                         choose_baseline, load_environment)
from diskio_analysis.errors import InputError, UsageError
from filelib import FIXTURES, TempDirTest


def fixture_result(env="env-c"):
    with open(os.path.join(FIXTURES, env, "result.json"),
              encoding="utf-8") as handle:
        return json.load(handle)


class DirectoryTest(TempDirTest):
    def make(self, result=None, phases="load,10\n", files=()):
        if result is not None:
            self.write("env/result.json", json.dumps(result))
        self.write("env/phases.csv", phases)
        for name, text in files:
            self.write(f"env/{name}", text)
        return load_environment(os.path.join(self.dir, "env"))

    def test_fixture_environment(self):
        env = load_environment(os.path.join(FIXTURES, "env-a"))
        self.assertEqual(env.name, "A")
        self.assertEqual(env.metrics["fsync.mean_us"].unit, "us")
        self.assertIn("fsync.sync_p99_us", env.metrics)
        self.assertEqual(env.runs[1]["syncs"], env.runs[1]["ops"])
        self.assertEqual(list(env.phases)[:2], ["load", "power.rf1"])
        self.assertIn("load", env.wal)

    def test_run_without_ops_is_skipped_and_incomplete_noted(self):
        doc = fixture_result()
        doc["runs"][0]["ops"] = 0
        doc["runs"][1].update(complete=False, error={"message": "disk full"})
        doc["label"] = None
        env = self.make(doc)
        self.assertEqual(env.name, "env")
        self.assertIn("recorded no ops; skipped", env.notes[0])
        self.assertIn("is incomplete: disk full", env.notes[1])
        mode = doc["runs"][0]["mode"]
        self.assertNotIn(f"{mode}.mean_us", env.metrics)

    def test_missing_statistic_of_a_run_with_ops_is_named(self):
        doc = fixture_result()
        del doc["runs"][0]["latency"]["total"]["p90"]
        with self.assertRaises(InputError) as ctx:
            self.make(doc)
        self.assertIn("runs[0].latency.total.p90: missing", str(ctx.exception))

    def test_phase_given_twice_names_the_first_place(self):
        with self.assertRaises(InputError) as ctx:
            self.make(fixture_result(), files=[("q_time.csv",
                                               "task_name,seconds\nLOAD,5\n")])
        self.assertIn("phase 'load' already given at", str(ctx.exception))

    def test_metric_given_twice(self):
        doc = fixture_result()
        mode = doc["runs"][0]["mode"]
        with self.assertRaises(InputError) as ctx:
            self.make(doc, files=[("metrics.csv", f"{mode}.mean_us,5\n")])
        self.assertIn(f"metric {mode}.mean_us is also given by",
                      str(ctx.exception))

    def test_other_json_is_ignored_with_a_note(self):
        self.write("env/other.json", "{}")
        env = self.make(fixture_result())
        self.assertIn("neither a diskio result nor fio output; ignored",
                      env.notes[0])

    def test_settings_give_the_wal_sync_method(self):
        self.write("env/settings.json", json.dumps(
            {"tool": "diskio-pgphases", "wal_sync_method": "open_sync"}))
        self.assertEqual(self.make(fixture_result()).wal_sync_method,
                         "open_sync")

    def test_no_phases(self):
        with self.assertRaises(InputError) as ctx:
            self.make(fixture_result(), phases="")
        self.assertIn("no phase timings", str(ctx.exception))

    def test_no_metrics(self):
        with self.assertRaises(InputError) as ctx:
            self.make(None)
        self.assertIn("no disk metrics", str(ctx.exception))


class NamesTest(unittest.TestCase):
    def envs(self):
        return [Environment("/x/a", name="A"), Environment("/x/b", name="B")]

    def test_baseline_by_name_or_directory(self):
        envs = self.envs()
        self.assertIs(choose_baseline(envs, None), envs[0])
        self.assertIs(choose_baseline(envs, "B"), envs[1])
        self.assertIs(choose_baseline(envs, "/x/b/"), envs[1])
        with self.assertRaises(UsageError):
            choose_baseline(envs, "C")

    def test_names_must_differ(self):
        envs = self.envs()
        envs[1].name = "A"
        with self.assertRaises(InputError):
            check_names_unique(envs)
        check_names_unique(copy.deepcopy(self.envs()))


if __name__ == "__main__":
    unittest.main()
