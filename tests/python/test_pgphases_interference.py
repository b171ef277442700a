# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases records what else the machine did in each phase and flags a disturbed one.

diskio-pgphases reads what else the machine did during a
phase from /proc text as the kernel writes it (recorded here), subtracts
the server's and its own CPU time, flags a phase beyond diskio's
thresholds as disturbed with the reason, and writes every phase's
figures to interference.csv."""

import os
import unittest

from diskio_analysis.pgphases import interference

STAT = """cpu  45313 0 22447 85373 6847 0 1243 169 0 0
cpu0 22677 0 9778 45658 2650 0 146 81 0 0
cpu1 22636 0 12668 39714 4197 0 1097 87 0 0
intr 1 2 3
procs_running 3
"""
PSI = """some avg10=0.35 avg60=9.33 avg300=10.78 total=114434411
full avg10=0.00 avg60=0.00 avg300=0.00 total=0
"""
MEMINFO = """MemTotal:        8039812 kB
Dirty:              25552 kB
Writeback:            116 kB
"""


def snap(elapsed, busy, steal=0, own=0.0, cpu_psi=0, dirty=0, devices=None,
         server=None, client=None):
    s = {"elapsed": elapsed, "own_s": own, "stat": (busy, steal, 2),
         "hz": 100, "psi": {"cpu": cpu_psi, "io": 0, "memory": 0},
         "dirty_kib": dirty, "devices": devices or {}}
    if server is not None:
        s.update(server_s=server, client_s=client)
    return s


class ParseTest(unittest.TestCase):
    def test_proc_files_as_the_kernel_writes_them(self):
        self.assertEqual(interference.parse_stat(STAT),
                         (45313 + 22447 + 1243, 169, 2))
        self.assertEqual(interference.parse_psi(PSI), 114434411)
        self.assertEqual(interference.parse_meminfo(MEMINFO), 25552 + 116)

    def test_what_is_not_there_is_none(self):
        self.assertIsNone(interference.parse_stat("intr 1\n"))
        self.assertIsNone(interference.parse_psi(None))
        self.assertIsNone(interference.parse_meminfo("Dirty: 1 kB\n"))


class JudgeTest(unittest.TestCase):
    def test_a_quiet_phase_is_not_disturbed(self):
        f = interference.figures(snap(0, 0), snap(10, 300, own=2.5))
        self.assertAlmostEqual(f["other_cpus"], 0.05)
        self.assertEqual(f["reasons"], [])

    def test_other_cpu_beyond_the_spare_cpus_is_a_reason(self):
        # 2 CPUs busy for 10 s, of which the server and the runner 1 s
        f = interference.figures(snap(0, 0), snap(10, 2000, own=1.0))
        self.assertAlmostEqual(f["other_cpus"], 1.9)
        self.assertEqual(f["reasons"], ["other processes used 1.90 CPUs (threshold 1.70)"])
        row = interference.csv_row("PERF.POWER", f)
        self.assertEqual(row[0], "PERF.POWER")
        self.assertEqual(row[-7:], ["true", "other processes used 1.90 CPUs (threshold 1.70)", "1",
                                    "", "", "", ""])
        self.assertEqual(len(row), len(interference.HEADER))

    def test_steal_pressure_and_dirty_pages_are_reasons(self):
        f = interference.figures(snap(0, 0, dirty=512 * 1024),
                                 snap(10, 100, steal=200, cpu_psi=7_000_000))
        self.assertEqual(len(f["reasons"]), 3, f["reasons"])
        self.assertIn("stole 10%", f["reasons"][0])
        self.assertIn("waited for a CPU 70%", f["reasons"][1])
        self.assertIn("512 MiB of dirty pages", f["reasons"][2])

    def test_device_bytes_are_recorded_not_judged(self):
        f = interference.figures(snap(0, 0, devices={"vda": (0, 0)}),
                                 snap(10, 0, devices={"vda": (2048, 4096)}))
        self.assertEqual((f["device_read_mib"], f["device_written_mib"]), (1.0, 2.0))
        self.assertEqual(f["reasons"], [])

    def test_the_data_directorys_device_time_per_request_is_recorded(self):
        # loop0 (first: the data directory's) over vda: 400 writes in 48 ms,
        # 100 flushes in 25 ms; vda's own requests are not loop0's
        before = {"loop0": (0, 0, 100, 10, 50, 5), "vda": (0, 0, 0, 0, 0, 0)}
        after = {"loop0": (0, 8, 500, 58, 150, 30), "vda": (0, 8, 900, 900, 90, 90)}
        f = interference.figures(snap(0, 0, devices=before), snap(10, 0, devices=after))
        self.assertEqual((f["device_us_per_write"], f["device_us_per_flush"]), (120.0, 250.0))
        row = dict(zip(interference.HEADER, interference.csv_row("COMMIT.C4", f)))
        self.assertEqual((row["device_us_per_write"], row["device_us_per_flush"]),
                         ("120.0", "250.0"))
        # under 20 ms of flushes the whole milliseconds do not resolve a
        # mean; a kernel before 5.5 counts no flushes
        after["loop0"] = (0, 8, 500, 58, 150, 24)
        f = interference.figures(snap(0, 0, devices=before), snap(10, 0, devices=after))
        self.assertIsNone(f["device_us_per_flush"])
        old = {"loop0": (0, 0, 100, 10, None, None)}
        f = interference.figures(snap(0, 0, devices=old),
                                 snap(10, 0, devices={"loop0": (0, 8, 500, 58, None, None)}))
        self.assertEqual((f["device_us_per_write"], f["device_us_per_flush"]), (120.0, None))

    def test_a_btrfs_data_directory_is_found_through_its_mount(self):
        # btrfs's files carry an anonymous device number (0:NN): the device
        # is the mount's source, the innermost mount holding the path
        mountinfo = ("22 1 254:1 / / rw,relatime - ext4 /dev/vda rw\n"
                     "90 22 0:52 / /tmp/t/btrfs rw,relatime - btrfs /dev/loop3 rw\n"
                     "91 22 0:53 / /tmp/t/btrfs2 rw,relatime - btrfs /dev/loop4 rw\n"
                     "95 22 0:60 / /tmp/t/mem rw - tmpfs tmpfs rw\n")
        found = interference.mount_source_device
        self.assertEqual(found("/tmp/t/btrfs/pg/data", mountinfo), "loop3")
        self.assertEqual(found("/tmp/t/btrfs", mountinfo), "loop3")
        self.assertEqual(found("/tmp/t/btrfs2x", mountinfo), "vda")
        self.assertIsNone(found("/tmp/t/mem/x", mountinfo))

    def test_the_server_and_client_cpus_are_recorded_apart(self):
        # 4 s: the server's processes 3 s of CPU, the runner and its psql 1 s
        f = interference.figures(snap(0, 0, server=10.0, client=2.0),
                                 snap(4, 500, own=4.0, server=13.0, client=3.0))
        self.assertEqual((f["server_cpus"], f["client_cpus"]), (0.75, 0.25))
        self.assertAlmostEqual(f["other_cpus"], 0.25)
        row = dict(zip(interference.HEADER, interference.csv_row("RF2", f)))
        self.assertEqual((row["server_cpus"], row["client_cpus"]), ("0.750", "0.250"))

    def test_snapshot_splits_the_server_from_this_process(self):
        while sum(os.times()[:2]) < 0.05:     # a few clock ticks of CPU
            pass
        s = interference.snapshot(server_pids=[os.getpid()])
        self.assertGreater(s["server_s"], 0.0)
        self.assertAlmostEqual(s["own_s"], s["server_s"] + s["client_s"], places=6)


if __name__ == "__main__":
    unittest.main()
