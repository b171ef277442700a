# SPDX-License-Identifier: MIT
"""Description: an environment directory is read into one Environment, every input checked.

an environment directory is read into one Environment:
diskio results become metrics (runs without ops skipped, incomplete ones
noted; several results, repeated runs or the repetitions of diskio
--repeat become a metric's samples),
fio's leading note lines are skipped, phases and metrics are given once
(with --lenient a repeated or bad row is noted and left out), the name
comes from the label or the directory, a diskio-pgphases run that did
not complete is noted, and a baseline is chosen by name."""

import copy
import json
import os
import unittest

from diskio_analysis.correlate.environment import (Environment, check_names_unique,
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

    def test_round_subdirectories_are_the_phases_samples(self):
        self.write("env/result.json", json.dumps(fixture_result()))
        for n, seconds in ((1, 10.0), (2, 12.0), (3, 11.0)):
            self.write(f"env/pg{n}/phases.csv", f"load,{seconds}\n")
        self.write("env/pg2/interference.csv",
                   "phase,disturbed,reasons\nLOAD,true,other processes used 1.96 "
                   "CPUs (threshold 1.00)\n")
        env = load_environment(os.path.join(self.dir, "env"))
        self.assertEqual(env.phases["load"], 11.0)    # the median
        self.assertEqual([s.value for s in env.phase_rounds["load"]], [10.0, 12.0, 11.0])
        self.assertEqual(env.phase_rounds["load"][1].disturbed,
                         ("other processes used 1.96 CPUs (threshold 1.00)",))

    def test_one_pgphases_output_of_several_rounds_gives_the_phases_samples(self):
        # diskio-pgphases --rounds 3: q_time.csv holds the medians,
        # rounds.csv every round, interference.csv each round's rows
        self.write("env/result.json", json.dumps(fixture_result()))
        self.write("env/phases.csv", "load,11\n")
        self.write("env/rounds.csv", "task_name,round,seconds\nLOAD,1,10.0\n"
                   "LOAD,2,12.0\nLOAD,3,11.0\n")
        self.write("env/interference.csv",
                   "phase,disturbed,reasons,round\nLOAD,false,,1\nLOAD,true,other "
                   "processes used 1.96 CPUs (threshold 1.70),2\nLOAD,false,,3\n")
        env = load_environment(os.path.join(self.dir, "env"))
        self.assertEqual(env.phases["load"], 11.0)
        self.assertEqual([s.value for s in env.phase_rounds["load"]], [10.0, 12.0, 11.0])
        self.assertEqual([s.disturbed for s in env.phase_rounds["load"]],
                         [(), ("other processes used 1.96 CPUs (threshold 1.70)",), ()])

    def test_the_cpu_time_of_each_round_of_a_phase_is_read_from_interference(self):
        self.write("env/result.json", json.dumps(fixture_result()))
        self.write("env/phases.csv", "load,11\n")
        self.write("env/rounds.csv", "task_name,round,seconds\nLOAD,1,10.0\n"
                   "LOAD,2,12.0\nLOAD,3,11.0\n")
        self.write("env/interference.csv",
                   "phase,wall_s,disturbed,reasons,round,server_cpus,client_cpus\n"
                   "LOAD,10.0,false,,1,0.5,0.1\nLOAD,12.0,false,,2,0.5,0.25\n"
                   "LOAD,11.0,false,,3,,\n")
        env = load_environment(os.path.join(self.dir, "env"))
        # 10 × 0.6 and 12 × 0.75; the round without figures is left out
        self.assertEqual(env.phase_cpu_rounds["load"], [6.0, 9.0])
        self.assertEqual(env.phase_cpu_s("load"), 7.5)
        self.assertIsNone(env.phase_cpu_s("power.rf1"))

    def test_round_subdirectories_give_the_cpu_time_of_each(self):
        self.write("env/result.json", json.dumps(fixture_result()))
        for n, cpus in ((1, "0.2"), (2, "0.4"), (3, "0.3")):
            self.write(f"env/pg{n}/phases.csv", "load,10\n")
            self.write(f"env/pg{n}/interference.csv",
                       "phase,wall_s,disturbed,reasons,round,server_cpus,client_cpus\n"
                       f"LOAD,10.0,false,,1,{cpus},0.1\n")
        env = load_environment(os.path.join(self.dir, "env"))
        self.assertEqual(env.phase_cpu_s("load"), 4.0)

    def test_a_cpu_figure_that_is_not_a_number_is_refused(self):
        with self.assertRaises(InputError) as ctx:
            self.make(fixture_result(), files=[(
                "interference.csv", "phase,wall_s,disturbed,reasons,round,server_cpus,"
                "client_cpus\nLOAD,10.0,false,,1,lots,0.1\n")])
        self.assertIn("server_cpus or client_cpus 10.0, lots, 0.1 not a number",
                      str(ctx.exception))

    def test_the_devices_time_of_each_round_of_a_phase_is_read_from_interference(self):
        self.write("env/result.json", json.dumps(fixture_result()))
        self.write("env/phases.csv", "load,11\n")
        self.write("env/interference.csv",
                   "phase,wall_s,disturbed,reasons,round,server_cpus,client_cpus,"
                   "device_us_per_write,device_us_per_flush\n"
                   "LOAD,10.0,false,,1,0.5,0.1,110.0,170.0\n"
                   "LOAD,12.0,false,,2,0.5,0.25,120.0,\n"
                   "LOAD,11.0,false,,3,,,100.0,180.0\n")
        env = load_environment(os.path.join(self.dir, "env"))
        # a round too short to resolve its flushes is left out of theirs
        self.assertEqual(env.phase_device_rounds["load"],
                         {"write": [110.0, 120.0, 100.0], "flush": [170.0, 180.0]})
        self.assertEqual((env.phase_device_us("load", "write"),
                          env.phase_device_us("load", "flush")), (110.0, 175.0))
        self.assertIsNone(env.phase_device_us("power.rf1", "flush"))

    def test_a_device_time_that_is_not_a_number_is_refused(self):
        with self.assertRaises(InputError) as ctx:
            self.make(fixture_result(), files=[(
                "interference.csv", "phase,wall_s,disturbed,reasons,round,"
                "device_us_per_write,device_us_per_flush\nLOAD,10.0,false,,1,-3,\n")])
        self.assertIn("device_us_per_write -3 is not a time (us, 0 or more)", str(ctx.exception))

    def test_a_round_that_is_not_a_number_is_refused(self):
        self.write("env/result.json", json.dumps(fixture_result()))
        self.write("env/phases.csv", "load,11\n")
        self.write("env/rounds.csv", "task_name,round,seconds\nLOAD,first,10.0\n")
        with self.assertRaises(InputError) as ctx:
            load_environment(os.path.join(self.dir, "env"))
        self.assertIn("is not a round number", str(ctx.exception))

    def test_phases_at_the_top_and_in_rounds_are_refused(self):
        self.write("env/pg1/phases.csv", "load,10\n")
        with self.assertRaises(InputError) as ctx:
            self.make(fixture_result())
        self.assertIn("both in the directory and in round subdirectories",
                      str(ctx.exception))

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

    def test_write_throughput_is_a_metric_of_each_run(self):
        doc = fixture_result()
        env = self.make(doc)
        run = doc["runs"][0]
        prefix = [r["metric_prefix"] for r in env.runs
                  if r["mode"] == run["mode"]][0]
        metric = env.metrics[f"{prefix}.write.mb_per_s"]
        self.assertAlmostEqual(metric.value, run["mb_per_s"])
        self.assertEqual(metric.unit, "MB/s")
        self.assertTrue(metric.higher_is_better)

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

    def test_several_results_are_repetitions(self):
        doc = fixture_result()
        self.write("env/second.json", json.dumps(doc))
        mode = doc["runs"][0]["mode"]
        doc["runs"][0]["latency"]["total"]["mean"] *= 2
        self.write("env/third.json", json.dumps(doc))
        env = self.make(fixture_result())
        metric = env.metrics[f"{mode}.mean_us"]
        first = fixture_result()["runs"][0]["latency"]["total"]["mean"] / 1000
        self.assertEqual(len(metric.samples), 3)
        self.assertAlmostEqual(metric.value, first * 2 ** (1 / 3))

    def test_repeated_runs_of_one_result_are_repetitions(self):
        doc = fixture_result()
        doc["runs"].append(copy.deepcopy(doc["runs"][0]))
        env = self.make(doc)
        mode = doc["runs"][0]["mode"]
        self.assertEqual(len(env.metrics[f"{mode}.mean_us"].samples), 2)

    def test_the_repetitions_of_a_run_are_its_samples(self):
        doc = fixture_result()
        run = doc["runs"][0]
        summary = {k: v for k, v in run["latency"]["total"].items()
                   if k not in ("buckets", "overflow", "max_trackable_ns",
                                "sub_buckets")}
        def repetition(mean, complete=True):
            parts = {part: None if hist is None else dict(summary, mean=mean)
                     for part, hist in run["latency"].items()}
            return {"complete": complete, "ops": 100, "ops_per_s": 1e9 / mean,
                    "latency": parts}
        run["repetitions"] = [repetition(1000.0), repetition(4000.0),
                              repetition(99000.0, complete=False)]
        env = self.make(doc)
        metric = env.metrics[f"{run['mode']}.mean_us"]
        self.assertEqual(sorted(metric.samples), [1.0, 4.0])
        self.assertAlmostEqual(metric.value, 2.0)    # geometric mean
        self.assertTrue(any("repetitions[2]" in note and "left out" in note
                            for note in env.notes), env.notes)
        self.assertEqual(len([r for r in env.runs
                              if r["mode"] == run["mode"]]), 1)

    def test_fio_notes_before_the_json_are_skipped(self):
        with open(os.path.join(FIXTURES, "fio", "fio.json")) as src:
            self.write("env/fio.json", "note: both iodepth >= 1 and "
                       "synchronous I/O engine are selected\n" + src.read())
        env = self.make(None)
        self.assertIn("skipped 1 line(s) before the JSON", env.notes[0])
        self.assertTrue(env.metrics)

    def test_lenient_notes_a_repeated_phase_and_keeps_the_rest(self):
        self.write("env/result.json", json.dumps(fixture_result()))
        self.write("env/phases.csv", "load,10\nload,12\npower,5\n")
        env = load_environment(os.path.join(self.dir, "env"), lenient=True)
        self.assertEqual(env.phases, {"load": 10.0, "power": 5.0})
        self.assertIn("phases.csv:2: phase 'load' already given at", env.notes[-1])
        self.assertIn("row skipped (--lenient)", env.notes[-1])

    def test_an_incomplete_pgphases_run_is_noted(self):
        self.write("env/settings.json", json.dumps(
            {"tool": "diskio-pgphases", "wal_sync_method": "fdatasync",
             "complete": False, "error": "interrupted by SIGTERM"}))
        env = self.make(fixture_result())
        self.assertFalse(env.settings.complete)
        self.assertIn("did not complete (interrupted by SIGTERM)",
                      env.notes[0])

    def test_other_json_is_refused_naming_what_it_is(self):
        """A *.json of an ENVDIR that is none of the files read (null, a
        list, another schema) is an error, never a note of a run that
        exits 0 as if the environment had its result."""
        for text, said in (("null", "the document is null"),
                           ("[]", "the document is a list"),
                           ('{"schema": "other"}', 'its "schema" is "other"'),
                           ("{}", "the document is an object")):
            with self.subTest(text=text):
                self.write("env/result.json", text)
                with self.assertRaises(InputError) as ctx:
                    load_environment(os.path.join(self.dir, "env"))
                message = str(ctx.exception)
                self.assertIn("env/result.json", message)
                self.assertIn(said, message)
                self.assertIn("move it out of the environment directory",
                              message)

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
