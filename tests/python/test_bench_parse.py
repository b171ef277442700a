# SPDX-License-Identifier: MIT
"""Description: the benchmark harness reads every peer's output into the same figures.

the benchmark harness reads each tool's output (fio JSON,
sysbench, ioping, pg_test_fsync, the bare loop, diskio's result) into the
same figures, from outputs captured from fio 3.33, sysbench 1.0.20,
ioping 1.3 and pg_test_fsync 15, and refuses what does not parse."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

from peers.common import Fail  # noqa: E402
from peers.parse import (parse_bare, parse_fio, parse_ioping_brief,  # noqa: E402
                         parse_ioping_requests, parse_sysbench, pg_metrics,
                         read_diskio_result, read_pg_one_write)

# fio --rw=write --ioengine=psync --fdatasync=1 --bs=8192 --io_size=81920,
# trimmed to what is read; fio 3.33 counts the syncs in lat_ns.N only.
FIO_FDATASYNC = json.dumps({"fio version": "fio-3.33", "jobs": [{
    "jobname": "w", "error": 0,
    "write": {"total_ios": 10, "iops": 217.391304,
              "lat_ns": {"min": 18154, "max": 102715, "mean": 39818.5, "N": 10,
                         "percentile": {"50.000000": 26496, "99.000000": 102912}}},
    "sync": {"total_ios": 0, "lat_ns": {"min": 1471681, "max": 7657765,
                                        "mean": 4540308.0, "N": 9}}}]})

SYSBENCH_FDATASYNC = """\
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Periodic FSYNC enabled, calling fsync() each 1 requests.
Doing sequential rewrite test
Threads started!


File operations:
    reads/s:                      0.00
    writes/s:                     212.75
    fsyncs/s:                     212.75

Throughput:
    read, MiB/s:                  0.00
    written, MiB/s:               1.66

General statistics:
    total time:                          0.0385s
    total number of events:              20

Latency (ms):
         min:                                    0.01
         avg:                                    1.84
"""

# ioping -W -L -i 0 -s 8192 -a 2 -c 5 -C -J (timestamps and target dropped)
IOPING_JSON = json.dumps(
    [{"io": {"request": i + 1, "operation": "write", "size": 8192, "time": t,
             "ignored": i < 2}} for i, t in enumerate((19617, 5039, 3938, 3727, 4378))]
    + [{"stat": {"count": 3, "size": 24576, "time": 12043, "iops": 249107.365274,
                 "min": 3727, "avg": 4014, "max": 4378, "mdev": 271},
        "load": {"count": 5, "size": 40960, "time": 240626, "iops": 20779.134424}}])

IOPING_BRIEF = "3 12995 230858 1891188919 3868 4332 4849 402 5 46448\n"

PG_TEST_FSYNC = """\
1 second per test
O_DIRECT supported on this platform for open_datasync and open_sync.

Compare file sync methods using one 8kB write:
(in wal_sync_method preference order, except fdatasync is Linux's default)
        open_datasync                       324.990 ops/sec    3077 usecs/op
        fdatasync                           345.886 ops/sec    2891 usecs/op
        fsync                               275.146 ops/sec    3634 usecs/op
        fsync_writethrough                              n/a
        open_sync                           345.738 ops/sec    2892 usecs/op

Compare file sync methods using two 8kB writes:
(in wal_sync_method preference order, except fdatasync is Linux's default)
        open_datasync                       165.742 ops/sec    6033 usecs/op
""".splitlines(keepends=True)


class FioTest(unittest.TestCase):
    def test_fdatasync_op_is_write_plus_sync_without_median(self):
        m = parse_fio(FIO_FDATASYNC, {"mode": "fdatasync", "count": 10})
        self.assertEqual(m["mean_ns"], 39818.5 + 4540308.0)
        self.assertEqual((m["write_mean_ns"], m["sync_mean_ns"]), (39818.5, 4540308.0))
        self.assertIsNone(m["p50_ns"])
        self.assertEqual((m["ops_s"], m["ops"], m["sync_N"]), (217.391304, 10, 9))

    def test_buffered_write_keeps_fio_median(self):
        m = parse_fio(FIO_FDATASYNC, {"mode": "osync", "count": 10})
        self.assertEqual((m["mean_ns"], m["p50_ns"]), (39818.5, 26496))
        self.assertNotIn("sync_mean_ns", m)

    def test_notes_before_the_json_are_skipped(self):
        m = parse_fio("note: both iodepth >= 1 and synchronous I/O engine\n" + FIO_FDATASYNC,
                      {"mode": "direct", "count": 10})
        self.assertEqual(m["ops"], 10)

    def test_queue_depth_engine_has_no_sync_section_to_add(self):
        m = parse_fio(FIO_FDATASYNC, {"mode": "fsync", "engine": "libaio", "count": 10})
        self.assertEqual(m["mean_ns"], 39818.5)

    def test_missing_sync_latencies_fail(self):
        doc = json.loads(FIO_FDATASYNC)
        doc["jobs"][0]["sync"]["lat_ns"]["N"] = 0
        with self.assertRaisesRegex(Fail, "no sync latencies"):
            parse_fio(json.dumps(doc), {"mode": "fsync", "count": 10})

    def test_wrong_op_count_fails(self):
        with self.assertRaisesRegex(Fail, "fio did 10 ops, expected 11"):
            parse_fio(FIO_FDATASYNC, {"mode": "direct", "count": 11})

    def test_job_error_and_garbage_fail(self):
        doc = json.loads(FIO_FDATASYNC)
        doc["jobs"][0]["error"] = 5
        with self.assertRaisesRegex(Fail, "fio job error 5"):
            parse_fio(json.dumps(doc), {"mode": "direct", "count": 10})
        with self.assertRaisesRegex(Fail, "fio output unreadable"):
            parse_fio("fio: no such engine", {"mode": "direct", "count": 10})


class SysbenchTest(unittest.TestCase):
    def test_op_is_one_write_and_mean_its_inverse(self):
        m = parse_sysbench(SYSBENCH_FDATASYNC)
        self.assertEqual(m["ops_s"], 212.75)
        self.assertAlmostEqual(m["mean_ns"], 1e9 / 212.75)
        self.assertIsNone(m["p50_ns"])
        self.assertEqual((m["ops"], m["events"], m["fsyncs_s"]), (8, 20, 212.75))

    def test_no_writes_fail(self):
        with self.assertRaisesRegex(Fail, "did no writes"):
            parse_sysbench(SYSBENCH_FDATASYNC.replace("212.75\n    fsyncs", "0.00\n    fsyncs"))

    def test_truncated_output_fails(self):
        with self.assertRaisesRegex(Fail, "sysbench output unreadable"):
            parse_sysbench(SYSBENCH_FDATASYNC.split("General")[0])


class IopingTest(unittest.TestCase):
    def test_warmup_requests_are_left_out_and_rate_is_over_wall_time(self):
        m = parse_ioping_requests(IOPING_JSON, 3)
        self.assertEqual(m["ops"], 3)
        self.assertAlmostEqual(m["mean_ns"], (3938 + 3727 + 4378) / 3)
        self.assertEqual(m["p50_ns"], 3938)
        self.assertAlmostEqual(m["ops_s"], 5 * 1e9 / 240626)
        self.assertEqual(m["io_iops"], 249107.365274)

    def test_wrong_request_count_fails(self):
        with self.assertRaisesRegex(Fail, "3 valid requests, expected 4"):
            parse_ioping_requests(IOPING_JSON, 4)

    def test_brief_summary_gives_mean_and_rate_but_no_median(self):
        m = parse_ioping_brief(IOPING_BRIEF)
        self.assertEqual((m["ops"], m["mean_ns"], m["p50_ns"]), (3, 4332.0, None))
        self.assertAlmostEqual(m["ops_s"], 5 * 1e9 / 46448)

    def test_short_brief_summary_fails(self):
        with self.assertRaisesRegex(Fail, "ioping output unreadable"):
            parse_ioping_brief("3 12995")


class PgTestFsyncTest(unittest.TestCase):
    def test_one_write_section_is_read_up_to_open_sync_only(self):
        lines = iter(PG_TEST_FSYNC)
        res, echo = {}, []
        read_pg_one_write(lines, res, echo)
        self.assertEqual(res["fdatasync"], (345.886, 2891))
        self.assertIsNone(res["fsync_writethrough"])
        self.assertTrue(echo[-1].strip().startswith("open_sync"))
        # the two-writes section is left unread, so a pipe can be stopped
        self.assertIn("two 8kB writes", "".join(lines))

    def test_methods_map_to_diskio_modes_with_mean_from_ops_per_sec(self):
        out = pg_metrics(read_pg_one_write(PG_TEST_FSYNC, {}, []))
        self.assertEqual(sorted(out), ["direct-dsync", "fdatasync", "fsync", "osync+direct"])
        self.assertEqual(out["direct-dsync"]["method"], "open_datasync")
        self.assertAlmostEqual(out["fsync"]["mean_ns"], 1e9 / 275.146)
        self.assertEqual(out["fsync"]["usecs_printed"], 3634)
        self.assertIsNone(out["fsync"]["p50_ns"])

    def test_nothing_printed_gives_no_figures(self):
        self.assertEqual(pg_metrics(read_pg_one_write(PG_TEST_FSYNC[:3], {}, [])), {})


class BareLoopTest(unittest.TestCase):
    def test_json_line_read(self):
        m = parse_bare('{"ops": 100, "ops_per_s": 5000.5, "mean_ns": 199.9, "p50_ns": 180}\n')
        self.assertEqual(m, {"ops_s": 5000.5, "mean_ns": 199.9, "p50_ns": 180, "ops": 100})

    def test_untimed_loop_has_no_latency(self):
        m = parse_bare('{"ops": 100, "ops_per_s": 5000.5}')
        self.assertIsNone(m["mean_ns"])

    def test_garbage_fails(self):
        with self.assertRaisesRegex(Fail, "bare-loop output unreadable"):
            parse_bare("Segmentation fault")


def hist(mean, p50):
    return {"count": 20, "min": 1, "max": 9e5, "mean": mean, "stddev": 1.0, "p50": p50}


def diskio_result(**run):
    doc = {"schema": "diskio-result", "schema_version": 1, "complete": True,
           "runs": [dict({"mode": "fdatasync", "parameters": {"block_size": 8192},
                          "complete": True, "error": None, "ops": 20, "ops_per_s": 5345.7,
                          "latency": {"total": hist(186768.9, 147967),
                                      "write": hist(4679.2, 4000),
                                      "sync": hist(182089.7, 140000), "service": None}},
                         **run)]}
    return doc


class DiskioResultTest(unittest.TestCase):
    def read(self, doc, count=20):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "result.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            return read_diskio_result(path, count)

    def test_sync_mode_gives_total_write_and_sync(self):
        m = self.read(diskio_result())
        self.assertEqual(m, {"ops_s": 5345.7, "mean_ns": 186768.9, "p50_ns": 147967,
                             "ops": 20, "write_mean_ns": 4679.2, "sync_mean_ns": 182089.7})

    def test_mode_without_sync_part_gives_total_only(self):
        doc = diskio_result()
        doc["runs"][0]["latency"]["sync"] = None
        self.assertNotIn("sync_mean_ns", self.read(doc))

    def test_incomplete_run_fails(self):
        with self.assertRaisesRegex(Fail, "diskio run incomplete"):
            self.read(diskio_result(complete=False))
        with self.assertRaisesRegex(Fail, "diskio run incomplete"):
            self.read(diskio_result(), count=21)

    def test_mistyped_value_fails_naming_its_json_path(self):
        doc = diskio_result()
        doc["runs"][0]["latency"]["total"]["mean"] = "fast"
        with self.assertRaisesRegex(Fail, r"unreadable: .*runs\[0\]\.latency\.total\.mean"):
            self.read(doc)

    def test_missing_median_and_missing_file_fail(self):
        doc = diskio_result()
        del doc["runs"][0]["latency"]["total"]["p50"]
        with self.assertRaisesRegex(Fail, "p50"):
            self.read(doc)
        with self.assertRaisesRegex(Fail, "diskio result unreadable"):
            read_diskio_result("/nonexistent/result.json", 1)


if __name__ == "__main__":
    unittest.main()
