# SPDX-License-Identifier: MIT
"""Description: diskio-compare groups, matches and judges runs, and renders the answer first.

diskio-compare groups results into environments by label (or by the
names the command line gives them), matches runs by mode and
parameters, treats repeated runs as repetitions, leaves out incomplete
runs with a note, judges each ratio, and renders the answer first: the
table's figures, the advice, the text.  How it treats noise (disturbed
repetitions, copies, invocations) is test_compare_noise.py's; the runs
with rules of their own (suite rows, O_DIRECT not honoured, steady
windows, capacity) are test_compare_kinds.py's."""

import json
import math
import os
import random
import re
import unittest
from statistics import geometric_mean

from comparelib import hist, invocation, repeated, result, run
from diskio_analysis.compare import analysis as compare, render as compare_render
from diskio_analysis.document import md_escape
from diskio_analysis.errors import InputError, UsageError
from diskio_analysis.textsafe import shown


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


if __name__ == "__main__":
    os.environ.setdefault("LC_ALL", "C")
    unittest.main()
