# SPDX-License-Identifier: MIT
"""Description: diskio-compare leaves out disturbed repetitions and copies, and judges invocations' noise.

Repetitions diskio called disturbed are left out and counted (the row
called disturbed, never slower or faster, when too few clean ones
remain); a repetition, run or result given twice is refused as a copy
rather than counted as a measurement; and the noise between
invocations (one noise note each, a quiet machine's single invocations)
is judged as its own."""

import json
import os
import unittest

from comparelib import invocation, measured, repeated
from diskio_analysis.compare import analysis as compare, render as compare_render
from diskio_analysis.errors import InputError
from diskio_analysis.result import result_from_json


class DisturbedCompareTest(unittest.TestCase):
    def test_a_disturbed_side_is_reported_disturbed_not_slower(self):
        c = compare.compare([
            repeated("a", [100, 101, 99, 100, 100.5], "/lab/a.json", every_s=300),
            repeated("b", [150, 151, 149, 150, 150.5], "/lab/b.json",
                     disturbed=(0, 1, 2), every_s=300)])
        row = c["rows"][0]
        self.assertEqual((row.judgement.verdict, row.judgement.undisturbed_verdict),
                         ("disturbed", "slower"))
        text = compare_render.render_text(c)
        first = text.splitlines()[0]
        self.assertNotIn("slower in", first)
        self.assertIn("disturbed in 1 (b: 58% of vda's I/O was not diskio's", first)
        doc = json.loads(compare_render.render_json(c))
        self.assertEqual(doc["comparisons"][0]["verdict"], "disturbed")
        self.assertIn("b: 58% of vda's I/O", doc["comparisons"][0]["disturbed"])

    def test_disturbed_repetitions_are_left_out_and_counted(self):
        c = compare.compare([
            repeated("a", [100, 101, 99, 100, 100.5], "/lab/a.json", every_s=300),
            repeated("b", [150, 400, 149, 150, 150.5], "/lab/b.json",
                     disturbed=(1,), every_s=300)])
        row = c["rows"][0]
        self.assertEqual(row.judgement.verdict, "slower")
        self.assertEqual(row.judgement.left_out, {"other": 1})
        self.assertIn("fsync 8 KiB mean: 1 disturbed repetition of b left out, "
                      "4 undisturbed ones judged", compare_render.render_text(c))

    def test_one_invocation_in_a_short_span_is_named_in_the_notes(self):
        c = compare.compare([
            repeated("a", [100, 101, 99, 100, 100.5], "/lab/a.json"),
            repeated("b", [100.5, 99, 101, 100, 100.2], "/lab/b.json")])
        text = compare_render.render_text(c)
        self.assertIn("a: what one invocation alone measured (/lab/a.json) is widened "
                      "by the default between-invocation noise", text)


class CopiesTest(unittest.TestCase):
    """A measurement given twice as a run's sample in one environment is
    refused: copies agree to the nanosecond and would narrow the band
    without measuring noise."""

    def refused(self, results):
        with self.assertRaises(InputError) as ctx:
            compare.compare(results)
        return str(ctx.exception)

    def test_a_repetition_copied_is_refused_naming_both(self):
        a = measured("a", [100, 101, 99], "/lab/a.json")
        a.runs[0].repetitions.append(a.runs[0].repetitions[0])
        message = self.refused([a, measured("b", [200, 201, 199], "/lab/b.json")])
        self.assertEqual(
            message, "/lab/a.json: runs[0].repetitions[0]: the same measurement as "
            "runs[0].repetitions[0] of this file, named twice (began "
            "2026-12-01T10:00:00.000Z; the same duration, ops and latencies to the "
            "nanosecond): a copy, not another repetition, would narrow the noise band "
            "without measuring any noise; give each measurement once: leave out the "
            "copied repetition or run, or the result file given twice")

    def test_a_copy_in_the_file_is_refused(self):
        doc = measured("a", [100, 101], "/lab/a.json")
        copy = json.loads(json.dumps(doc.runs[0].repetitions[0]._node))
        raw = {"schema": "diskio-result", "schema_version": 1, "label": "a",
               "runs": [dict(doc.runs[0]._node, repetitions=[
                   doc.runs[0].repetitions[0]._node, doc.runs[0].repetitions[1]._node, copy])]}
        a = result_from_json("/lab/a.json", json.dumps(raw), raw)
        self.assertIn("/lab/a.json: runs[0].repetitions[2]: the same measurement as "
                      "runs[0].repetitions[0] (began 2026-12-01T10:00:00.000Z;",
                      self.refused([a, measured("b", [200, 201], "/lab/b.json")]))

    def test_a_result_copied_into_its_environment_is_refused(self):
        message = self.refused([measured("a", [100, 101, 99], "/lab/a.json"),
                                measured("b", [200, 201, 199], "/lab/b.json"),
                                measured("a", [100, 101, 99], "/lab/a-copy.json")])
        self.assertIn("/lab/a-copy.json: runs[0].repetitions[0]: the same measurement as "
                      "runs[0].repetitions[0] of /lab/a.json", message)

    def test_a_copy_as_another_environment_or_run_is_no_repetition_of_it(self):
        """A result against a relabelled copy of itself is an A/A
        comparison, each side's band its own; a measurement copied as a
        run of other parameters adds no sample to any run's band."""
        c = compare.compare([measured("a", [100, 101, 99], "/lab/a.json"),
                             measured("again", [100, 101, 99], "/lab/again.json")])
        self.assertEqual([r.judgement.ratio for r in c["rows"]], [1.0])
        other = measured("a", [100, 101, 99], "/lab/a-4k.json")
        other.runs[0].parameters.block_size = 4096
        c = compare.compare([measured("a", [100, 101, 99], "/lab/a.json"), other,
                             measured("b", [200, 201, 199], "/lab/b.json")])
        self.assertEqual(len(c["rows"][0].base_values), 3)

    def test_one_result_of_5000_copies_is_refused(self):
        """One run copied 5,000 times is one measurement, not 5,000
        repetitions with no spread."""
        copies = [measured("a", [100], f"/lab/a/{i}.json") for i in range(5000)]
        for copy in copies:
            copy.runs[0].repetitions = None     # measured once
        self.assertIn("/lab/a/1.json: runs[0]: the same measurement as runs[0] of "
                      "/lab/a/0.json", self.refused(
                          copies + [measured("b", [200], "/lab/b.json")]))

    def test_repetitions_alike_but_for_their_times_are_measurements(self):
        same = measured("a", [100, 100, 100], "/lab/a.json")
        later = measured("a", [100, 100, 100], "/lab/a2.json", start=30)
        for rep in later.runs[0].repetitions:
            rep.start_offset_ns += 1
        c = compare.compare([same, later, measured("b", [200, 201, 199], "/lab/b.json")])
        self.assertEqual(len(c["rows"][0].base_values), 6)


class QuietMachineTest(unittest.TestCase):
    def test_a_quiet_machines_single_invocations_show_a_large_change(self):
        # one invocation of 5 repetitions a side, 1.5x apart: with the
        # other CPUs a sixth busy (diskio's interference figures) the
        # quiet machine's default lets the change show; with them 1.5 of 2
        # busy it stays inconclusive
        a = [100, 103, 97, 101, 99]
        b = [150, 154, 146, 151, 149]
        quiet = compare.compare([repeated("a", a, "/lab/a.json", other_cpus=0.34),
                                 repeated("b", b, "/lab/b.json", other_cpus=0.3)])
        self.assertEqual(quiet["rows"][0].judgement.verdict, "slower")
        self.assertIn("a quiet machine's", compare_render.render_text(quiet))
        busy = compare.compare([repeated("a", a, "/lab/a.json", other_cpus=0.34),
                                repeated("b", b, "/lab/b.json", other_cpus=1.5)])
        self.assertEqual(busy["rows"][0].judgement.verdict, "inconclusive")
        self.assertIn("b: what one invocation alone measured (/lab/b.json) is widened by "
                      "the default between-invocation noise 32% (a busy machine's",
                      compare_render.render_text(busy))


class InvocationNoiseTest(unittest.TestCase):
    """One invocation, one default between-invocation noise (one note),
    whatever its rows; an invocation of other runs changes nothing in
    the rows it did not measure."""

    def quiet(self, label, path, scale=1.0):
        # fsync's repetitions ran for a fifth of a second on a quiet
        # machine, async's for a millisecond whose figure is the
        # counters' granularity (all 2 CPUs busy)
        return invocation(label, [
            ("fsync", "seq", [200 * scale, 210 * scale, 190 * scale], 200000000, 0.3),
            ("async", "seq", [2.0 * scale, 2.1 * scale, 1.9 * scale], 1000000, 2.0)], path)

    def wal(self, label, path):
        return invocation(label, [("fdatasync", "wal", [300, 320, 280], 200000000)],
                          path, start=30)

    def test_an_invocation_has_one_noise_note(self):
        c = compare.compare([self.quiet("a", "/lab/a.json"),
                             self.quiet("b", "/lab/b.json", 1.5)])
        notes = {n for r in c["rows"] for n in r.judgement.notes}
        self.assertEqual(sorted(notes), [
            f"{side}: what one invocation alone measured (/lab/{side}.json) is widened "
            "by the default between-invocation noise 10% (a quiet machine's: the "
            "other CPUs were less than half busy)" for side in "ab"])

    def test_an_invocation_of_other_runs_leaves_the_first_runs_alone(self):
        first = compare.compare([self.quiet("a", "/lab/a.json"),
                                 self.quiet("b", "/lab/b.json", 1.5)],
                                metrics=("mean", "ops_per_s"))
        more = compare.compare([self.quiet("a", "/lab/a.json"), self.wal("a", "/lab/a2.json"),
                                self.quiet("b", "/lab/b.json", 1.5),
                                self.wal("b", "/lab/b2.json")],
                               metrics=("mean", "ops_per_s"))
        rows = {(r.run, r.metric): r.judgement for r in more["rows"]}
        self.assertEqual(len(rows), len(first["rows"]) + 2)
        for r in first["rows"]:
            self.assertEqual(rows[(r.run, r.metric)], r.judgement)

    def test_runs_that_record_no_cpu_figures_take_their_sides_default(self):
        # the wal pattern records no interference: its invocation is
        # widened as the side's other invocation says, not as a busy
        # machine's for want of figures
        c = compare.compare([self.quiet("a", "/lab/a.json"), self.wal("a", "/lab/a2.json"),
                             self.quiet("b", "/lab/b.json", 1.5), self.wal("b", "/lab/b2.json")])
        wal = [r for r in c["rows"] if r.run.pattern == "wal"][0]
        self.assertEqual(len(wal.judgement.notes), 2)
        self.assertTrue(all("noise 10% (a quiet machine's" in n for n in wal.judgement.notes),
                        wal.judgement.notes)
        self.assertIn("/lab/a2.json: no repetition recorded how busy the other CPUs were; "
                      "its default between-invocation noise is that of the other results "
                      "of its environment, 10%", c["environments"][0].notes)
        alone = compare.compare([self.wal("a", "/lab/a2.json"), self.wal("b", "/lab/b2.json")])
        self.assertIn("noise 32% (a busy machine's", alone["rows"][0].judgement.notes[0])


if __name__ == "__main__":
    os.environ.setdefault("LC_ALL", "C")
    unittest.main()
