# SPDX-License-Identifier: MIT
"""Description: a fio job becomes the diskio mode it measured, with diskio's metric names.

a fio job becomes the diskio mode it measured (by its
options), its sizes are read as fio reads them, and its output becomes
metrics named like diskio's, with fsync jobs' mean = write + sync; the
clones of a job run without group_reporting get the advice to report
them as one, two distinct jobs measuring the same thing other advice."""

import copy
import unittest

from diskio_analysis.correlate.environment import Environment
from diskio_analysis.errors import InputError
from diskio_analysis.fio import (FioOptions, fio_job_mode, load_fio_result,
                                 parse_fio_size)
from diskio_analysis.jsonfile import JsonFile
from diskio_analysis.modes import MODES

SRC = JsonFile("fio.json", "fix it")


def options(**job):
    return FioOptions(SRC, {}, {k: v for k, v in job.items()}, "jobs[0]")


def lat(mean, n=100, **percentiles):
    return {"mean": mean, "max": mean * 3, "N": n,
            "percentile": {k: v for k, v in percentiles.items()}}


def job(name, write_lat, sync=None, **opts):
    return {"jobname": name, "error": 0, "job options": opts,
            "write": {"iops": 1000.0, "total_ios": 100, "lat_ns": write_lat,
                      "clat_ns": write_lat},
            "sync": sync or {"total_ios": 0, "lat_ns": {"N": 0}}}


DOC = {"fio version": "fio-3.33", "global options": {"bs": "8k"},
       "jobs": [job("w", lat(2000.0, **{"50.000000": 1500, "99.000000": 9000}),
                    rw="write"),
                job("f", lat(1000.0), {"total_ios": 0,
                                       "lat_ns": {"mean": 4000.0, "N": 100,
                                                  "percentile": {
                                                      "50.000000": 3500}}},
                    fsync="1")]}


class ModeTest(unittest.TestCase):
    def test_modes_from_options(self):
        self.assertEqual(fio_job_mode(options()), ("async", 1, None))
        self.assertEqual(fio_job_mode(options(direct="1")), ("direct", 1, None))
        self.assertEqual(fio_job_mode(options(fdatasync="8")),
                         ("fdatasync", 8, None))
        self.assertEqual(fio_job_mode(options(sync="dsync")), ("odsync", 1, None))
        self.assertEqual(fio_job_mode(options(sync="1")), ("osync", 1, None))
        self.assertEqual(fio_job_mode(options(sync="dsync", direct="1")),
                         ("direct-dsync", 1, None))
        self.assertEqual(fio_job_mode(options(ioengine="libaio", direct=1)),
                         ("aio", 1, None))
        self.assertEqual(fio_job_mode(options(ioengine="io_uring")),
                         ("fio-io_uring", 1, None))

    def test_direct_sync_is_the_nearest_mode_and_says_so(self):
        """fio's direct=1 sync=1 (O_DIRECT|O_SYNC) is no diskio mode: it is
        direct-dsync, the nearest real one, with a note, never a made-up
        name."""
        mode, interval, note = fio_job_mode(options(sync="1", direct="1"))
        self.assertEqual((mode, interval), ("direct-dsync", 1))
        self.assertIn(mode, MODES)
        self.assertIn("O_DIRECT|O_SYNC, which no diskio mode does", note)
        self.assertIn("sync=dsync", note)

    def test_sizes(self):
        self.assertEqual(parse_fio_size("8k"), 8192)
        self.assertEqual(parse_fio_size("1MiB"), 1 << 20)
        self.assertIsNone(parse_fio_size("lots"))
        self.assertEqual(options(bs="4k,16k").size("bs", "4k"), 16384)

    def test_option_of_wrong_type_names_its_path(self):
        with self.assertRaises(InputError) as ctx:
            options(bs=["8k"])
        self.assertIn('jobs[0]["job options"].bs: a list', str(ctx.exception))


class LoadTest(unittest.TestCase):
    def load(self, doc):
        env = Environment("/envs/fio", name="fio")
        load_fio_result(env, "fio.json", doc)
        return env

    def test_metrics_of_a_write_job_and_an_fsync_job(self):
        env = self.load(DOC)
        self.assertEqual(env.metrics["async.mean_us"].value, 2.0)
        self.assertEqual(env.metrics["async.p99_us"].value, 9.0)
        self.assertEqual(env.metrics["async.max_us"].value, 6.0)
        self.assertEqual(env.metrics["fsync.mean_us"].value, 5.0)
        self.assertEqual(env.metrics["fsync.sync_p50_us"].value, 3.5)
        self.assertNotIn("fsync.p50_us", env.metrics)
        # fio leaves sync.total_ios at 0: lat_ns.N is the count
        self.assertEqual(env.runs[1]["syncs"], 100)

    def test_a_direct_sync_job_is_direct_dsync_with_a_note(self):
        doc = {"fio version": "fio-3.33", "global options": {"bs": "8k"},
               "jobs": [job("ds", lat(3000.0), direct="1")]}
        doc["jobs"][0]["job options"]["sync"] = "1"  # job()'s sync is the sync part
        env = self.load(doc)
        self.assertEqual(env.metrics["direct-dsync.mean_us"].value, 3.0)
        self.assertEqual([r["mode"] for r in env.runs], ["direct-dsync"])
        self.assertTrue(any("fio job ds: direct=1 with sync=1 writes O_DIRECT|O_SYNC" in n
                            for n in env.notes), env.notes)

    def test_failed_and_idle_jobs_are_skipped_with_a_note(self):
        doc = copy.deepcopy(DOC)
        doc["jobs"][0]["error"] = 5
        doc["jobs"][1]["write"]["lat_ns"]["N"] = 0
        env = self.load(doc)
        self.assertEqual(env.metrics, {})
        self.assertIn("failed (error 5)", env.notes[0])
        self.assertIn("did no writes", env.notes[1])

    def test_clones_without_group_reporting_are_told_how_to_report_them(self):
        doc = copy.deepcopy(DOC)
        clone = copy.deepcopy(doc["jobs"][0])
        for j in (doc["jobs"][0], clone):
            j["job options"]["numjobs"] = "2"
        doc["jobs"].insert(1, clone)
        with self.assertRaises(InputError) as ctx:
            self.load(doc)
        self.assertEqual(str(ctx.exception),
                         "fio.json: fio job w is reported once per clone "
                         "(jobs[0] and jobs[1]: numjobs without "
                         "group_reporting); rerun fio with --group_reporting "
                         "(or group_reporting=1 in the job file) so that the "
                         "clones are reported as one job")

    def test_distinct_jobs_measuring_the_same_thing(self):
        doc = copy.deepcopy(DOC)
        other = copy.deepcopy(doc["jobs"][0])
        other["jobname"] = "w2"
        doc["jobs"].append(other)
        with self.assertRaises(InputError) as ctx:
            self.load(doc)
        self.assertIn("fio jobs w (jobs[0]) and w2 (jobs[2]) measure the same "
                      "async writes", str(ctx.exception))
        self.assertIn("--group_reporting", str(ctx.exception))

    def test_a_grouped_job_of_clones_is_noted(self):
        doc = copy.deepcopy(DOC)
        doc["jobs"][0]["job options"]["numjobs"] = "4"
        env = self.load(doc)
        self.assertIn("fio job w ran 4 clones at once (numjobs)", env.notes[0])

    def test_output_without_jobs_is_refused(self):
        with self.assertRaises(InputError) as ctx:
            self.load({"fio version": "3"})
        self.assertIn("without a 'jobs' list", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
