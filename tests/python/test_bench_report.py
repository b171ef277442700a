# SPDX-License-Identifier: MIT
"""Description: the benchmark harness renders its tables as aligned text and as Markdown.

the benchmark harness formats its numbers and renders the
medians, rounds, peak RSS and targets as aligned text and as Markdown,
with each peer named by the configuration it ran."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

from peers.report import (HEAD, fmt_ns, fmt_rate, fmt_target_value,  # noqa: E402
                          markdown, md_table, memory_rows, peer_label, round_rows,
                          table_rows, target_rows, text_table)


def summary_row(group, case, tool, n=5, failed=0):
    return {"group": group, "case": case, "tool": tool, "n": n, "failed": failed,
            "ops_per_s": 123456.7, "mean_ns": 1750.0, "p50_ns": None,
            "spread_ops": 0.148, "spread_mean": 0.2}


def target(unit, value, per_round=(), result="PASS"):
    return {"what": "w", "value": value, "need": "≥ 1.00", "unit": unit,
            "per_round": list(per_round), "result": result}


class FormatTest(unittest.TestCase):
    def test_durations_pick_their_unit(self):
        self.assertEqual([fmt_ns(x) for x in (None, 370, 1750, 162150, 2.5e6)],
                         ["—", "370 ns", "1.75 us", "162 us", "2.5 ms"])

    def test_rates_keep_a_decimal_below_100000(self):
        self.assertEqual([fmt_rate(x) for x in (None, 17021.94, 2454174.4)],
                         ["—", "17021.9", "2454174"])

    def test_target_value_by_unit(self):
        self.assertEqual(fmt_target_value(target("ratio", 1.0034)), "1.003")
        self.assertEqual(fmt_target_value(target("Ir", 20.00001)), "20.0")
        self.assertEqual(fmt_target_value(target("KiB", 104.0)), "104")
        self.assertEqual(fmt_target_value(target("", "none")), "none")
        self.assertEqual(fmt_target_value(target("ratio", None)), "—")


class LabelTest(unittest.TestCase):
    def test_fio_is_named_by_its_engine(self):
        self.assertEqual(peer_label("qd", "uring qd32", "fio"), "fio io_uring")
        self.assertEqual(peer_label("qd", "aio qd1", "fio"), "fio libaio")
        self.assertEqual(peer_label("accuracy", "fsync", "fio"), "fio psync")

    def test_pg_test_fsync_is_named_by_its_method(self):
        self.assertEqual(peer_label("accuracy", "direct-dsync", "pg_test_fsync"),
                         "pg_test_fsync open_datasync")
        self.assertEqual(peer_label("accuracy", "bare@0", "bare@0"), "bare loop, block 0 only")


class TableTest(unittest.TestCase):
    def test_spread_is_of_ops_for_overhead_and_of_mean_for_accuracy(self):
        rows = table_rows([summary_row("overhead", "async 512 B", "diskio"),
                           summary_row("accuracy", "fsync", "bare", n=4, failed=1)])
        self.assertEqual(rows[0], ["overhead", "async 512 B", "diskio", "123457", "1.75",
                                   "—", "14.8%", "5", ""])
        self.assertEqual((rows[1][2], rows[1][6], rows[1][7]),
                         ("bare loop (timed)", "20.0%", "4 (1 failed)"))

    def test_queued_rows_show_device_writes_and_merges_per_op(self):
        row = dict(summary_row("qd", "aio qd32", "diskio"), dev_writes_per_op=1.003,
                   dev_merges_per_op=0.0)
        self.assertEqual(table_rows([row])[0][8], "1.003 (0.000 merged)")

    def test_text_table_pads_every_column_to_its_widest_cell(self):
        out = text_table(["a", "bb"], [["xxx", 1], ["y", 22]]).splitlines()
        self.assertEqual(out, ["a    bb", "---  --", "xxx  1 ", "y    22"])

    def test_text_table_without_rows_is_its_head(self):
        self.assertEqual(text_table(["a", "bb"], []).splitlines(), ["a  bb", "-  --"])

    def test_markdown_table_escapes_pipes(self):
        self.assertEqual(md_table(["x", "y"], [["a|b", 2]]).splitlines(),
                         ["| x | y |", "|---|---|", "| a\\|b | 2 |"])

    def test_smoke_targets_are_shown_not_judged(self):
        tg = [target("ratio", 1.2, (1.2, 0.9))]
        self.assertEqual(target_rows(tg, judged=False)[0],
                         ["w", "1.200", "≥ 1.00", "1.200 0.900", "(smoke)"])
        self.assertEqual(target_rows([target("KiB", 3)])[0][3:], ["—", "PASS"])

    def test_rounds_say_why_one_was_not_used(self):
        rounds = [{"index": i, "started": "t", "wall_s": 40.4, "loadavg1": 1.0,
                   "other_busy": 0.05, "steal": 0.0, "aborted": i == 3} for i in (1, 2, 3)]
        self.assertEqual([r[6] for r in round_rows(rounds, [1])],
                         ["yes", "no (busy)", "no (busy, abandoned)"])

    def test_memory_rows_name_each_run(self):
        rows = memory_rows({"diskio": {"version_only": 1, "1": 2, "1000": 3},
                            "fio": {"1000": 4, "1000+lat_log": 5}})
        self.assertEqual([r[0] for r in rows],
                         ["diskio --version", "diskio --count 1", "diskio --count 1000",
                          "fio psync 1000 ops", "fio psync 1000 ops + write_lat_log"])


def doc(**kw):
    d = {"date": "2026-11-22T02:10:18+00:00", "command": "bench/compare-peers --smoke",
         "machine": {"hostname": "vm", "cpu_model": "Xeon", "cpus": 2,
                     "memory_bytes": 24 << 30, "kernel": "6.18"},
         "dir": {"fstype": "ext4", "source": "/dev/vda", "options": "rw"},
         "tmpfs": False, "tools": {"diskio": {"version": "diskio 0.1.0", "available": True},
                                   "fio": {"version": "", "available": False},
                                   "cc": "/usr/bin/cc"},
         "used_rounds": [1], "rounds": [], "noisy": False, "targets": [],
         "options": {"smoke": True}, "summary": [summary_row("qd", "aio qd1", "diskio")],
         "memory": None, "record": None, "notes": []}
    d.update(kw)
    return d


class MarkdownTest(unittest.TestCase):
    def test_header_lists_machine_and_available_tools_only(self):
        md = markdown(doc())
        self.assertTrue(md.startswith("## compare-peers result\n"))
        self.assertIn("- machine: vm, Xeon, 2 CPUs, 24.0 GiB RAM, Linux 6.18", md)
        self.assertIn("- tools: diskio diskio 0.1.0\n", md)
        self.assertIn("- tmpfs: not used (not root)", md)
        self.assertIn("| " + " | ".join(HEAD) + " |", md)

    def test_optional_sections_appear_only_with_their_data(self):
        md = markdown(doc())
        for section in ("### Peak RSS", "### Record path", "### Notes", "NOISY"):
            self.assertNotIn(section, md)
        rec = {"available": True, "calls": 1000000, "inclusive_ir": 20000012,
               "ir_per_call": 20.0, "callees": [], "static_targets": None}
        md = markdown(doc(memory={"diskio": {"1": 2}}, record=rec, notes=["n1"], noisy=True))
        self.assertIn("### Peak RSS", md)
        self.assertIn("callgrind: 1000000 calls of diskio_hist_record, 20000012 instructions "
                      "inclusive (20.00000 per call on average", md)
        self.assertIn("functions it called: none; call/jump targets in its machine code: none.",
                      md)
        self.assertIn("### Notes\n\n- n1\n", md)
        self.assertIn("NOISY", md)


if __name__ == "__main__":
    unittest.main()
