# SPDX-License-Identifier: MIT
"""Description: the benchmark harness measures how busy the machine was and which mount it measures.

the benchmark harness counts busy, total and steal CPU
time from /proc/stat, calls a round busy when other processes or the
hypervisor took more than the threshold, and finds the mount that holds
the measured directory."""

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

from peers.load import LoadMeter, cpu_ticks, is_busy, live_descendants_cpu_s  # noqa: E402
from peers.machine import mountinfo_for  # noqa: E402


class CpuTicksTest(unittest.TestCase):
    def test_iowait_is_idle_and_guest_is_inside_user(self):
        #        user nice system idle iowait irq softirq steal guest guest_nice
        line = "cpu  100 10 50 1000 200 5 7 30 40 0\n"
        busy, total, steal = cpu_ticks(line)
        self.assertEqual(busy, 100 + 10 + 50 + 5 + 7)
        self.assertEqual(total, busy + 1000 + 200 + 30)
        self.assertEqual(steal, 30)

    def test_old_kernel_line_without_steal(self):
        self.assertEqual(cpu_ticks("cpu 1 2 3 4 5 6 7"), (1 + 2 + 3 + 6 + 7, 28, 0))


class BusyTest(unittest.TestCase):
    def test_other_processes_or_steal_above_threshold(self):
        self.assertFalse(is_busy({"other_busy": 0.15, "steal": 0.0}, 0.15))
        self.assertTrue(is_busy({"other_busy": 0.16, "steal": 0.0}, 0.15))
        self.assertTrue(is_busy({"other_busy": 0.0, "steal": 0.2}, 0.15))

    def test_meter_reports_shares_between_zero_and_one(self):
        load = LoadMeter().stop()
        for key in ("other_busy", "own_busy", "steal"):
            self.assertTrue(0 <= load[key] <= 1, (key, load[key]))
        self.assertGreaterEqual(load["wall_s"], 0)


class OwnCpuTest(unittest.TestCase):
    def test_a_running_child_is_the_harness_own_not_another_process(self):
        # a server the harness started is not reaped while it measures:
        # its CPU time is still the harness's own.  The child spins 0.3 s
        # of its own CPU time, says so, and sleeps until told to go.
        child = subprocess.Popen(
            [sys.executable, "-c",
             "import sys, time\n"
             "while time.process_time() < 0.3: pass\n"
             "print('spun', flush=True)\n"
             "sys.stdin.read()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            self.assertEqual(child.stdout.readline().strip(), "spun")
            self.assertGreaterEqual(live_descendants_cpu_s(), 0.25)
        finally:
            child.communicate("")


MOUNTINFO = """\
22 1 252:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw
30 22 0:26 / /tmp rw,nosuid shared:2 - tmpfs tmpfs rw,size=512m
31 22 252:2 / /tmp2 rw shared:3 - xfs /dev/vdb rw
32 22 0:40 / /mnt/my\\040disk rw shared:4 - ext4 /dev/vdc rw
"""


class MountinfoTest(unittest.TestCase):
    def setUp(self):
        fd, self.path = tempfile.mkstemp()
        with os.fdopen(fd, "w") as f:
            f.write(MOUNTINFO)

    def tearDown(self):
        os.unlink(self.path)

    def test_longest_mount_point_holding_the_path_wins(self):
        self.assertEqual(mountinfo_for("/tmp/x/y", self.path),
                         ("tmpfs", "tmpfs", "/tmp", "rw,nosuid"))

    def test_prefix_of_a_name_is_not_its_mount(self):
        self.assertEqual(mountinfo_for("/tmp2/a", self.path)[0], "xfs")
        self.assertEqual(mountinfo_for("/tmpx", self.path)[2], "/")

    def test_escaped_space_in_mount_point(self):
        self.assertEqual(mountinfo_for("/mnt/my disk/f", self.path)[1], "/dev/vdc")

    def test_unreadable_mountinfo_is_unknown(self):
        self.assertEqual(mountinfo_for("/", "/nonexistent")[0], "unknown")


if __name__ == "__main__":
    unittest.main()
