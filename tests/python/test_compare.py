# SPDX-License-Identifier: MIT
"""Description: diskio-compare groups, matches and judges runs, and renders the answer first.

diskio-compare groups results into environments by label,
matches runs by mode and parameters, treats repeated runs as repetitions,
leaves out incomplete runs with a note, leaves out disturbed repetitions
(or calls the row disturbed, never slower or faster, when too few clean
ones remain) and renders the answer first."""

import datetime
import json
import math
import os
import random
import re
import unittest
from statistics import geometric_mean

from diskio_analysis.compare import analysis as compare, render as compare_render
from diskio_analysis.document import md_escape
from diskio_analysis.errors import InputError, UsageError
from diskio_analysis.result import result_from_json
from diskio_analysis.textsafe import shown


def hist(mean):
    return {"count": 100, "min": mean / 2, "mean": mean, "stddev": mean / 10,
            "max": mean * 3, "p50": mean, "p90": mean * 1.2, "p99": mean * 2,
            "p99_9": mean * 2.5, "p99_99": mean * 3, "overflow": 0,
            "max_trackable_ns": 17592186044415, "sub_buckets": 128,
            "buckets": []}


def run(mode, mean, bs=8192, complete=True, sync=None):
    return {"mode": mode,
            "parameters": {"block_size": bs, "pattern": "seq", "iodepth": 1,
                           "sync_every": 1},
            "complete": complete, "ops": 100, "ops_per_s": 1e9 / mean,
            "mb_per_s": bs / mean * 1e3,
            "latency": {"total": hist(mean),
                        "write": None if sync is None else hist(mean - sync),
                        "sync": None if sync is None else hist(sync),
                        "service": None}}


def result(label, runs, path=None, cpu=None, identity=None):
    environment = dict(identity or {}, **({"cpu": cpu} if cpu else {}))
    doc = {"schema": "diskio-result", "schema_version": 1, "label": label,
           "complete": True, "environment": environment, "runs": runs}
    return result_from_json(path or f"/lab/{label}/result.json",
                            json.dumps(doc), doc)


class GroupingTest(unittest.TestCase):
    def test_results_sharing_a_label_are_repetitions(self):
        envs = compare.group_environments([
            result("a", [run("fsync", 100)]), result("b", [run("fsync", 200)]),
            result("a", [run("fsync", 110)])])
        self.assertEqual([e.name for e in envs], ["a", "b"])
        key = compare.RunKey("fsync", 8192, "seq", 1, 1, 1, 1, False, False)
        self.assertEqual([s.value for s in envs[0].samples[key]["mean"]], [100.0, 110.0])

    def test_unlabelled_result_is_named_after_its_directory(self):
        r = result(None, [run("fsync", 100)], path="/lab/db1/result.json")
        self.assertEqual(compare.environment_name(r), "db1")

    def test_incomplete_run_is_left_out_with_a_note(self):
        envs = compare.group_environments(
            [result("a", [run("fsync", 100, complete=False)])])
        self.assertEqual(envs[0].samples, {})
        self.assertIn("did not complete", envs[0].notes[0])


    def test_a_mean_no_measurement_has_is_refused_naming_where(self):
        """A mean of 5e-324 ns ended in an internal error; one above
        1e30 is as wrong: refused with the file and the JSON path."""
        for mean in (5e-324, 1e-31, 1e31):
            with self.subTest(mean=mean), \
                    self.assertRaises(InputError) as ctx:
                tiny = run("fsync", 100)
                tiny["latency"]["total"]["mean"] = mean
                compare.group_environments(
                    [result("a", [run("fsync", 100), tiny])])
            self.assertIn("/lab/a/result.json: runs[1].latency.total.mean: ",
                          str(ctx.exception))
            self.assertIn("is outside 1e-30..1e+30", str(ctx.exception))

    def test_a_zero_is_left_out_with_a_note(self):
        """A value of 0 has no ratio: said in a note, not dropped
        without a word."""
        zero = run("fsync", 100)
        zero["latency"]["total"]["p99"] = 0
        envs = compare.group_environments([result("a", [zero])])
        self.assertNotIn("p99", envs[0].samples[next(iter(envs[0].samples))])
        self.assertIn("/lab/a/result.json: runs[0].latency.total.p99 is 0: "
                      "no ratio of it (p99) is taken", envs[0].notes)

    def test_repetitions_of_one_run_are_its_samples(self):
        repeated = run("fsync", 105)
        repeated["repetitions"] = [
            {"complete": True, "ops": 50, "ops_per_s": 1e7,
             "latency": {"total": hist(mean)}} for mean in (100, 110)] + [
            {"complete": False, "ops": 10, "ops_per_s": 1e7,
             "latency": {"total": hist(900)}}]
        envs = compare.group_environments([result("a", [repeated])])
        key = compare.RunKey("fsync", 8192, "seq", 1, 1, 1, 1, False, False)
        self.assertEqual([s.value for s in envs[0].samples[key]["mean"]], [100.0, 110.0])
        self.assertEqual(len(envs[0].notes), 1)
        self.assertIn("runs[0].repetitions[2] (fsync) did not complete",
                      envs[0].notes[0])

    def test_one_result_per_environment_gets_an_interval_from_its_repetitions(self):
        def repeated(label, means):
            r = run("fsync", sum(means) / len(means))
            r["repetitions"] = [{"complete": True, "ops": 50,
                                 "ops_per_s": 1e9 / m,
                                 "latency": {"total": hist(m)}} for m in means]
            return result(label, [r])
        rows = compare.compare([repeated("a", [100, 101, 99, 100]),
                                repeated("b", [200, 202, 198, 201])])["rows"]
        # an interval, widened by the default between-invocation noise:
        # one invocation a side cannot show a 2x change on its own
        self.assertIsNotNone(rows[0].judgement.low)
        self.assertEqual(rows[0].judgement.verdict, "inconclusive")
        self.assertTrue(rows[0].judgement.notes)
        self.assertEqual(len(rows[0].base_values), 4)


class CompareTest(unittest.TestCase):
    def comparison(self, **kw):
        return compare.compare([
            result("a", [run("fsync", 100, sync=90), run("async", 5)], "/lab/a/1.json"),
            result("a", [run("fsync", 102, sync=92), run("async", 5.1)], "/lab/a/2.json"),
            result("b", [run("fsync", 200, sync=190), run("async", 5.05)], "/lab/b/1.json"),
            result("b", [run("fsync", 204, sync=193), run("async", 5.0)], "/lab/b/2.json")],
            **kw)

    def test_a_machine_whose_wake_ups_cost_far_more_gets_a_note(self):
        # a VM whose idle vCPUs halt against a machine that polls
        vm = {"idle_driver": "haltpoll", "wakeup_ns": 18000}
        metal = {"idle_driver": "intel_idle", "wakeup_ns": 4000}
        c = compare.compare([
            result("metal", [run("fsync", 100)], "/lab/m/1.json", cpu=metal),
            result("vm", [run("fsync", 130)], "/lab/v/1.json", cpu=vm),
            result("vm", [run("fsync", 131)], "/lab/v/2.json",
                   cpu=dict(vm, wakeup_ns=20000))])
        notes = compare_render.other_lines(c)
        self.assertIn("a wake-up on another CPU takes 20.0 us in vm (cpuidle haltpoll) "
                      "against 4.0 us in metal (cpuidle intel_idle): a sync whose completion "
                      "wakes its task on another CPU differs by about that much whatever "
                      "the storage", notes)
        # the same machine's probes a fifth apart, or results without
        # the figure (files from before it): nothing to say
        for other in ({"wakeup_ns": 22000}, {}):
            c = compare.compare([
                result("a", [run("fsync", 100)], "/lab/a/1.json", cpu=vm),
                result("b", [run("fsync", 100)], "/lab/b/1.json", cpu=other)])
            self.assertFalse([n for n in compare_render.other_lines(c) if "wake-up" in n])

    def test_one_machine_at_two_moments_gets_no_wake_up_note(self):
        # two runs on one busy machine: its wake-up probe read 4 us, then
        # 20 us; the machine did not change, what it was doing did
        quiet = {"idle_driver": "haltpoll", "wakeup_ns": 4000}
        busy = {"idle_driver": "haltpoll", "wakeup_ns": 20000}
        one = {"hostname": "vm", "machine_id": "4926267d7c7cd1e6",
               "boot_id": "50b58b42-43b8-42ae-8cf3-a0795f225258"}

        def notes(a, b):
            c = compare.compare([
                result("a", [run("fsync", 100)], "/lab/a/1.json", cpu=quiet, identity=a),
                result("b", [run("fsync", 100)], "/lab/b/1.json", cpu=busy, identity=b)])
            return [n for n in compare_render.other_lines(c) if "wake-up" in n]
        self.assertFalse(notes(one, one))
        # the machine id decides, whatever the boot
        self.assertFalse(notes(one, dict(one, boot_id="another boot")))
        # the boot id where a file has no machine id; the host name where
        # neither has more (files written before them)
        self.assertFalse(notes({"boot_id": "x", "hostname": "vm"}, {"boot_id": "x"}))
        self.assertFalse(notes({"hostname": "vm"}, {"hostname": "vm"}))
        # two machines of one host name (cloned VMs) are two machines
        self.assertTrue(notes(one, dict(one, machine_id="0123456789abcdef")))
        self.assertTrue(notes({"hostname": "vm"}, {"hostname": "db2"}))
        # nothing recorded: two machines, as before
        self.assertTrue(notes({}, {}))

    def test_slower_disk_reads_slower_and_unchanged_mode_same(self):
        verdicts = {r.run[0]: r.judgement.verdict for r in self.comparison()["rows"]}
        self.assertEqual(verdicts, {"fsync": "slower", "async": "same"})

    def test_throughput_metric_speaks_of_speed_too(self):
        rows = self.comparison(metrics=("ops_per_s",))["rows"]
        fsync = [r for r in rows if r.run[0] == "fsync"][0]
        self.assertLess(fsync.judgement.ratio, 1.0)
        self.assertEqual(fsync.judgement.verdict, "slower")

    def test_write_throughput_is_higher_better_per_block_size(self):
        def both(label, fsync_mean, path):
            return result(label, [run("fsync", fsync_mean),
                                  run("fsync", fsync_mean * 4, bs=65536)], path)
        rows = compare.compare([both("a", 100, "/lab/a/1.json"), both("a", 101, "/lab/a/2.json"),
                                both("b", 200, "/lab/b/1.json"), both("b", 203, "/lab/b/2.json")],
                               metrics=("write.mb_per_s",))["rows"]
        self.assertEqual([r.run[1] for r in rows], [8192, 65536])
        for row in rows:
            self.assertTrue(row.higher_is_better)
            self.assertEqual(row.unit, "MB/s")
            self.assertLess(row.judgement.ratio, 1.0)
            self.assertEqual(row.judgement.verdict, "slower")
        self.assertAlmostEqual(rows[0].base_values[0], 8192 / 100 * 1e3)

    def test_a_write_mode_has_no_read_throughput(self):
        with self.assertRaises(InputError):
            self.comparison(metrics=("read.mb_per_s",))
        self.assertIn("write.mb_per_s", compare.DETAIL_METRICS)

    def test_part_metrics_exist_only_where_the_mode_has_parts(self):
        rows = self.comparison(metrics=("sync_mean",))["rows"]
        self.assertEqual([r.run[0] for r in rows], ["fsync"])

    def test_baseline_can_be_chosen(self):
        rows = self.comparison(baseline="b")["rows"]
        self.assertEqual({r.environment for r in rows}, {"a"})
        with self.assertRaises(UsageError):
            self.comparison(baseline="nope")

    def test_runs_only_on_one_side_are_listed_not_compared(self):
        c = compare.compare([result("a", [run("fsync", 100), run("osync", 50)]),
                             result("b", [run("fsync", 100)])])
        self.assertEqual(len(c["rows"]), 1)
        self.assertEqual(c["missing"][0][0], "a")

    def test_environments_can_be_given_whatever_the_labels(self):
        envs = [compare.environment_of("dir1", [result("x", [run("fsync", 100)]),
                                                result("y", [run("fsync", 102)])]),
                compare.environment_of("dir2", [result("x", [run("fsync", 300)])])]
        c = compare.compare_environments(envs)
        self.assertEqual(c["rows"][0].base_values, [100.0, 102.0])
        self.assertEqual(c["baseline"].name, "dir1")

    def test_one_environment_is_refused(self):
        with self.assertRaises(InputError):
            compare.compare([result("a", [run("fsync", 100)]),
                             result("a", [run("fsync", 100)])])

    def test_nothing_matching_is_refused(self):
        with self.assertRaises(InputError):
            compare.compare([result("a", [run("fsync", 100)]),
                             result("b", [run("fsync", 100, bs=4096)])])

    def test_run_label_shows_what_differs_from_the_defaults(self):
        self.assertEqual(compare.run_label(compare.RunKey("aio", 4096, "rand", 32, 1, 1, 1, False, False)),
                         "aio 4 KiB qd32 rand")
        self.assertEqual(compare.run_label(compare.RunKey("fdatasync", 8192, "seq", 1, 8, 1, 1, False, False)),
                         "fdatasync 8 KiB every 8")
        self.assertEqual(compare.run_label(compare.RunKey("aio", 8192, "seq", 32, 1, 32, 1, False, False)),
                         "aio 8 KiB qd32 batch32")
        self.assertEqual(compare.run_label(compare.RunKey("read", 1 << 20, "seq", 1, 1, 1, 1, False, True)),
                         "read 1 MiB cached")

    def test_runs_submitted_in_batches_are_another_workload(self):
        one = run("aio", 100)
        batched = run("aio", 50)
        one["parameters"]["iodepth"] = batched["parameters"]["iodepth"] = 32
        batched["parameters"]["batch"] = 32
        envs = compare.group_environments([result("a", [one, batched])])
        self.assertEqual(sorted(envs[0].samples),
                         [compare.RunKey("aio", 8192, "seq", 32, 1, 1, 1, False, False),
                          compare.RunKey("aio", 8192, "seq", 32, 1, 32, 1, False, False)])

    def test_custom_runs_are_told_apart_by_their_params(self):
        runs = [run("commit", m) for m in (100, 200)]
        for r, record in zip(runs, ("512", "4096")):
            r["parameters"] = None
            r["params"] = {"record": record}
        envs = compare.group_environments([result("a", runs)])
        keys = sorted(envs[0].samples)
        self.assertEqual([k.workload for k in keys],
                         ["commit (record=4096)", "commit (record=512)"])
        self.assertEqual(compare.run_label(keys[0]), "commit (record=4096)")

    def test_runs_of_several_jobs_are_another_workload(self):
        one, four, shared = (run("fdatasync", m) for m in (100, 150, 160))
        four["parameters"]["jobs"] = shared["parameters"]["jobs"] = 4
        shared["parameters"]["shared_file"] = True
        envs = compare.group_environments([result("a", [one, four, shared])])
        self.assertEqual(sorted(envs[0].samples),
                         [compare.RunKey("fdatasync", 8192, "seq", 1, 1, 1, 1, False, False),
                          compare.RunKey("fdatasync", 8192, "seq", 1, 1, 1, 4, False, False),
                          compare.RunKey("fdatasync", 8192, "seq", 1, 1, 1, 4, True, False)])
        self.assertEqual(
            compare.run_label(compare.RunKey("fdatasync", 8192, "seq", 1, 1, 1, 4, True, False)),
            "fdatasync 8 KiB x4 jobs (1 file)")

    def test_read_runs_match_read_runs_only_and_cached_ones_cached_ones(self):
        def read(mode, mean, cached=False):
            r = run(mode, mean)
            r["parameters"].update(direction="read", cached=cached)
            return r
        c = compare.compare([
            result("a", [read("read", 100), read("read", 5, cached=True), run("async", 7),
                         read("direct-read", 90)]),
            result("b", [read("read", 300), read("read", 6, cached=True), run("async", 8),
                         read("aio-read", 80)])])
        pairs = sorted((r.run.workload, r.run.cached, r.base_values[0], r.other_values[0])
                       for r in c["rows"] if r.metric == "mean")
        # read with read, cached with cached, async with async; direct-read
        # and aio-read have no counterpart and are listed as missing
        self.assertEqual(pairs, [("async", False, 7.0, 8.0), ("read", False, 100.0, 300.0),
                                 ("read", True, 5.0, 6.0)])
        self.assertEqual(sorted(m[1].workload for m in c["missing"]), ["aio-read", "direct-read"])


def suite_result(label, mb_per_s, path=None):
    """A sweep suite's result: one read row at 8 KiB, measured 3 times."""
    r = run("read", 100)
    r["mb_per_s"] = mb_per_s[0]
    r["repetitions"] = [{"complete": True, "ops": 50, "bytes": 8192 * 50,
                         "duration_ns": 8192 * 50 / m * 1e3,
                         "ops_per_s": 1e9 / 100,
                         "latency": {"total": hist(100)}} for m in mb_per_s]
    doc = {"schema": "diskio-result", "schema_version": 1, "label": label,
           "complete": True, "environment": {}, "runs": [r],
           "suite": {"name": "sweep", "title": None, "summary": "mean",
                     "rows": [{"label": "8 KiB", "column": "read", "run": 0,
                               "note": None}]}}
    return result_from_json(path or f"/lab/{label}/result.json",
                            json.dumps(doc), doc)


class SuiteCompareTest(unittest.TestCase):
    def test_suite_rows_are_matched_by_row_and_named_by_it(self):
        comparison = compare.compare(
            [suite_result("local", [100.0, 101.0, 99.0]),
             suite_result("sshfs", [10.0, 10.5, 9.5])],
            metrics=("mb_per_s",))
        row = comparison["rows"][0]
        self.assertEqual(row.run, ("read", 8192, "seq", 1, 1, 1, 1, False, False,
                                   "8 KiB read", None))
        self.assertEqual(compare.run_label(row.run), "8 KiB read (read 8 KiB)")
        # MB/s: higher is better, each repetition a sample
        self.assertEqual(row.judgement.verdict, "slower")
        self.assertEqual(len(row.base_values), 3)
        self.assertAlmostEqual(sorted(row.base_values)[0], 99.0)

    def test_a_suite_row_is_not_the_same_workload_as_a_plain_run(self):
        plain = run("read", 100)
        plain["mb_per_s"] = 80.0
        with self.assertRaises(InputError) as ctx:
            compare.compare([suite_result("local", [100.0, 101.0, 99.0]),
                             result("other", [plain])], metrics=("mb_per_s",))
        self.assertIn("for a suite's runs, the suite row must agree",
                      str(ctx.exception))


def repeated(label, means, path, disturbed=(), start="2026-11-27T11:00:00.000Z",
             every_s=1, other_cpus=None):
    """A result of one invocation whose run's repetitions have these
    means, start every_s apart from start, and the disturbed ones (their
    indexes) say so as diskio writes it."""
    r = run("fsync", sum(means) / len(means))
    base = compare.noise.parse_start(start)
    reps = []
    for i, m in enumerate(means):
        when = base + i * every_s
        stamp = f"{datetime.datetime.fromtimestamp(when, datetime.timezone.utc):%Y-%m-%dT%H:%M:%S}.000Z"
        why = [{"reason": "device_io", "figure": 0.58, "threshold": 0.5,
                "unit": "share", "device": "vda",
                "message": "58% of vda's I/O was not diskio's (threshold 50%)"}] \
            if i in disturbed else []
        reps.append({"complete": True, "ops": 50, "ops_per_s": 1e9 / m,
                     "start_time": stamp, "disturbed": bool(why),
                     "disturbances": why, "latency": {"total": hist(m)}})
        if other_cpus is not None:
            # what diskio measured beside it: others' busy CPUs of 2
            reps[-1]["interference"] = {"start_time": stamp, "cpus": 2,
                                        "cpu": {"other_cpus": other_cpus}}
    r["repetitions"] = reps
    r["disturbed"] = bool(disturbed)
    r["disturbances"] = [dict(d, repetition=i + 1) for i, x in enumerate(reps)
                         for d in x["disturbances"]]
    return result(label, [r], path)


class DisturbedCompareTest(unittest.TestCase):
    def test_a_disturbed_side_is_reported_disturbed_not_slower(self):
        c = compare.compare([
            repeated("a", [100, 101, 99, 100, 100.5], "/lab/a.json", every_s=300),
            repeated("b", [150, 151, 149, 150, 150.5], "/lab/b.json",
                     disturbed=(0, 1, 2), every_s=300)])
        row = c["rows"][0]
        self.assertEqual((row.judgement.verdict, row.judgement.undisturbed_verdict),
                         ("disturbed", "slower"))
        text = compare_render.render_text(c)
        first = text.splitlines()[0]
        self.assertNotIn("slower in", first)
        self.assertIn("disturbed in 1 (b: 58% of vda's I/O was not diskio's", first)
        doc = json.loads(compare_render.render_json(c))
        self.assertEqual(doc["comparisons"][0]["verdict"], "disturbed")
        self.assertIn("b: 58% of vda's I/O", doc["comparisons"][0]["disturbed"])

    def test_disturbed_repetitions_are_left_out_and_counted(self):
        c = compare.compare([
            repeated("a", [100, 101, 99, 100, 100.5], "/lab/a.json", every_s=300),
            repeated("b", [150, 400, 149, 150, 150.5], "/lab/b.json",
                     disturbed=(1,), every_s=300)])
        row = c["rows"][0]
        self.assertEqual(row.judgement.verdict, "slower")
        self.assertEqual(row.judgement.left_out, {"other": 1})
        self.assertIn("fsync 8 KiB mean: 1 disturbed repetition of b left out, "
                      "4 undisturbed ones judged", compare_render.render_text(c))

    def test_one_invocation_in_a_short_span_is_named_in_the_notes(self):
        c = compare.compare([
            repeated("a", [100, 101, 99, 100, 100.5], "/lab/a.json"),
            repeated("b", [100.5, 99, 101, 100, 100.2], "/lab/b.json")])
        text = compare_render.render_text(c)
        self.assertIn("a: what one invocation alone measured (/lab/a.json) is widened "
                      "by the default between-invocation noise", text)


def measured(label, means, path, start=0):
    """A result as diskio writes one: a run of repetitions with their
    start times and durations, and the run's own."""
    r = run("fsync", sum(means) / len(means))
    r.update(duration_ns=7000000, interference={"start_time": "2026-12-01T10:00:00.000Z"})
    r["repetitions"] = [
        {"complete": True, "ops": 50, "ops_per_s": 1e9 / m, "duration_ns": 5000000 + i,
         "start_offset_ns": 6000000 * i,
         "start_time": f"2026-12-01T10:00:{start + i:02d}.000Z",
         "latency": {"total": hist(m)}} for i, m in enumerate(means)]
    return result(label, [r], path)


class CopiesTest(unittest.TestCase):
    """A measurement given twice as a run's sample in one environment is
    refused: copies agree to the nanosecond and would narrow the band
    without measuring noise."""

    def refused(self, results):
        with self.assertRaises(InputError) as ctx:
            compare.compare(results)
        return str(ctx.exception)

    def test_a_repetition_copied_is_refused_naming_both(self):
        a = measured("a", [100, 101, 99], "/lab/a.json")
        a.runs[0].repetitions.append(a.runs[0].repetitions[0])
        message = self.refused([a, measured("b", [200, 201, 199], "/lab/b.json")])
        self.assertEqual(
            message, "/lab/a.json: runs[0].repetitions[0]: the same measurement as "
            "runs[0].repetitions[0] of this file, named twice (began "
            "2026-12-01T10:00:00.000Z; the same duration, ops and latencies to the "
            "nanosecond): a copy, not another repetition, would narrow the noise band "
            "without measuring any noise; give each measurement once: leave out the "
            "copied repetition or run, or the result file given twice")

    def test_a_copy_in_the_file_is_refused(self):
        doc = measured("a", [100, 101], "/lab/a.json")
        copy = json.loads(json.dumps(doc.runs[0].repetitions[0]._node))
        raw = {"schema": "diskio-result", "schema_version": 1, "label": "a",
               "runs": [dict(doc.runs[0]._node, repetitions=[
                   doc.runs[0].repetitions[0]._node, doc.runs[0].repetitions[1]._node, copy])]}
        a = result_from_json("/lab/a.json", json.dumps(raw), raw)
        self.assertIn("/lab/a.json: runs[0].repetitions[2]: the same measurement as "
                      "runs[0].repetitions[0] (began 2026-12-01T10:00:00.000Z;",
                      self.refused([a, measured("b", [200, 201], "/lab/b.json")]))

    def test_a_result_copied_into_its_environment_is_refused(self):
        message = self.refused([measured("a", [100, 101, 99], "/lab/a.json"),
                                measured("b", [200, 201, 199], "/lab/b.json"),
                                measured("a", [100, 101, 99], "/lab/a-copy.json")])
        self.assertIn("/lab/a-copy.json: runs[0].repetitions[0]: the same measurement as "
                      "runs[0].repetitions[0] of /lab/a.json", message)

    def test_a_copy_as_another_environment_or_run_is_no_repetition_of_it(self):
        """A result against a relabelled copy of itself is an A/A
        comparison, each side's band its own; a measurement copied as a
        run of other parameters adds no sample to any run's band."""
        c = compare.compare([measured("a", [100, 101, 99], "/lab/a.json"),
                             measured("again", [100, 101, 99], "/lab/again.json")])
        self.assertEqual([r.judgement.ratio for r in c["rows"]], [1.0])
        other = measured("a", [100, 101, 99], "/lab/a-4k.json")
        other.runs[0].parameters.block_size = 4096
        c = compare.compare([measured("a", [100, 101, 99], "/lab/a.json"), other,
                             measured("b", [200, 201, 199], "/lab/b.json")])
        self.assertEqual(len(c["rows"][0].base_values), 3)

    def test_one_result_of_5000_copies_is_refused(self):
        """One run copied 5,000 times is one measurement, not 5,000
        repetitions with no spread."""
        copies = [measured("a", [100], f"/lab/a/{i}.json") for i in range(5000)]
        for copy in copies:
            copy.runs[0].repetitions = None     # measured once
        self.assertIn("/lab/a/1.json: runs[0]: the same measurement as runs[0] of "
                      "/lab/a/0.json", self.refused(
                          copies + [measured("b", [200], "/lab/b.json")]))

    def test_repetitions_alike_but_for_their_times_are_measurements(self):
        same = measured("a", [100, 100, 100], "/lab/a.json")
        later = measured("a", [100, 100, 100], "/lab/a2.json", start=30)
        for rep in later.runs[0].repetitions:
            rep.start_offset_ns += 1
        c = compare.compare([same, later, measured("b", [200, 201, 199], "/lab/b.json")])
        self.assertEqual(len(c["rows"][0].base_values), 6)


class QuietMachineTest(unittest.TestCase):
    def test_a_quiet_machines_single_invocations_show_a_large_change(self):
        # one invocation of 5 repetitions a side, 1.5x apart: with the
        # other CPUs a sixth busy (diskio's interference figures) the
        # quiet machine's default lets the change show; with them 1.5 of 2
        # busy it stays inconclusive
        a = [100, 103, 97, 101, 99]
        b = [150, 154, 146, 151, 149]
        quiet = compare.compare([repeated("a", a, "/lab/a.json", other_cpus=0.34),
                                 repeated("b", b, "/lab/b.json", other_cpus=0.3)])
        self.assertEqual(quiet["rows"][0].judgement.verdict, "slower")
        self.assertIn("a quiet machine's", compare_render.render_text(quiet))
        busy = compare.compare([repeated("a", a, "/lab/a.json", other_cpus=0.34),
                                repeated("b", b, "/lab/b.json", other_cpus=1.5)])
        self.assertEqual(busy["rows"][0].judgement.verdict, "inconclusive")
        self.assertIn("b: what one invocation alone measured (/lab/b.json) is widened by "
                      "the default between-invocation noise 32% (a busy machine's",
                      compare_render.render_text(busy))


# what diskio wrote for direct on ext4 data=journal (Linux 6.18): the
# filesystem took O_DIRECT and buffered the writes, 4 us a write
NOT_DIRECT = {"honoured": False, "source": "statx",
              "evidence": "statx: no direct I/O for this file, dio alignment 0",
              "dio_offset_align": 0, "dio_mem_align": 0}
DIRECT = {"honoured": True, "source": "statx",
          "evidence": "statx: direct I/O for this file, dio alignment 4096, memory 512",
          "dio_offset_align": 4096, "dio_mem_align": 512}


def direct_run(mean, direct):
    r = run("direct", mean)
    r["direct"] = direct
    return r


class NotDirectCompareTest(unittest.TestCase):
    """A side whose O_DIRECT the filesystem buffered is no measurement of
    its storage: no verdict on that run, and the notes say why."""
    def comparison(self, a_direct, b_direct):
        return compare.compare([
            result("a", [direct_run(66900, a_direct), run("fsync", 272000)], "/lab/a/1.json"),
            result("a", [direct_run(68000, a_direct), run("fsync", 275000)], "/lab/a/2.json"),
            result("b", [direct_run(4120, b_direct), run("fsync", 606000)], "/lab/b/1.json"),
            result("b", [direct_run(4300, b_direct), run("fsync", 610000)], "/lab/b/2.json")],
            metrics=("mean", "p99"))

    def test_a_side_not_direct_gets_no_verdict_and_a_note(self):
        c = self.comparison(DIRECT, NOT_DIRECT)
        self.assertEqual({(r.run.workload, r.metric) for r in c["rows"]},
                         {("fsync", "mean"), ("fsync", "p99")})
        note = ("direct 8 KiB: not direct on b (the filesystem buffered it; b: statx: no "
                "direct I/O for this file, dio alignment 0): no verdict")
        self.assertIn(note, compare_render.other_lines(c))
        text = compare_render.render_text(c)
        self.assertNotIn("faster in direct", text)
        self.assertIn("slower in fsync 8 KiB", text.splitlines()[0])
        self.assertNotIn("direct", text.splitlines()[0])
        doc = json.loads(compare_render.render_json(c))
        self.assertEqual(doc["not_direct"], [{"environment": "b", "run_label": "direct 8 KiB",
                                              "on": ["b"], "note": note}])
        self.assertNotIn("direct", {row["run"]["mode"] for row in doc["comparisons"]})

    def test_the_baseline_not_direct_is_named(self):
        c = self.comparison(NOT_DIRECT, NOT_DIRECT)
        self.assertEqual([n.on for n in c["not_direct"]], [("a", "b")])
        self.assertIn("direct 8 KiB: not direct on a and b (the filesystem buffered it; a: "
                      "statx: no direct I/O for this file, dio alignment 0; b: statx: no "
                      "direct I/O for this file, dio alignment 0): no verdict",
                      compare_render.other_lines(c))

    def test_direct_on_both_sides_or_unknown_is_judged(self):
        unknown = {**DIRECT, "honoured": None, "source": None}
        for a, b in ((DIRECT, DIRECT), (DIRECT, unknown), (None, None)):
            with self.subTest(a=a, b=b):
                c = self.comparison(a, b)
                self.assertEqual(c["not_direct"], [])
                verdicts = {r.run.workload: r.judgement.verdict for r in c["rows"]
                            if r.metric == "mean"}
                self.assertEqual(verdicts["direct"], "faster")

    def test_only_runs_not_direct_still_compare(self):
        c = compare.compare([result("a", [direct_run(66900, DIRECT)], "/lab/a/1.json"),
                             result("b", [direct_run(4120, NOT_DIRECT)], "/lab/b/1.json")])
        self.assertEqual(c["rows"], [])
        self.assertEqual(len(c["not_direct"]), 1)


def invocation(label, runs, path, other_cpus=None, start=0):
    """A result of one invocation as diskio writes it: runs given as
    (mode, pattern, means of its repetitions, how long each ran in ns),
    the repetitions interleaved a second apart, each with the other CPUs
    busy (of 2) diskio measured beside it, or without interference (as
    the wal pattern writes them) where other_cpus is None; a run's
    other_cpus may be its own."""
    out = []
    for n, (mode, pattern, means, duration_ns, *own) in enumerate(runs):
        r = run(mode, sum(means) / len(means))
        r["parameters"]["pattern"] = pattern
        r["repetitions"] = []
        busy = own[0] if own else other_cpus
        for i, m in enumerate(means):
            stamp = f"2026-12-01T10:{start + i:02d}:{n:02d}.000Z"
            rep = {"complete": True, "ops": 50, "ops_per_s": 1e9 / m,
                   "duration_ns": duration_ns + i, "start_offset_ns": None,
                   "start_time": stamp, "latency": {"total": hist(m)}}
            if busy is not None:
                rep["interference"] = {"start_time": stamp, "cpus": 2,
                                       "wall_s": duration_ns / 1e9,
                                       "cpu": {"other_cpus": busy}}
            r["repetitions"].append(rep)
        out.append(r)
    return result(label, out, path)


class NamedSidesTest(unittest.TestCase):
    """Results of one label (or one directory) are one environment
    unless the command line names their sides (sides.load_named_result
    sets Result.side): an A/A test needs no editing."""

    def results(self):
        return [invocation("x", [("fsync", "seq", [100, 101, 99], 5000000)], f"/lab/aa{i}.json",
                           start=5 * i) for i in (1, 2, 3)]

    def test_results_of_one_label_are_one_environment_and_the_way_out_is_said(self):
        with self.assertRaises(InputError) as ctx:
            compare.compare(self.results()[:2])
        self.assertIn("only one environment (x)", str(ctx.exception))
        self.assertIn("A=first.json B=second.json", str(ctx.exception))

    def test_named_sides_are_compared_whatever_their_labels(self):
        a1, a2, a3 = self.results()
        a1.side, a2.side, a3.side = "A", "B", "A"
        c = compare.compare([a1, a2, a3])
        self.assertEqual([(e.name, [r.path for r in e.results]) for e in c["environments"]],
                         [("A", ["/lab/aa1.json", "/lab/aa3.json"]), ("B", ["/lab/aa2.json"])])
        self.assertEqual(c["rows"][0].judgement.k_base, 2)
        self.assertTrue(compare_render.render_text(c).startswith("B vs A (mean): "))


class TableFiguresTest(unittest.TestCase):
    """The table, the CSV and the JSON show the figures the ratio was
    taken between: the repetitions judged (disturbed ones left out),
    over several invocations the geometric mean of theirs."""

    def test_a_side_with_repetitions_left_out_shows_the_ones_judged(self):
        c = compare.compare([
            repeated("a", [235, 240, 230, 3000, 2800], "/lab/a.json", disturbed=(3, 4)),
            repeated("b", [280, 285, 275, 290, 270], "/lab/b.json")])
        row = c["rows"][0]
        j = row.judgement
        self.assertEqual(j.left_out, {"baseline": 1 * 2})
        self.assertAlmostEqual(j.base_value, geometric_mean([235, 240, 230]), places=9)
        self.assertEqual(j.ratio, j.other_value / j.base_value)
        cells = compare_render.table_rows([row])[0]
        self.assertEqual(cells[2], f"{compare_render.fmt_measure(j.base_value, 'ns')} "
                                   "(geomean of 3 of 5)")
        self.assertEqual(cells[3], f"{compare_render.fmt_measure(j.other_value, 'ns')} "
                                   "(geomean of 5)")
        csv_row = compare_render.render_csv(c).splitlines()[1].split(",")
        self.assertEqual(csv_row[5:9], [f"{j.base_value:.6g}", f"{j.other_value:.6g}",
                                        "3", "5"])
        doc = json.loads(compare_render.render_json(c))["comparisons"][0]
        self.assertEqual((doc["baseline_value"], doc["other_value"], doc["ratio"]),
                         (j.base_value, j.other_value, j.ratio))

    def test_a_side_of_several_invocations_shows_the_mean_of_theirs(self):
        # three repetitions in one invocation, one in the other: the
        # ratio is of the invocations' geometric means' geometric mean
        a1 = repeated("a", [100, 100, 100], "/lab/a1.json")
        a2 = repeated("a", [400], "/lab/a2.json", start="2026-11-27T12:00:00.000Z")
        b = repeated("b", [200, 200, 200], "/lab/b.json")
        row = compare.compare([a1, a2, b])["rows"][0]
        self.assertAlmostEqual(row.judgement.base_value, 200.0, places=9)
        self.assertNotAlmostEqual(geometric_mean(row.base_values), 200.0, places=3)
        self.assertEqual(compare_render.table_rows([row])[0][2],
                         "200 ns (geomean of 2 invocations, 4 reps)")


class InvocationNoiseTest(unittest.TestCase):
    """One invocation, one default between-invocation noise (one note),
    whatever its rows; an invocation of other runs changes nothing in
    the rows it did not measure."""

    def quiet(self, label, path, scale=1.0):
        # fsync's repetitions ran for a fifth of a second on a quiet
        # machine, async's for a millisecond whose figure is the
        # counters' granularity (all 2 CPUs busy)
        return invocation(label, [
            ("fsync", "seq", [200 * scale, 210 * scale, 190 * scale], 200000000, 0.3),
            ("async", "seq", [2.0 * scale, 2.1 * scale, 1.9 * scale], 1000000, 2.0)], path)

    def wal(self, label, path):
        return invocation(label, [("fdatasync", "wal", [300, 320, 280], 200000000)],
                          path, start=30)

    def test_an_invocation_has_one_noise_note(self):
        c = compare.compare([self.quiet("a", "/lab/a.json"),
                             self.quiet("b", "/lab/b.json", 1.5)])
        notes = {n for r in c["rows"] for n in r.judgement.notes}
        self.assertEqual(sorted(notes), [
            f"{side}: what one invocation alone measured (/lab/{side}.json) is widened "
            "by the default between-invocation noise 10% (a quiet machine's: the "
            "other CPUs were less than half busy)" for side in "ab"])

    def test_an_invocation_of_other_runs_leaves_the_first_runs_alone(self):
        first = compare.compare([self.quiet("a", "/lab/a.json"),
                                 self.quiet("b", "/lab/b.json", 1.5)],
                                metrics=("mean", "ops_per_s"))
        more = compare.compare([self.quiet("a", "/lab/a.json"), self.wal("a", "/lab/a2.json"),
                                self.quiet("b", "/lab/b.json", 1.5),
                                self.wal("b", "/lab/b2.json")],
                               metrics=("mean", "ops_per_s"))
        rows = {(r.run, r.metric): r.judgement for r in more["rows"]}
        self.assertEqual(len(rows), len(first["rows"]) + 2)
        for r in first["rows"]:
            self.assertEqual(rows[(r.run, r.metric)], r.judgement)

    def test_runs_that_record_no_cpu_figures_take_their_sides_default(self):
        # the wal pattern records no interference: its invocation is
        # widened as the side's other invocation says, not as a busy
        # machine's for want of figures
        c = compare.compare([self.quiet("a", "/lab/a.json"), self.wal("a", "/lab/a2.json"),
                             self.quiet("b", "/lab/b.json", 1.5), self.wal("b", "/lab/b2.json")])
        wal = [r for r in c["rows"] if r.run.pattern == "wal"][0]
        self.assertEqual(len(wal.judgement.notes), 2)
        self.assertTrue(all("noise 10% (a quiet machine's" in n for n in wal.judgement.notes),
                        wal.judgement.notes)
        self.assertIn("/lab/a2.json: no repetition recorded how busy the other CPUs were; "
                      "its default between-invocation noise is that of the other results "
                      "of its environment, 10%", c["environments"][0].notes)
        alone = compare.compare([self.wal("a", "/lab/a2.json"), self.wal("b", "/lab/b2.json")])
        self.assertIn("noise 32% (a busy machine's", alone["rows"][0].judgement.notes[0])


class AdviceTextTest(unittest.TestCase):
    """Every inconclusive row names what to add and how much, within
    30 repetitions and 10 invocations a side, or says what the machine
    resolves; no point ratio leans where the interval holds 1."""

    ADVICE = re.compile(r"inconclusive: (?:--repeat (\d+)|(\d+) invocations(?: of "
                        r"--repeat (\d+))?|below (?:±([\d.]+)%|×([\d.]+)))$")

    def comparisons(self):
        rng = random.Random(7)
        for sd in (0.002, 0.02, 0.1, 0.3, 0.8):
            for ratio in (1.0, 1.03, 1.1, 1.4, 2.5):
                for reps in (2, 3, 6):
                    for other_cpus in (0.4, 1.8):
                        def side(label, scale):
                            return invocation(label, [("fsync", "seq", [
                                scale * 100 * math.exp(rng.gauss(0, sd)) for _ in range(reps)],
                                100000000)], f"/lab/{label}.json", other_cpus)
                        yield compare.compare([side("a", 1.0), side("b", ratio)])

    def test_advice_never_asks_beyond_the_caps_and_says_what_it_cannot(self):
        seen = set()
        for c in self.comparisons():
            text = compare_render.render_text(c)
            self.assertNotIn("more repetitions per side would decide", text)
            self.assertNotIn(" reps)", text.split("\n\n")[-1])
            row = c["rows"][0]
            j = row.judgement
            cells = compare_render.table_rows([row])[0]
            if j.verdict != "inconclusive":
                continue
            match = self.ADVICE.match(cells[6])
            self.assertIsNotNone(match, cells[6])
            repeat, invocations, of, pct, factor = match.groups()
            seen.add(match.group(0).split()[1])
            self.assertLessEqual(int(repeat or of or 0), 30, cells[6])
            self.assertLessEqual(int(invocations or 0), 10, cells[6])
            if pct or factor:
                resolves = float(pct) / 100 if pct else float(factor) - 1
                self.assertGreater(resolves * 1.01, abs(j.ratio - 1), cells[6])
                self.assertIn(f"{row.run.workload} 8 KiB mean: ", text)
            if j.low <= 1 <= j.high:
                self.assertEqual(cells[4], "-")
            self.assertIn(compare_render.fmt_interval(j), text)
        self.assertEqual(seen, {"--repeat", "below"} | {s for s in seen if s.isdigit()})
        self.assertTrue(any(s.isdigit() for s in seen), seen)


class RenderTest(unittest.TestCase):
    def setUp(self):
        self.c = CompareTest().comparison()

    def test_text_leads_with_the_answer(self):
        first = compare_render.render_text(self.c).splitlines()[0]
        self.assertEqual(first, "b vs a (mean): slower in fsync 8 KiB 2.00×; same in 1 of 2")

    def test_json_is_versioned_and_carries_the_intervals(self):
        doc = json.loads(compare_render.render_json(self.c))
        self.assertEqual((doc["schema"], doc["schema_version"]), ("diskio-compare", 2))
        fsync = [c for c in doc["comparisons"] if c["run"]["mode"] == "fsync"][0]
        self.assertEqual(fsync["verdict"], "slower")
        self.assertEqual(len(fsync["interval"]), 2)

    def test_csv_has_one_row_per_ratio(self):
        lines = compare_render.render_csv(self.c).splitlines()
        self.assertEqual(lines[0].split(",")[0], "environment")
        self.assertEqual(len(lines), 1 + len(self.c["rows"]))

    def test_markdown_tables_have_a_separator_row(self):
        text = compare_render.render_markdown(self.c)
        self.assertIn("| run | metric | a | b |", text)
        self.assertIn("| --- |", text)

    def test_markdown_verdicts_and_notes_stand_apart(self):
        text = compare_render.render_markdown(self.c)
        self.assertIn("\n\n- b vs a (mean): slower in fsync 8 KiB 2.00×; same "
                      "in 1 of 2\n\n", text)
        # each note its own paragraph: a blank line between them
        for note in compare_render.noise_notes(self.c):
            self.assertIn("\n\n" + note.replace("_", "\\_") + "\n", text)

    def test_names_are_shown_never_printed_raw(self):
        """A label with a terminal's escape sequences, a newline and a
        bidi override: text and CSV show it as shown() does, Markdown as
        its escape of that, JSON escapes it; none carries it raw."""
        label = "e\x1b]0;T\x07\x1b[2J\u202e\nx\\x1b"
        c = compare.compare([result("a", [run("fsync", 100)]),
                             result(label, [run("fsync", 200)])])
        self.assertEqual(shown(label), "e\\x1b]0;T\\x07\\x1b[2J"
                         "\\xe2\\x80\\xae\\x0ax\\\\x1b")
        for name, render in compare_render.RENDERERS.items():
            with self.subTest(format=name):
                text = render(c)
                self.assertTrue(all(ch.isprintable() or ch == "\n"
                                    for ch in text))
                self.assertIn({"markdown": md_escape(label),
                               "json": "e\\u001b]0;T\\u0007"}.get(
                                   name, shown(label)), text)
        doc = json.loads(compare_render.render_json(c))
        self.assertEqual(doc["comparisons"][0]["environment"], label)

    def test_measures_are_scaled_like_diskios_table(self):
        self.assertEqual(compare_render.fmt_measure(73200, "ns"), "73.2 us")
        self.assertEqual(compare_render.fmt_measure(2.5e6, "ns"), "2.5 ms")
        self.assertEqual(compare_render.fmt_measure(812, "ns"), "812 ns")


def steady_run(mode, whole_mean, window_mean, attained=True, trend_pct=2.0):
    """A run made with diskio --steady: its whole run's mean, and its
    window's (steady, with its figures; or not, rising by trend_pct a
    minute, without them)."""
    r = run(mode, whole_mean)
    window = {"repetition": 1, "attained": attained, "first_interval": 3,
              "intervals": 5, "judged": 8, "start_ns": 3 * 10**9,
              "end_ns": 8 * 10**9, "average": window_mean, "range_pct": 4.0,
              "slope_pct": 2.0, "trend": "rising", "trend_per_min": window_mean / 100,
              "trend_pct_per_min": trend_pct, "ops": 50, "duration_ns": 5 * 10**9,
              "ops_per_s": 1e9 / window_mean, "mb_per_s": 8192 / window_mean * 1e3,
              "latency": {k: v for k, v in hist(window_mean).items()
                          if k not in ("overflow", "max_trackable_ns", "sub_buckets",
                                       "buckets")} if attained else None}
    r["steady"] = {"metric": "mean", "window": 5, "range_limit_pct": 20,
                   "slope_limit_pct": 10, "ramp_ns": 0, "interval_ns": 10**9,
                   "attained": attained, "windows": [window]}
    return r


class SteadyCompareTest(unittest.TestCase):
    """diskio --steady: the steady windows are compared when both sides
    were steady, said so; a side that was not steady is never taken for a
    steady disk (the whole runs are compared, and a note names it)."""

    def compare_two(self, a, b):
        c = compare.compare([result("a", [a], "/lab/a/1.json"),
                             result("b", [b], "/lab/b/1.json")])
        row = [r for r in c["rows"] if r.metric == "mean"][0]
        return c, row, compare_render.other_lines(c)

    def test_both_steady_compares_the_windows_and_says_so(self):
        # the whole runs (burst credits included) say 1.5x; the steady
        # windows say 3x
        c, row, notes = self.compare_two(steady_run("fsync", 100, 200),
                                         steady_run("fsync", 150, 600))
        self.assertTrue(row.steady)
        self.assertAlmostEqual(row.judgement.ratio, 3.0)
        self.assertTrue(any("compared over the steady windows" in n for n in notes))
        self.assertIn("(steady)", compare_render.render_text(c))
        self.assertTrue(json.loads(compare_render.render_json(c))["comparisons"][0]["steady"])

    def test_a_side_not_steady_is_never_a_steady_disk(self):
        c, row, notes = self.compare_two(steady_run("fsync", 100, 200),
                                         steady_run("fsync", 150, 600, attained=False,
                                                    trend_pct=35.0))
        self.assertFalse(row.steady)
        self.assertAlmostEqual(row.judgement.ratio, 1.5)
        self.assertTrue(any("NOT STEADY on b (b: rising 35%/min)" in n and
                            "whole runs" in n for n in notes), notes)
        self.assertNotIn("(steady)", compare_render.render_text(c))

    def test_steady_on_one_side_only_compares_the_whole_runs(self):
        c, row, notes = self.compare_two(steady_run("fsync", 100, 200), run("fsync", 150))
        self.assertFalse(row.steady)
        self.assertAlmostEqual(row.judgement.ratio, 1.5)
        self.assertTrue(any("steady on a only (b ran without --steady)" in n
                            for n in notes), notes)

    def test_a_steady_window_without_its_figures_is_refused(self):
        bad = steady_run("fsync", 100, 200)
        bad["steady"]["windows"][0]["latency"] = None
        with self.assertRaises(InputError) as ctx:
            self.compare_two(bad, steady_run("fsync", 150, 600))
        self.assertIn("steady.windows[0].latency", str(ctx.exception))


def capacity_run(mode, answer, high, confirmed=True, jobs=4, found=True):
    """A run made with diskio --target: its confirming run at the answer
    (its latencies those of that rate), the answer bracketed below the
    lowest rate that missed."""
    r = run(mode, 100)
    r["parameters"]["jobs"] = jobs
    step = {"step": 0, "phase": "confirm", "committers": jobs, "offered_ops_per_s": answer,
            "achieved_ops_per_s": answer, "ops": 100, "duration_ns": 5 * 10**9,
            "mean_ns": 100.0, "p50_ns": 100, "p99_ns": 200, "pct_ns": 200, "max_ns": 300,
            "met": True, "rate_held": True, "error": None}
    r["capacity"] = {"percentile": 99, "target_ns": 2 * 10**6, "found": found,
                     "confirmed": confirmed, "ops_per_s": answer if found else None,
                     "high_ops_per_s": high, "committers": jobs, "budget_ns": 60 * 10**9,
                     "duration_ns": 40 * 10**9, "steps": [step]}
    return r


class CapacityCompareTest(unittest.TestCase):
    """diskio --target: two capacities' ratio, with the interval the
    searches' brackets allow, matched whatever committers each answer
    has; the confirming runs' latencies are not compared."""

    def compare_two(self, a, b):
        c = compare.compare([result("a", [a], "/lab/a/1.json"),
                             result("b", [b], "/lab/b/1.json")])
        return c, c["rows"], compare_render.other_lines(c)

    def test_the_ratio_of_two_capacities_with_its_interval(self):
        c, rows, _ = self.compare_two(capacity_run("fdatasync", 1000, 1020, jobs=4),
                                      capacity_run("fdatasync", 500, 510, jobs=1))
        self.assertEqual([r.metric for r in rows], ["capacity"])
        j = rows[0].judgement
        self.assertAlmostEqual(j.ratio, 0.5)
        self.assertAlmostEqual(j.low, 500 / 1020)
        self.assertAlmostEqual(j.high, 510 / 1000)
        self.assertEqual(j.verdict, "slower")
        self.assertIn("capacity at p99 <= 2 ms", compare_render.render_text(c))
        self.assertIn("0.49-0.51×", compare_render.render_text(c))
        record = json.loads(compare_render.render_json(c))["comparisons"][0]
        self.assertEqual((record["metric"], record["unit"]), ("capacity", "/s"))

    def test_brackets_that_overlap_past_the_band_are_inconclusive(self):
        _, rows, _ = self.compare_two(capacity_run("fdatasync", 1000, 1200),
                                      capacity_run("fdatasync", 1050, 1300))
        self.assertEqual(rows[0].judgement.verdict, "inconclusive")
        self.assertAlmostEqual(rows[0].judgement.low, 1050 / 1200)

    def test_close_brackets_are_the_same(self):
        _, rows, _ = self.compare_two(capacity_run("fdatasync", 1000, 1010),
                                      capacity_run("fdatasync", 1005, 1015))
        self.assertEqual(rows[0].judgement.verdict, "same")

    def test_an_open_bracket_is_open_above(self):
        c, rows, _ = self.compare_two(capacity_run("fdatasync", 1000, 1020),
                                      capacity_run("fdatasync", 2000, None))
        self.assertIsNone(rows[0].judgement.high)
        self.assertEqual(rows[0].judgement.verdict, "faster")
        self.assertIn("1.96× or more", compare_render.render_text(c))

    def test_no_rate_met_and_unconfirmed_are_said(self):
        _, rows, notes = self.compare_two(capacity_run("fdatasync", 1000, 1020),
                                          capacity_run("fdatasync", 0, 12, found=False))
        self.assertEqual(rows, [])
        self.assertTrue(any("no rate met the target on b" in n for n in notes), notes)
        _, rows, notes = self.compare_two(capacity_run("fdatasync", 1000, 1020),
                                          capacity_run("fdatasync", 900, 920, confirmed=False))
        self.assertTrue(any("capacity of b was not confirmed" in n for n in notes), notes)


if __name__ == "__main__":
    os.environ.setdefault("LC_ALL", "C")
    unittest.main()
