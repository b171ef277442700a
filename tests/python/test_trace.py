# SPDX-License-Identifier: MIT
"""Description: the trace reader takes diskio's per-op CSV and rejects anything else with FILE:LINE.

the trace reader takes diskio's per-op CSV (elapsed time
from the first op, latency in us with a 1 ns floor) and rejects anything
else with FILE:LINE."""

import unittest

from diskio_analysis.errors import InputError
from diskio_analysis.plot.trace import is_trace_file, load_trace
from filelib import TempDirTest

HEADER = "op,start_ns,latency_ns,write_ns,sync_ns\n"


class TraceTest(TempDirTest):
    def rejects(self, text):
        with self.assertRaises(InputError) as ctx:
            load_trace(self.write("t.csv", text))
        return str(ctx.exception)

    def test_reads_ops(self):
        trace = load_trace(self.write("run-1.csv", HEADER + "0,1000,0,0,0\n"
                                      "\n1,2500001000,2500,0,0\n"))
        self.assertEqual(trace.name, "run-1")
        self.assertEqual(trace.ops, [0, 1])
        self.assertEqual(trace.elapsed_s, [0.0, 2.5])
        self.assertEqual(trace.latency_us, [0.001, 2.5])

    def test_recognises_its_header(self):
        self.assertTrue(is_trace_file(self.write("a.csv", HEADER)))
        self.assertTrue(is_trace_file(self.write("bom.csv", "\ufeff" + HEADER)))
        self.assertEqual(load_trace(self.write("bom.csv", "\ufeff" + HEADER +
                                               "0,0,1000,0,0\n")).ops, [0])
        self.assertFalse(is_trace_file(self.write("b.csv", "phase,seconds\n")))
        self.assertFalse(is_trace_file(self.write("c.csv", b"\xff\n")))

    def test_reads_the_wal_and_checkpoint_patterns_traces(self):
        wal = HEADER.strip() + (",job,record_lsn,record_end_lsn,flush_from_lsn,"
                                "flush_to_lsn,switch_ns\n")
        trace = load_trace(self.write("wal.csv", wal + "0,100,5000,10,4000,0,40,216,40,216,0\n"))
        self.assertEqual((trace.ops, trace.latency_us), ([0], [5.0]))
        self.assertTrue(is_trace_file(self.write("w.csv", wal)))
        ckpt = HEADER.strip() + ",checkpoint,file,offset,writeback_ns\n"
        self.assertEqual(load_trace(self.write("ck.csv", ckpt + "0,0,2000,900,0,0,3,8192,1100\n"))
                         .latency_us, [2.0])
        self.assertIn(":2: 5 fields, expected 9", self.rejects(ckpt + "0,0,0,0,0\n"))

    def test_rejections(self):
        self.assertIn(":1: not a diskio trace", self.rejects("a,b\n"))
        self.assertIn(":2: 2 fields, expected 5", self.rejects(HEADER + "1,2\n"))
        self.assertIn(":2: op, start_ns and latency_ns must be integers",
                      self.rejects(HEADER + "x,0,0,0,0\n"))
        self.assertIn(":2: negative time", self.rejects(HEADER + "0,0,-1,0,0\n"))
        self.assertIn(":2: op, start_ns or latency_ns out of range",
                      self.rejects(HEADER + f"0,0,{2 ** 63},0,0\n"))
        self.assertIn(":2: trace holds no operations", self.rejects(HEADER))
        self.assertIn("cannot read", self.rejects(b"\xff\xfe"))


if __name__ == "__main__":
    unittest.main()
