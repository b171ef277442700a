# SPDX-License-Identifier: MIT
"""Description: load_result reads diskio's result JSON and names any bad value's file and path.

load_result, the one reader of diskio's result JSON,
returns Result/Run/Hist objects and rejects an unknown schema, a wrong
type or an out-of-range value naming the file and the JSON path: a key
given twice, a count that is no whole number from 0 up, more repetitions
than diskio makes."""

import copy
import json
import os
import re
import unittest

from diskio_analysis.errors import InputError
from diskio_analysis.jsonfile import Triples
from diskio_analysis.result import MAX_REPETITIONS, is_result, load_result
from diskio_analysis.textfile import MAX_STRING_CHARS
from filelib import FIXTURES, TempDirTest

HIST = {"count": 4, "min": 800, "mean": 1000.5, "stddev": 90.0, "max": 1300,
        "p50": 990, "p90": 1100, "p99": 1300, "p99_9": 1300, "p99_99": 1300,
        "overflow": 0, "buckets": [[800, 803, 1], [990, 997, 2],
                                   [1296, 1303, 1]]}
RUN = {"mode": "fsync",
       "parameters": {"block_size": 8192, "pattern": "seq", "iodepth": 1,
                      "sync_every": 1, "warmup": 10},
       "complete": True, "error": None, "ops": 4, "ops_per_s": 900.5,
       "mb_per_s": 7.4,
       "latency": {"total": HIST, "write": HIST, "sync": HIST,
                   "service": None}}
DOC = {"schema": "diskio-result", "schema_version": 1, "label": "db1",
       "complete": True, "environment": {"hostname": "db1"}, "runs": [RUN]}


class ResultFileTest(TempDirTest):
    def load(self, doc=None, mutate=None, text=None):
        doc = copy.deepcopy(DOC if doc is None else doc)
        if mutate:
            mutate(doc)
        self.path = self.write("result.json", json.dumps(doc, indent=1)
                               if text is None else text)
        return load_result(self.path)

    def rejects(self, mutate=None, text=None):
        with self.assertRaises(InputError) as ctx:
            self.load(mutate=mutate, text=text)
        return str(ctx.exception)


class AcceptedTest(ResultFileTest):
    def test_runs_of_several_jobs_carry_each_jobs_figures(self):
        def jobs(doc):
            run = doc["runs"][0]
            run["parameters"].update(jobs=2, shared_file=True)
            run["per_job"] = [
                {"job": j, "ops": 2, "bytes": 16384, "duration_ns": 5000,
                 "mean_ns": 1000.5, "p50_ns": 990, "p99_ns": 1300,
                 "max_ns": 1300, "errors": j, "error": None if j == 0 else
                 {"message": "Input/output error", "op": 2,
                  "during": "sync"}} for j in (0, 1)]
            run["params"] = {"engine": "custom"}
        run = self.load(mutate=jobs).runs[0]
        self.assertEqual((run.parameters.jobs, run.parameters.shared_file), (2, True))
        self.assertEqual([j.ops for j in run.per_job], [2, 2])
        self.assertEqual(run.per_job[1].errors, 1)
        self.assertEqual(run.per_job[1].error.during, "sync")
        self.assertEqual(run.params, {"engine": "custom"})

    def test_a_custom_run_reads_with_its_own_params(self):
        def custom(doc):
            run = doc["runs"][0]
            run.update(mode="log-commit", parameters=None,
                       params={"record": "512", "sync": "fdatasync"})
        run = self.load(mutate=custom).runs[0]
        self.assertIsNone(run.parameters.block_size)
        self.assertTrue(run.parameters.custom)
        self.assertEqual(run.workload, "log-commit (record=512, sync=fdatasync)")
        self.assertEqual(self.load().runs[0].workload, "fsync")

    def test_a_durability_runs_params_do_not_make_it_another_workload(self):
        def durability(doc):
            doc["runs"][0]["params"] = {"durability.run_id": "cut1",
                                        "durability.acknowledged": "100"}
        run = self.load(mutate=durability).runs[0]
        self.assertEqual(run.workload, "fsync")
        self.assertEqual(run.params["durability.run_id"], "cut1")

    def test_a_run_of_one_job_reads_as_one_job(self):
        run = self.load().runs[0]
        self.assertEqual((run.parameters.jobs, run.parameters.shared_file,
                          run.per_job), (1, False, []))

    def test_a_job_without_its_ops_is_refused(self):
        def broken(doc):
            doc["runs"][0]["per_job"] = [{"job": 0, "bytes": 1}]
        self.assertIn("runs[0].per_job[0]", self.rejects(broken))

    def test_result_carries_label_environment_and_runs(self):
        result = self.load()
        self.assertEqual((result.path, result.label, result.complete),
                         (self.path, "db1", True))
        self.assertEqual(result.environment.hostname, "db1")
        self.assertIsNone(result.environment.kernel)
        self.assertEqual(len(result.runs), 1)

    def test_run_parameters_keep_the_files_and_the_checked_ones(self):
        run = self.load().runs[0]
        self.assertEqual(run.mode, "fsync")
        self.assertEqual(run.parameters.block_size, 8192)
        self.assertEqual(run.parameters.pattern, "seq")
        self.assertEqual(run.parameters.warmup, 10)
        self.assertEqual((run.ops, run.ops_per_s, run.mb_per_s),
                         (4, 900.5, 7.4))
        self.assertTrue(run.complete)
        self.assertIsNone(run.error)

    def test_null_parts_are_left_out(self):
        self.assertEqual(sorted(self.load().runs[0].parts),
                         ["sync", "total", "write"])

    def test_hist_statistics_percentiles_and_buckets(self):
        hist = self.load().runs[0].parts["total"]
        self.assertEqual((hist.count, hist.min, hist.mean, hist.stddev,
                          hist.max), (4, 800, 1000.5, 90.0, 1300))
        self.assertEqual(hist.percentiles["p99_9"], 1300)
        self.assertEqual(list(hist.percentiles),
                         ["p50", "p90", "p99", "p99_9", "p99_99"])
        self.assertEqual(hist.buckets[1], (990, 997, 2))
        self.assertIsInstance(hist.buckets, Triples)    # compact

    def test_incomplete_run_and_result(self):
        def mutate(doc):
            doc["complete"] = False
            doc["runs"][0].update(complete=False,
                                  error={"message": "disk full"})
        result = self.load(mutate=mutate)
        self.assertFalse(result.complete)
        self.assertFalse(result.runs[0].complete)
        self.assertEqual(result.runs[0].error.message, "disk full")

    def test_missing_optional_values_are_none(self):
        def mutate(doc):
            del doc["label"]
            del doc["runs"][0]["latency"]["total"]["buckets"]
            del doc["runs"][0]["ops_per_s"]
        result = self.load(mutate=mutate)
        self.assertIsNone(result.label)
        self.assertIsNone(result.runs[0].parts["total"].buckets)
        self.assertIsNone(result.runs[0].ops_per_s)

    def test_repetitions_come_with_their_own_figures_in_order(self):
        summary = {k: v for k, v in HIST.items()
                   if k not in ("buckets", "overflow")}

        def mutate(doc):
            doc["runs"][0]["repetitions"] = [
                {"complete": True, "ops": 2, "bytes": 16384,
                 "duration_ns": 2000, "start_offset_ns": 0,
                 "ops_per_s": 1e6,
                 "latency": {"total": summary, "write": None, "sync": None,
                             "service": None}},
                {"complete": False, "ops": 2, "bytes": 16384,
                 "duration_ns": 4000, "start_offset_ns": 90000,
                 "ops_per_s": 5e5,
                 "latency": {"total": dict(summary, mean=2000.0),
                             "write": None, "sync": None, "service": None}}]
        reps = self.load(mutate=mutate).runs[0].repetitions
        self.assertEqual([(r.complete, r.ops, r.start_offset_ns) for r in reps],
                         [(True, 2, 0), (False, 2, 90000)])
        self.assertEqual([r.parts["total"].mean for r in reps], [1000.5, 2000.0])
        self.assertFalse(hasattr(reps[0].parts["total"], "buckets"))
        self.assertNotIn("sync", reps[0].parts)
        self.assertEqual(reps[1].where, "runs[0].repetitions[1]")

    def test_repetition_throughput_from_the_file_or_its_bytes(self):
        summary = {k: v for k, v in HIST.items()
                   if k not in ("buckets", "overflow")}

        def mutate(doc):
            doc["runs"][0]["repetitions"] = [
                {"complete": True, "ops": 2, "bytes": 16384,
                 "duration_ns": 2000, "ops_per_s": 1e6, "mb_per_s": 8192.0,
                 "latency": {"total": summary}},
                # before repetitions carried mb_per_s
                {"complete": True, "ops": 2, "bytes": 16384,
                 "duration_ns": 4000, "ops_per_s": 5e5,
                 "latency": {"total": summary}}]
        reps = self.load(mutate=mutate).runs[0].repetitions
        self.assertEqual(reps[0].mb_per_s, 8192.0)
        self.assertAlmostEqual(reps[1].mb_per_s, 4096.0)

    def test_asked_for_percentiles_and_those_limited_by_ops(self):
        def mutate(doc):
            doc["runs"][0]["latency"]["total"].update(
                p99_999=1300, p100=1300,
                percentiles_limited_by_ops=["p99_9", "p99_99", "p99_999"])
        hist = self.load(mutate=mutate).runs[0].parts["total"]
        self.assertEqual(hist.percentiles["p99_999"], 1300)
        self.assertEqual(hist.percentiles["p100"], 1300)
        self.assertEqual(hist.limited_by_ops, ["p99_9", "p99_99", "p99_999"])
        self.assertEqual(self.load().runs[0].parts["total"].limited_by_ops, [])

    def test_a_limited_percentile_that_is_not_a_key_is_refused(self):
        message = self.rejects(lambda doc: doc["runs"][0]["latency"]["total"]
                               .update(percentiles_limited_by_ops=[99.9]))
        self.assertIn("runs[0].latency.total.percentiles_limited_by_ops[0]",
                      message)

    def test_a_run_measured_once_has_no_repetitions(self):
        self.assertIsNone(self.load().runs[0].repetitions)
        self.assertIsNone(self.load(mutate=lambda d: d["runs"][0].update(
            repetitions=None)).runs[0].repetitions)

    def test_intervals_come_in_time_order_with_gaps_for_stalls(self):
        def mutate(doc):
            busy = {"repetition": 1, "start_ns": 0,
                    "duration_ns": 500000000, "ops": 3, "bytes": 24576,
                    "ops_per_s": 6.0, "mb_per_s": 0.05, "min_ns": 900,
                    "mean_ns": 1000.5, "p50_ns": 990, "p99_ns": 1300,
                    "max_ns": 1300}
            stall = {"repetition": 1, "start_ns": 500000000,
                     "duration_ns": 500000000, "ops": 0, "bytes": 0,
                     "ops_per_s": 0, "mb_per_s": 0, "min_ns": None,
                     "mean_ns": None, "p50_ns": None, "p99_ns": None,
                     "max_ns": None}
            doc["runs"][0]["intervals"] = {"interval_ns": 500000000,
                                           "series": [busy, stall]}
        run = self.load(mutate=mutate).runs[0]
        self.assertEqual(run.interval_ns, 500000000)
        busy, stall = run.intervals
        self.assertEqual((busy.start_ns, busy.ops, busy.p99_ns, busy.max_ns),
                         (0, 3, 1300, 1300))
        self.assertEqual(busy.where, "runs[0].intervals.series[0]")
        self.assertEqual((stall.start_ns, stall.ops, stall.ops_per_s),
                         (500000000, 0, 0))
        self.assertIsNone(stall.p99_ns)
        self.assertIsNone(stall.max_ns)

    def test_a_run_without_interval_has_no_series(self):
        self.assertIsNone(self.load().runs[0].intervals)
        run = self.load(mutate=lambda d: d["runs"][0].update(
            intervals=None)).runs[0]
        self.assertIsNone(run.intervals)
        self.assertIsNone(run.interval_ns)

    def test_a_bad_interval_value_names_its_path(self):
        def mutate(doc):
            doc["runs"][0]["intervals"] = {"interval_ns": 500000000,
                                           "series": [{
                                               "start_ns": 0,
                                               "duration_ns": 5, "ops": 2,
                                               "ops_per_s": 1.0,
                                               "p50_ns": 1, "p99_ns": 1,
                                               "min_ns": 1, "mean_ns": 1,
                                               "max_ns": None}]}
        self.assertIn("runs[0].intervals.series[0].max_ns",
                      self.rejects(mutate))

    def test_is_result_looks_at_the_schema_name(self):
        self.assertTrue(is_result(DOC))
        self.assertFalse(is_result({"fio version": "fio-3.33"}))
        self.assertFalse(is_result([DOC]))


class NeedTest(ResultFileTest):
    def test_need_returns_present_values(self):
        hist = self.load().runs[0].parts["total"]
        self.assertEqual(hist.need("mean", "p99"), [1000.5, 1300])
        self.assertEqual(hist.need("buckets")[0], (800, 803, 1))

    def test_need_names_the_path_of_a_missing_statistic(self):
        hist = self.load(mutate=lambda d: d["runs"][0]["latency"]["total"]
                         .pop("p90")).runs[0].parts["total"]
        with self.assertRaises(InputError) as ctx:
            hist.need("mean", "p90")
        self.assertIn("runs[0].latency.total.p90: missing, expected a number",
                      str(ctx.exception))

    def test_need_part_names_a_null_part(self):
        run = self.load().runs[0]
        with self.assertRaises(InputError) as ctx:
            run.need_part("service")
        self.assertIn("runs[0].latency.service: null, expected an object",
                      str(ctx.exception))
        self.assertIs(run.need_part("total"), run.parts["total"])

    def test_run_need_names_a_missing_rate(self):
        run = self.load(mutate=lambda d: d["runs"][0].pop("mb_per_s")).runs[0]
        with self.assertRaises(InputError) as ctx:
            run.need("mb_per_s")
        self.assertIn("runs[0].mb_per_s: missing", str(ctx.exception))


class RejectedTest(ResultFileTest):
    def test_unknown_schema_version_is_refused_clearly(self):
        message = self.rejects(lambda d: d.update(schema_version=3))
        self.assertIn("unknown diskio result schema_version 3", message)
        self.assertIn("reads schema_version 1 and 2", message)
        self.assertIn(":3:", message)     # the line of "schema_version"

    def test_boolean_schema_version_is_not_version_1(self):
        self.assertIn("schema_version true, expected a whole number",
                      self.rejects(lambda d: d.update(schema_version=True)))

    def test_a_name_longer_than_any_is_refused_naming_its_path(self):
        """A label (or mode) of 100 MB made every output that names it as
        large: refused when read, never cut (two names cut alike would
        become one)."""
        self.load(mutate=lambda d: d.update(label="x" * MAX_STRING_CHARS))
        message = self.rejects(lambda d: d.update(
            label="x" * (MAX_STRING_CHARS + 1)))
        self.assertIn(f"label: a string of {MAX_STRING_CHARS + 1} "
                      f"characters, longer than the {MAX_STRING_CHARS}",
                      message)
        self.assertIn("runs[0].mode: a string of", self.rejects(
            lambda d: d["runs"][0].update(mode="m" * 10 ** 6)))

    def test_a_run_without_parameters_is_refused(self):
        """parameters is null for a custom run; a run without the key is
        not a run of the schema (diskio-correlate stopped with an internal
        error on one)."""
        self.assertIn("runs[0].parameters: missing, expected an object "
                      "(null for a custom run)",
                      self.rejects(lambda d: d["runs"][0].pop("parameters")))

    def test_a_negative_latency_is_refused(self):
        """diskio-compare left a run with a negative mean out without a
        word; no latency is below 0."""
        for key in ("mean", "min", "max", "stddev", "p50", "p99"):
            with self.subTest(key=key):
                self.assertIn(f"runs[0].latency.total.{key}: -5 is below 0",
                              self.rejects(lambda d: d["runs"][0]["latency"]
                                           ["total"].update({key: -5})))

    def test_other_schema_is_not_a_result(self):
        self.assertIn("not a diskio result",
                      self.rejects(lambda d: d.update(schema="x")))

    def test_malformed_json_names_the_line(self):
        self.assertIn(":2: malformed JSON", self.rejects(text="{\n,}"))

    def test_wrong_types_name_the_json_path(self):
        cases = [
            (lambda d: d.update(runs={}), "runs: an object, expected a list"),
            (lambda d: d["runs"][0].update(mode=""),
             "runs[0].mode: empty string"),
            (lambda d: d["runs"][0]["parameters"].update(pattern=["seq"]),
             "runs[0].parameters.pattern: a list, expected a string or null"),
            (lambda d: d["runs"][0]["parameters"].update(block_size=0),
             "runs[0].parameters.block_size: 0 is below 1"),
            (lambda d: d["runs"][0]["parameters"].update(block_size=10 ** 30),
             "runs[0].parameters.block_size: integer too large"),
            (lambda d: d["runs"][0]["latency"].update(sync=[1]),
             "runs[0].latency.sync: a list, expected an object or null"),
            (lambda d: d["runs"][0].update(error="disk full"),
             "runs[0].error: a string, expected an object or null"),
            (lambda d: d["runs"][0].update(ops_per_s=-1),
             "runs[0].ops_per_s: -1 is below 0"),
            (lambda d: d["runs"][0].update(repetitions={}),
             "runs[0].repetitions: an object, expected a list"),
            (lambda d: d["runs"][0].update(repetitions=[{"ops": -2,
                                                         "latency": {}}]),
             "runs[0].repetitions[0].ops: -2, expected a count (a whole number, 0 or more)"),
            (lambda d: d["runs"][0].update(repetitions=[{"ops": 2}]),
             "runs[0].repetitions[0].latency: missing, expected an object"),
            (lambda d: d["runs"][0]["latency"]["total"].update(p50=True),
             "runs[0].latency.total.p50: true (a boolean)"),
            (lambda d: d["runs"][0]["latency"]["total"]["buckets"]
             .__setitem__(1, [1, 2]), "runs[0].latency.total.buckets[1]: "
             "a list, expected [lowest, highest, count]"),
            (lambda d: d["runs"][0]["latency"]["total"]["buckets"]
             .__setitem__(1, [9, 1, 1]),
             "runs[0].latency.total.buckets[1]: highest 1 is below lowest 9"),
        ]
        for mutate, expected in cases:
            with self.subTest(expected=expected):
                message = self.rejects(mutate)
                self.assertIn(f"{self.path}: {expected}", message)
                self.assertIn("doc/result-schema.md", message)

    def test_a_key_given_twice_is_refused_naming_its_path(self):
        text = json.dumps(DOC, indent=1).replace('"mode": "fsync",',
                                                 '"mode": "fsync", "mode": "async",')
        message = self.rejects(text=text)
        self.assertIn(f"{self.path}: runs[0].mode: given twice in one object", message)
        self.assertIn("regenerate it, or remove the value that is wrong", message)

    def test_a_count_that_is_no_whole_number_from_0_is_refused(self):
        """A count (ops, bytes, a histogram's count or bucket, errors, a
        device's requests) of 2.5, -1 or "3" names its path, wherever."""
        def device(doc):
            version_2(doc)
            return doc["runs"][0]["device"]["total"]

        def repetition(doc):
            doc["runs"][0]["repetitions"] = [{"ops": 2, "duration_ns": 5, "latency": {
                "total": {k: v for k, v in HIST.items() if k != "buckets"}}}]
            return doc["runs"][0]["repetitions"][0]
        places = [
            (lambda d: d["runs"][0]["latency"]["total"], "count",
             "runs[0].latency.total.count"),
            (lambda d: d["runs"][0], "ops", "runs[0].ops"),
            (lambda d: d["runs"][0], "errors", "runs[0].errors"),
            (lambda d: d["runs"][0]["latency"]["total"], "overflow",
             "runs[0].latency.total.overflow"),
            (repetition, "ops", "runs[0].repetitions[0].ops"),
            (lambda d: repetition(d)["latency"]["total"], "count",
             "runs[0].repetitions[0].latency.total.count"),
            (device, "writes", "runs[0].device.total.writes"),
            (device, "flushes", "runs[0].device.total.flushes"),
            (lambda d: d["runs"][0]["latency"]["total"]["buckets"][1], 2,
             "runs[0].latency.total.buckets[1][2]"),
        ]
        for where, key, path in places:
            for bad, said in ((2.5, "2.5"), (-1, "-1"), ("3", '"3"')):
                def mutate(doc):
                    where(doc)[key] = bad
                with self.subTest(path=path, bad=bad):
                    message = self.rejects(mutate)
                    self.assertIn(f"{self.path}: {path}: {said}, expected a count "
                                  "(a whole number, 0 or more)", message)
                    self.assertIn("regenerate it with diskio", message)

    def test_more_repetitions_than_diskio_makes_are_refused(self):
        summary = {k: v for k, v in HIST.items() if k not in ("buckets", "overflow")}

        def many(n):
            def mutate(doc):
                doc["runs"][0]["repetitions"] = [
                    {"ops": 2, "duration_ns": 2000 + i, "latency": {"total": summary}}
                    for i in range(n)]
            return mutate
        self.assertEqual(len(self.load(mutate=many(MAX_REPETITIONS)).runs[0].repetitions),
                         MAX_REPETITIONS)
        message = self.rejects(many(MAX_REPETITIONS + 1))
        self.assertIn(f"{self.path}: runs[0].repetitions: {MAX_REPETITIONS + 1} items, "
                      f"more than the {MAX_REPETITIONS} repetitions diskio --repeat "
                      "makes: no measurement", message)

    def test_the_most_repetitions_are_diskio_repeats_limit(self):
        header = os.path.join(FIXTURES, "..", "..", "..", "src", "cli", "cli_options.h")
        with open(header, encoding="utf-8") as f:
            limit = re.search(r"#define CLI_REPEAT_MAX (\d+)", f.read())
        self.assertEqual(int(limit.group(1)), MAX_REPETITIONS)

    def test_huge_number_is_too_large(self):
        text = json.dumps(DOC).replace('"mean": 1000.5', '"mean": ' + "9" * 400)
        self.assertIn("runs[0].latency.total.mean: number too large",
                      self.rejects(text=text))


def suite_doc(rows):
    """A result of two runs with a suite block of rows."""
    doc = copy.deepcopy(DOC)
    rep = {"complete": True, "ops": 4, "bytes": 32768,
           "duration_ns": 2000000, "start_offset_ns": 0, "ops_per_s": 2000.0,
           "latency": {"total": None, "write": None, "sync": None,
                       "service": None}}
    doc["runs"][0]["repetitions"] = [rep, dict(rep, duration_ns=4000000)]
    read = copy.deepcopy(RUN)
    read["mode"] = "read"
    doc["runs"].append(read)
    doc["suite"] = {"name": "sweep", "title": "I/O length sweep",
                    "summary": "mean", "rows": rows}
    return doc


class SuiteTest(ResultFileTest):
    ROWS = [{"label": "8 KiB", "column": "write", "run": 0, "note": None},
            {"label": "8 KiB", "column": "read", "run": 1, "note": None},
            {"label": "16 MiB", "column": "read", "run": None,
             "note": "not run: --bs 16777216 is larger than --suite-max-bs"}]

    def test_the_suite_and_its_rows_name_their_runs(self):
        result = self.load(suite_doc(self.ROWS))
        suite = result.suite
        self.assertEqual((suite.name, suite.title, suite.summary),
                         ("sweep", "I/O length sweep", "mean"))
        self.assertEqual([(r.name, r.run.mode if r.run else None)
                          for r in suite.rows],
                         [("8 KiB write", "fsync"), ("8 KiB read", "read"),
                          ("16 MiB read", None)])
        self.assertIn("suite-max-bs", suite.rows[2].note)
        self.assertIs(result.runs[1].suite_row, suite.rows[1])

    def test_each_repetitions_mb_per_s_from_its_bytes_and_duration(self):
        reps = self.load(suite_doc(self.ROWS)).runs[0].repetitions
        self.assertAlmostEqual(reps[0].mb_per_s, 16.384)
        self.assertAlmostEqual(reps[1].mb_per_s, 8.192)

    def test_a_result_without_a_suite_has_none(self):
        result = self.load()
        self.assertIsNone(result.suite)
        self.assertIsNone(result.runs[0].suite_row)

    def rejects_rows(self, rows):
        self.path = self.write("result.json", json.dumps(suite_doc(rows)))
        with self.assertRaises(InputError) as ctx:
            load_result(self.path)
        return str(ctx.exception)

    def test_a_row_naming_a_run_not_in_the_file_is_refused(self):
        message = self.rejects_rows([dict(self.ROWS[0], run=2)])
        self.assertIn("suite.rows[0].run: run 2 is not in runs[] (2 runs)",
                      message)

    def test_two_rows_of_one_run_are_refused(self):
        message = self.rejects_rows([self.ROWS[0], dict(self.ROWS[1], run=0)])
        self.assertIn("suite.rows[1].run: run 0 is also suite.rows[0]",
                      message)

    def test_a_row_without_a_label_is_refused(self):
        message = self.rejects_rows([dict(self.ROWS[0], label="")])
        self.assertIn("suite.rows[0].label", message)


DEVICE_IO = {"name": "loop0", "depth": 0, "leaf": False, "own_io": True,
             "volatile_cache": True, "fua": False, "rotational": True,
             "reads": 0, "read_sectors": 0, "writes": 1036,
             "write_merges": 36, "write_sectors": 8864, "flushes": 536,
             "writes_per_op": 2.072, "merges_per_op": 0.072,
             "kib_per_write": 4.28, "flushes_per_op": 1.072}
TOTAL_IO = {k: v for k, v in DEVICE_IO.items()
            if k not in ("depth", "leaf", "own_io", "volatile_cache", "fua",
                         "rotational")}
TOTAL_IO["name"] = "total"


def version_2(doc):
    doc["schema_version"] = 2
    doc["runs"][0]["device"] = {"total": dict(TOTAL_IO), "shared": False,
                                "devices": [dict(DEVICE_IO)]}
    doc["runs"][0]["verdicts"] = [{"code": "cache_ack", "message": "..."}]


class DeviceTest(ResultFileTest):
    def test_version_1_without_device_figures_is_still_read(self):
        run = self.load().runs[0]
        self.assertEqual((run.device_total, run.devices, run.device_shared,
                          run.verdicts), (None, [], None, []))

    def test_version_2_device_figures_and_verdicts_are_exposed(self):
        result = self.load(mutate=version_2)
        self.assertEqual(result.schema_version, 2)
        run = result.runs[0]
        self.assertEqual(run.device_total.name, "total")
        self.assertEqual(run.device_total.flushes, 536)
        self.assertEqual(run.device_total.writes_per_op, 2.072)
        self.assertIs(run.device_shared, False)
        self.assertEqual([d.name for d in run.devices], ["loop0"])
        self.assertEqual(run.devices[0].depth, 0)
        self.assertIs(run.devices[0].volatile_cache, True)
        self.assertEqual([(v.code, v.message) for v in run.verdicts],
                         [("cache_ack", "...")])

    def test_null_device_and_unknown_flushes_are_none(self):
        def mutate(doc):
            version_2(doc)
            doc["runs"][0]["device"]["total"]["flushes"] = None
            doc["runs"][0]["device"]["total"]["flushes_per_op"] = None
        run = self.load(mutate=mutate).runs[0]
        self.assertIsNone(run.device_total.flushes)
        self.assertIsNone(run.device_total.flushes_per_op)

        def no_device(doc):
            version_2(doc)
            doc["runs"][0]["device"] = None
        self.assertIsNone(self.load(mutate=no_device).runs[0].device_total)

    def test_read_runs_say_their_direction_and_device_reads(self):
        def mutate(doc):
            version_2(doc)
            run = doc["runs"][0]
            run["mode"] = "read"
            run["parameters"].update(direction="read", cached=False, verify=True)
            run["device"]["total"].update(reads=4, read_merges=1, read_sectors=32,
                                          reads_per_op=1.0, read_merges_per_op=0.25,
                                          kib_per_read=4.0)
        run = self.load(mutate=mutate).runs[0]
        self.assertEqual(run.direction, "read")
        self.assertIs(run.parameters.verify, True)
        self.assertEqual(run.device_total.read_merges, 1)
        self.assertEqual(run.device_total.reads_per_op, 1.0)
        self.assertEqual(run.device_total.kib_per_read, 4.0)

    def test_files_from_before_the_read_modes_are_writes(self):
        run = self.load(mutate=version_2).runs[0]
        self.assertEqual(run.direction, "write")
        self.assertIsNone(run.device_total.read_merges)
        self.assertIsNone(run.device_total.reads_per_op)

    def test_an_unknown_direction_names_its_path(self):
        def mutate(doc):
            doc["runs"][0]["parameters"]["direction"] = "sideways"
        with self.assertRaises(InputError) as ctx:
            self.load(mutate=mutate)
        self.assertIn("runs[0].parameters.direction", str(ctx.exception))

    def test_a_bad_device_value_names_its_path(self):
        def mutate(doc):
            version_2(doc)
            doc["runs"][0]["device"]["devices"][0]["writes"] = -1
        with self.assertRaises(InputError) as ctx:
            self.load(mutate=mutate)
        self.assertIn("runs[0].device.devices[0].writes", str(ctx.exception))

        def shared(doc):
            version_2(doc)
            doc["runs"][0]["device"]["shared"] = "no"
        with self.assertRaises(InputError) as ctx:
            self.load(mutate=shared)
        self.assertIn("runs[0].device.shared", str(ctx.exception))



# what diskio wrote for direct on ext4 data=journal (Linux 6.18)
NOT_DIRECT = {"honoured": False, "source": "statx",
              "evidence": "statx: no direct I/O for this file, dio alignment 0",
              "dio_offset_align": 0, "dio_mem_align": 0}


class DirectTest(ResultFileTest):
    def test_a_buffered_o_direct_run_is_not_direct(self):
        def mutate(doc):
            doc["runs"][0]["direct"] = dict(NOT_DIRECT)
        run = self.load(mutate=mutate).runs[0]
        self.assertIs(run.direct.honoured, False)
        self.assertEqual((run.direct.source, run.direct.dio_offset_align), ("statx", 0))
        self.assertTrue(run.not_direct)

    def test_direct_honoured_unknown_or_absent_is_not_not_direct(self):
        for direct in ({**NOT_DIRECT, "honoured": True, "dio_offset_align": 4096},
                       {**NOT_DIRECT, "honoured": None, "source": None,
                        "evidence": "unknown: ...", "dio_offset_align": None,
                        "dio_mem_align": None},
                       None):
            with self.subTest(direct=direct):
                def mutate(doc):
                    doc["runs"][0]["direct"] = direct
                self.assertFalse(self.load(mutate=mutate).runs[0].not_direct)
        self.assertIsNone(self.load().runs[0].direct)   # files from before it

    def test_a_bad_direct_names_its_path(self):
        def mutate(doc):
            doc["runs"][0]["direct"] = {**NOT_DIRECT, "source": "guess"}
        self.assertIn("runs[0].direct.source", self.rejects(mutate))


if __name__ == "__main__":
    unittest.main()
