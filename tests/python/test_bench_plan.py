# SPDX-License-Identifier: MIT
"""Description: the benchmark harness plans each round's cases, peers and tool order.

the benchmark harness's options default by mode (full,
--quick, --smoke), each group plans its cases with the peers that have an
equivalent configuration, and the order of the tools rotates."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

from diskio_analysis.errors import UsageError  # noqa: E402
from peers.command import parse_args  # noqa: E402
from peers.plan import plan  # noqa: E402
from peers.rounds import rotated  # noqa: E402
from peers.runner import Env  # noqa: E402


class OptionsTest(unittest.TestCase):
    def test_defaults_by_mode(self):
        full, quick, smoke = (parse_args(a) for a in ([], ["--quick"], ["--smoke"]))
        self.assertEqual((full.rounds, full.count, full.only),
                         (5, 10000, ["overhead", "accuracy", "qd", "read", "crystal", "memory",
                                     "record"]))
        self.assertEqual((quick.rounds, quick.count), (3, 2500))
        self.assertEqual(smoke.rounds, 1)

    def test_only_takes_known_groups(self):
        self.assertEqual(parse_args(["--only", "qd, accuracy"]).only, ["qd", "accuracy"])
        with self.assertRaisesRegex(UsageError, "unknown group nope"):
            parse_args(["--only", "qd,nope"])

    def test_rounds_and_count_at_least_one(self):
        with self.assertRaises(UsageError):
            parse_args(["--rounds", "0"])


def env_for(argv, tmpfs=None, uring=False):
    env = Env(parse_args(argv), tempfile.gettempdir())
    env.tmpfs = tmpfs
    env.tools["uring"] = uring
    return env


def planned(env):
    with contextlib.redirect_stderr(io.StringIO()):
        return {c["name"]: (c, tools) for c, tools in plan(env.args, env)}


class PlanTest(unittest.TestCase):
    def test_read_cases_match_fio_job_for_job(self):
        from peers.runs import fio_cmd
        env = env_for(["--only", "read", "--quick"])
        cases = planned(env)
        self.assertEqual(sorted(cases), ["direct-read 1 MiB seq", "direct-read 4 KiB rand",
                                         "read 1 MiB seq", "read 4 KiB rand"])
        env.tools["fio"] = {"path": "fio"}
        for name, (case, tools) in cases.items():
            self.assertEqual(tools, ["diskio", "fio"])
            # random: at most a quarter of the file's blocks (few read
            # twice); sequential: the file once at most
            self.assertLessEqual(case["count"], case["size"] // case["bs"] //
                                 (4 if case["pattern"] == "rand" else 1))
            self.assertEqual(case["warmup"], 0)
            cmd = fio_cmd(env, case, "/d", "/d/fio.dat", [])
            self.assertIn("--size=%d" % case["size"], cmd)
            self.assertIn("--bs=%d" % case["bs"], cmd)
            if case["pattern"] == "rand":
                self.assertIn("--rw=randread", cmd)
                self.assertIn("--norandommap=1", cmd)
            else:
                self.assertIn("--rw=read", cmd)
            self.assertEqual("--direct=1" in cmd, case["mode"] == "direct-read")
            if case["mode"] == "read":
                self.assertIn("--invalidate=1", cmd)

    def test_crystal_cases_are_the_suite_files_rows_against_fio_libaio(self):
        from peers.runs import fio_cmd
        env = env_for(["--only", "crystal", "--quick"])
        cases = planned(env)
        self.assertEqual(sorted(cases), sorted(
            "%s %s" % (row, col) for row in ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1",
                                             "RND4K Q1T1") for col in ("read", "write")))
        env.tools["fio"] = {"path": "fio"}
        for name, (case, tools) in cases.items():
            self.assertEqual(tools, ["diskio", "fio"])
            reads = name.endswith(" read")
            self.assertEqual(case["mode"], "aio-read" if reads else "aio")
            self.assertEqual(case["bs"], 1 << 20 if name.startswith("SEQ") else 4096)
            self.assertEqual(case["iodepth"], int(name.split(" Q")[1].split("T")[0]))
            cmd = fio_cmd(env, case, "/d", "/d/fio.dat", [])
            rw = ("rand" if case["pattern"] == "rand" else "") + ("read" if reads else "write")
            self.assertIn("--rw=" + rw, cmd)
            self.assertIn("--ioengine=libaio", cmd)
            self.assertIn("--direct=1", cmd)
            self.assertIn("--iodepth=%d" % case["iodepth"], cmd)

    def test_accuracy_peers_only_where_they_have_the_mode(self):
        cases = planned(env_for(["--only", "accuracy"]))
        self.assertEqual(cases["fsync"][1], ["diskio", "bare", "fio", "bare@0", "sysbench"])
        self.assertEqual(cases["direct-dsync"][1], ["diskio", "bare", "fio", "bare@0", "ioping"])
        self.assertEqual(cases["osync"][1], ["diskio", "bare", "fio", "sysbench", "ioping"])
        self.assertEqual(cases["pg_test_fsync"][1], ["pg_test_fsync"])

    def test_counts_follow_count_and_smoke(self):
        full = planned(env_for(["--only", "accuracy,qd", "--count", "1000"]))
        self.assertEqual((full["fsync"][0]["count"], full["aio qd1"][0]["count"],
                          full["aio qd32"][0]["count"]), (1000, 2000, 10000))
        smoke = planned(env_for(["--only", "accuracy,qd", "--smoke"]))
        self.assertEqual((smoke["fsync"][0]["count"], smoke["aio qd32"][0]["count"]),
                         (100, 200))

    def test_overhead_needs_the_tmpfs(self):
        env = env_for(["--only", "overhead"])
        self.assertEqual(planned(env), {})
        self.assertIn("a private tmpfs needs root", env.notes[0])
        cases = planned(env_for(["--only", "overhead"], tmpfs="/t"))
        self.assertEqual(cases["async 512 B"][0]["count"], 1000000)
        self.assertEqual(cases["async 8 KiB"][0]["where"], "tmpfs")

    def test_overhead_has_a_bare_loop_writing_diskios_data(self):
        # diskio writes from an 8 MiB pool of stamped random blocks; its
        # overhead is judged against a bare loop writing the same, and the
        # one-buffer bare loop stays beside it to show what the data costs
        cases = planned(env_for(["--only", "overhead"], tmpfs="/t"))
        for name in ("async 512 B", "async 8 KiB"):
            self.assertIn("bare+pool", cases[name][1])
            self.assertIn("bare", cases[name][1])

    def test_uring_rows_only_when_diskio_has_the_mode(self):
        self.assertNotIn("uring qd1", planned(env_for(["--only", "qd"])))
        cases = planned(env_for(["--only", "qd"], uring=True))
        self.assertEqual(cases["uring qd32"][0]["engine"], "io_uring")


class RotationTest(unittest.TestCase):
    def test_each_tool_goes_first_in_turn(self):
        tools = ["a", "b", "c"]
        self.assertEqual([rotated(tools, k)[0] for k in range(4)], ["a", "b", "c", "a"])
        self.assertEqual(rotated(tools, 1), ["b", "c", "a"])

    def test_no_tools(self):
        self.assertEqual(rotated([], 3), [])


if __name__ == "__main__":
    unittest.main()
