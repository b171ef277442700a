# SPDX-License-Identifier: MIT
"""Description: a sync call's time splits into asleep, waiting for a CPU and on the CPU.

bench/wal-sync-anatomy reads perf script's text of the sync calls and
the scheduler's switches and wake-ups; these are its lines as this VM's
kernel writes them (a CPU leaving idle for the task it woke records
neither the wake-up nor the switch)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

from peers.syncanatomy import anatomy, family, summarise  # noqa: E402


def line(comm, tid, cpu, t, event, rest):
    return f"{comm:>16} {tid:5} [{cpu:03}] {t}: {event:>30}: {rest}"


def switch(comm, tid, cpu, t, state, next_comm, next_tid):
    return line(comm, tid, cpu, t, "sched:sched_switch",
                f"prev_comm={comm} prev_pid={tid} prev_prio=120 prev_state={state} ==> "
                f"next_comm={next_comm} next_pid={next_tid} next_prio=120")


def wakeup(comm, tid, cpu, t, woken, woken_tid):
    return line(comm, tid, cpu, t, "sched:sched_wakeup",
                f"comm={woken} pid={woken_tid} prio=120 target_cpu={cpu:03}")


def enter(comm, tid, cpu, t, call="fdatasync"):
    return line(comm, tid, cpu, t, f"syscalls:sys_enter_{call}", "fd: 0x00000006")


def leave(comm, tid, cpu, t, call="fdatasync"):
    return line(comm, tid, cpu, t, f"syscalls:sys_exit_{call}", "0x0")


class SyncAnatomyTest(unittest.TestCase):
    def test_recorded_wakeup_splits_off_cpu_time_into_asleep_and_waiting(self):
        text = "\n".join([
            enter("postgres", 700, 1, "100.000000000"),
            switch("postgres", 700, 1, "100.000010000", "D", "pgbench", 800),
            wakeup("kworker/1:1H-kb", 54, 0, "100.000150000", "postgres", 700),
            switch("pgbench", 800, 1, "100.000180000", "S", "postgres", 700),
            leave("postgres", 700, 1, "100.000200000"),
        ])
        calls, helpers = anatomy(text)
        self.assertEqual(len(calls), 1)
        call = calls[0]
        self.assertEqual(call.total, 200000)
        self.assertEqual(call.asleep, 140000)      # switched out at 10 us, woken at 150
        self.assertEqual(call.cpu_wait, 30000)     # woken at 150, ran at 180
        self.assertEqual(call.on_cpu, 30000)
        self.assertEqual(call.sleeps, 1)
        self.assertEqual((call.idle_wakes, call.migrations), (0, 0))
        self.assertEqual(helpers["postgres"], [30000, 1])

    def test_unrecorded_wakeup_out_of_idle_counts_as_asleep(self):
        # the lines this VM writes: the task is seen running again only
        # through an event it is the current task of
        text = "\n".join([
            " kworker/1:1H-kb    54 [001] 30685.840402242:           sched:sched_switch: "
            "prev_comm=kworker/1:1H prev_pid=54 prev_prio=100 prev_state=I ==> "
            "next_comm=swapper/1 next_pid=0 next_prio=120",
            "          diskio  9735 [001] 30685.840427760: "
            "syscalls:sys_enter_fdatasync: fd: 0x00000006",
            "          diskio  9735 [001] 30685.840443393:           sched:sched_switch: "
            "prev_comm=diskio prev_pid=9735 prev_prio=120 prev_state=D ==> next_comm=swapper/1 "
            "next_pid=0 next_prio=120",
            "          diskio  9735 [001] 30685.840468159:           sched:sched_wakeup: "
            "comm=kworker/1:1H pid=54 prio=100 target_cpu=001",
            "          diskio  9735 [001] 30685.840470473:           sched:sched_switch: "
            "prev_comm=diskio prev_pid=9735 prev_prio=120 prev_state=D ==> "
            "next_comm=kworker/1:1H next_pid=54 next_prio=100",
            " kworker/1:1H-kb    54 [001] 30685.840482240:           sched:sched_switch: "
            "prev_comm=kworker/1:1H prev_pid=54 prev_prio=100 prev_state=I ==> "
            "next_comm=swapper/1 next_pid=0 next_prio=120",
            "          diskio  9735 [001] 30685.840492466:  syscalls:sys_exit_fdatasync: 0x0",
        ])
        calls, helpers = anatomy(text)
        self.assertEqual(len(calls), 1)
        call = calls[0]
        self.assertEqual(call.total, 64706)
        # asleep 15.633 -> 40.766 us, then 70.473 -> 92.466 us
        self.assertEqual(call.asleep, (30685840468159 - 30685840443393)
                         + (30685840492466 - 30685840470473))
        self.assertEqual(call.cpu_wait, 0)
        self.assertEqual(call.sleeps, 2)
        # neither sleep's end was recorded: the CPU left idle for it
        self.assertEqual(call.idle_wakes, 2)
        # the kworker it woke waited 2.314 us for the CPU
        self.assertEqual(helpers["kworker"], [30685840470473 - 30685840468159, 1])

    def test_preempted_caller_waits_for_the_cpu_the_whole_time_off(self):
        text = "\n".join([
            enter("diskio", 10, 0, "5.000000"),
            switch("diskio", 10, 0, "5.000020", "R+", "pgbench", 11),
            switch("pgbench", 11, 0, "5.000070", "S", "diskio", 10),
            leave("diskio", 10, 0, "5.000100"),
        ])
        (call,), _ = anatomy(text)
        self.assertEqual((call.total, call.asleep, call.cpu_wait, call.sleeps),
                         (100000, 0, 50000, 0))

    def test_a_task_that_runs_again_elsewhere_migrated(self):
        text = "\n".join([
            enter("postgres", 700, 1, "100.000000000"),
            switch("postgres", 700, 1, "100.000010000", "D", "swapper/1", 0),
            wakeup("kworker/0:1H-kb", 54, 0, "100.000150000", "postgres", 700),
            switch("pgbench", 800, 0, "100.000160000", "S", "postgres", 700),
            leave("postgres", 700, 0, "100.000200000"),
        ])
        (call,), _ = anatomy(text)
        self.assertEqual((call.sleeps, call.idle_wakes, call.migrations), (1, 0, 1))
        self.assertEqual(summarise(*anatomy(text), "postgres")["migrations"], 1.0)

    def test_wakeup_of_a_running_task_changes_nothing(self):
        text = "\n".join([
            enter("diskio", 10, 0, "5.000000"),
            wakeup("kworker/0:1", 3, 1, "5.000010", "diskio", 10),
            leave("diskio", 10, 0, "5.000100"),
        ])
        (call,), _ = anatomy(text)
        self.assertEqual((call.asleep, call.cpu_wait, call.on_cpu), (0, 0, 100000))

    def test_only_the_named_calls_and_finished_ones_count(self):
        text = "\n".join([
            enter("diskio", 10, 0, "5.000000", "fsync"),
            leave("diskio", 10, 0, "5.000100", "fsync"),
            enter("diskio", 10, 0, "5.000200"),
            leave("diskio", 10, 0, "5.000300"),
            enter("diskio", 12, 1, "5.000400"),     # recording stopped inside it
        ])
        calls, _ = anatomy(text, calls=("fdatasync",))
        self.assertEqual([c.total for c in calls], [100000])
        self.assertEqual(len(anatomy(text)[0]), 2)

    def test_summary_is_per_call_of_one_program(self):
        text = "\n".join([
            enter("postgres", 1, 0, "1.000000"),
            leave("postgres", 1, 0, "1.000100"),
            enter("postgres", 2, 1, "1.000000"),
            leave("postgres", 2, 1, "1.000300"),
            enter("diskio", 3, 0, "1.000400"),
            leave("diskio", 3, 0, "1.001400"),
        ])
        s = summarise(*anatomy(text), "postgres")
        self.assertEqual(s["calls"], 2)
        self.assertAlmostEqual(s["total_us"], 200.0)
        self.assertAlmostEqual(s["on_cpu_us"], 200.0)
        self.assertIsNone(summarise(*anatomy(text), "pgbench"))

    def test_kernel_threads_group_by_family(self):
        self.assertEqual(family("kworker/1:1H-kblockd"), "kworker")
        self.assertEqual(family("jbd2/loop0-8"), "jbd2")
        self.assertEqual(family("postgres"), "postgres")


if __name__ == "__main__":
    unittest.main()
