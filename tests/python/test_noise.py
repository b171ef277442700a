# SPDX-License-Identifier: MIT
"""Description: noise.judge calls a change beyond ±min_change, "same" only by TOST, else inconclusive.

noise.judge calls slower/faster only when the whole 95%
interval lies beyond ±min_change, "same" only when the whole 90% interval
(TOST at 5%) lies within it, and "inconclusive" otherwise with what
would decide it: the diskio --repeat or the invocations per side that,
measured so, do decide, never beyond 30 and 10, and beyond them the
smallest change the data resolve; repetitions of several
invocations bring their between-invocation spread into the interval, a
side of one invocation in a short span is widened by the default
between-invocation noise (the quiet machine's when its invocation's
repetitions, weighted by how long each ran, saw the other CPUs under half
busy, else the busy machine's: one default for all the invocation's rows)
and says so; disturbed repetitions are left out
when enough clean ones remain and otherwise make the verdict
"disturbed", naming the side and the reason; the t quantiles are
Student's (scipy.stats.t's), matching the printed tables."""

import math
import statistics
import unittest

from diskio_analysis import noise


def reps(values, invocation="a.json", start=1000.0, every=1.0, disturbed=()):
    """Samples of one invocation, one a second from start; disturbed: the
    indexes of disturbed ones."""
    return [noise.Sample(v, invocation, start + i * every,
                         ("58% of vda's I/O was not diskio's",) if i in disturbed else ())
            for i, v in enumerate(values)]


class StudentTTest(unittest.TestCase):
    def test_quantiles_match_the_printed_tables(self):
        # two-sided 95%: the 0.975 quantile
        for df, printed in ((1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776),
                            (10, 2.228), (30, 2.042)):
            self.assertAlmostEqual(noise.t_quantile(0.975, df), printed, places=3)
        # 90% two-sided (the TOST interval)
        self.assertAlmostEqual(noise.t_quantile(0.95, 5), 2.015, places=3)

    def test_fractional_degrees_of_freedom(self):
        # Welch-Satterthwaite gives real df: between the integer rows, and
        # below one degree of freedom too
        self.assertAlmostEqual(noise.t_quantile(0.975, 1.5), 6.0166, places=3)
        self.assertGreater(noise.t_quantile(0.975, 0.5), noise.t_quantile(0.975, 1))

    def test_large_df_approaches_the_normal_quantile(self):
        self.assertAlmostEqual(noise.t_quantile(0.975, 1e6), 1.95996, places=3)
        self.assertAlmostEqual(noise.t_quantile(0.975, math.inf), 1.95996, places=4)


class VerdictTest(unittest.TestCase):
    """Plain numbers: independent repetitions, nothing widened."""

    def test_identical_values_are_the_same(self):
        j = noise.judge([5.0, 5.0], [5.0, 5.0])
        self.assertEqual((j.verdict, j.ratio, j.basis), ("same", 1.0, "identical"))

    def test_doubled_latency_with_tight_repetitions_is_slower(self):
        j = noise.judge([100, 102, 98], [200, 205, 195])
        self.assertEqual(j.verdict, "slower")
        self.assertTrue(j.low < 2.0 < j.high)

    def test_doubled_throughput_is_faster(self):
        j = noise.judge([100, 102, 98], [200, 205, 195], higher_is_better=True)
        self.assertEqual(j.verdict, "faster")

    def test_same_only_with_the_90_percent_interval_inside_the_band(self):
        j = noise.judge([100, 100.5, 99.5, 100.2], [100.3, 99.8, 100.1, 100.4])
        self.assertEqual(j.verdict, "same")
        self.assertTrue(0.95 < j.low90 and j.high90 < 1.05)

    def test_a_wide_interval_around_one_is_inconclusive_not_same(self):
        # the 0.374-2.75x "same": the data cannot tell
        j = noise.judge([100, 160, 70], [120, 80, 150])
        self.assertEqual(j.verdict, "inconclusive")
        self.assertLess(j.low90, 1 / 1.05)
        # so close to 1 that nothing within the caps would decide: what
        # the data resolves is said instead
        self.assertEqual((j.advice.kind, j.more), ("resolution", None))
        self.assertGreater(j.advice.resolves, abs(j.ratio - 1))

    def test_more_repetitions_would_decide_as_promised(self):
        base, other = [100, 106, 95, 101], [102, 97, 105, 99]
        j = noise.judge(base, other)
        self.assertEqual((j.verdict, j.more), ("inconclusive", 2))
        # the same values again: 4 more per side, at least the 2 promised
        self.assertEqual(noise.judge(base * 2, other * 2).verdict, "same")

    def test_significant_but_smaller_than_min_change_is_not_a_change(self):
        # 3% slower, measured very precisely: real, but below the 5% asked for
        base = [100.0, 100.01, 99.99]
        other = [103.0, 103.01, 102.99]
        self.assertEqual(noise.judge(base, other).verdict, "same")
        self.assertEqual(noise.judge(base, other, min_change=0.01).verdict, "slower")

    def test_a_change_whose_interval_reaches_into_the_band_is_inconclusive(self):
        j = noise.judge([100, 300], [200, 600])
        self.assertEqual(j.verdict, "inconclusive")
        self.assertLess(j.low, 1.05)

    def test_unrepeated_change_needs_to_beat_the_assumed_noise(self):
        self.assertEqual(noise.judge([100], [120]).verdict, "inconclusive")
        self.assertEqual(noise.judge([100], [130]).verdict, "slower")
        j = noise.judge([100], [50])
        self.assertEqual((j.verdict, j.basis, j.low), ("faster", "unrepeated", None))

    def test_unrepeated_is_never_the_same(self):
        self.assertEqual(noise.judge([100], [100]).verdict, "inconclusive")

    def test_a_ratio_at_the_edge_of_the_band_is_not_beyond_it(self):
        # log(225000) - log(180000) rounds a hair above log1p(0.25)
        self.assertEqual(noise.judge([180000.0], [225000.0], True).verdict,
                         "inconclusive")

    def test_ratio_is_of_geometric_means(self):
        j = noise.judge([1.0, 4.0], [2.0, 8.0])
        self.assertAlmostEqual(j.ratio, 2.0)

    def test_slower_and_faster_are_symmetric_on_the_log_scale(self):
        up = noise.judge([100, 101, 99], [150, 151, 149])
        down = noise.judge([150, 151, 149], [100, 101, 99])
        self.assertEqual((up.verdict, down.verdict), ("slower", "faster"))
        self.assertAlmostEqual(math.log(up.ratio), -math.log(down.ratio))

    def test_non_positive_values_are_refused(self):
        with self.assertRaises(ValueError):
            noise.judge([0.0], [1.0])


class InvocationTest(unittest.TestCase):
    def test_one_invocation_in_a_short_span_is_widened_and_says_so(self):
        base = reps([100, 101, 99, 100, 100.5], "a.json")
        other = reps([112, 113, 111, 112, 112.5], "b.json")
        j = noise.judge(base, other, names=("a", "b"))
        plain = noise.judge([s.value for s in base], [s.value for s in other])
        # 12% slower and tight: without widening a change, with the
        # default between-invocation noise not shown
        self.assertEqual(plain.verdict, "slower")
        self.assertEqual(j.verdict, "inconclusive")
        self.assertTrue(any(n.startswith("a: what one invocation alone measured (a.json) "
                                         "is widened by the default")
                            for n in j.notes), j.notes)
        self.assertTrue(j.high / j.low > plain.high / plain.low)

    def test_a_quiet_side_is_widened_by_the_quiet_machines_default(self):
        # a 1.5x change of one invocation a side: on a quiet machine (the
        # other CPUs under half busy in every repetition) the quiet
        # default lets it show; busy, or not recorded, the busy default
        # does not
        def side(values, name, share):
            return [noise.Sample(v, name, 1000.0 + i, (), share)
                    for i, v in enumerate(values)]
        base_values, other_values = [100, 103, 97, 101, 99], [150, 154, 146, 151, 149]
        quiet = noise.judge(side(base_values, "a.json", 0.17),
                            side(other_values, "b.json", 0.2), names=("a", "b"))
        self.assertEqual(quiet.verdict, "slower")
        self.assertTrue(any("noise 10% (a quiet machine's" in n for n in quiet.notes),
                        quiet.notes)
        busy = noise.judge(side(base_values, "a.json", 0.17),
                           side(other_values, "b.json", 0.72), names=("a", "b"))
        self.assertEqual(busy.verdict, "inconclusive")
        self.assertTrue(any(n.startswith("b:") and "noise 32% (a busy machine's" in n
                            for n in busy.notes), busy.notes)
        unknown = noise.judge(side(base_values, "a.json", None),
                              side(other_values, "b.json", None))
        self.assertEqual(unknown.verdict, "inconclusive")

    def test_the_quiet_default_needs_every_repetition_to_say(self):
        shares = [0.1, 0.1, None, 0.1, 0.1]
        samples = [noise.Sample(100.0 + i, "a.json", 1000.0 + i, (), s)
                   for i, s in enumerate(shares)]
        self.assertEqual(noise.default_between_noise(samples), noise.BETWEEN_INVOCATION_NOISE)
        samples[2].other_cpu_share = 0.1
        self.assertEqual(noise.default_between_noise(samples),
                         noise.QUIET_BETWEEN_INVOCATION_NOISE)
        for s in samples[:3]:
            s.other_cpu_share = 0.6
        self.assertEqual(noise.default_between_noise(samples), noise.BETWEEN_INVOCATION_NOISE)

    def test_one_invocation_over_a_long_span_is_not_widened(self):
        base = reps([100, 101, 99, 100, 100.5], "a.json", every=300.0)
        other = reps([150, 151, 149, 150, 150.5], "b.json", every=300.0)
        j = noise.judge(base, other)
        self.assertEqual(j.notes, [])
        self.assertEqual(j.verdict, "slower")

    def test_between_invocation_spread_widens_the_interval(self):
        # within each invocation tight, but the two invocations of a side
        # disagree by 20%: a 25% difference is not shown
        base = reps([100, 100.5, 99.5], "a1.json") + reps([120, 120.5, 119.5], "a2.json")
        other = reps([135, 135.5, 134.5], "b1.json") + reps([136, 135, 137], "b2.json")
        j = noise.judge(base, other)
        pooled = noise.judge([s.value for s in base], [s.value for s in other])
        self.assertEqual(j.notes, [])
        self.assertGreater(j.high / j.low, pooled.high / pooled.low)
        self.assertEqual(j.verdict, "inconclusive")

    def test_agreeing_invocations_decide(self):
        base = reps([100, 101, 99], "a1.json") + reps([100.5, 99.5, 100], "a2.json")
        other = reps([150, 151, 149], "b1.json") + reps([150.5, 149.5, 150], "b2.json")
        self.assertEqual(noise.judge(base, other).verdict, "slower")


class DisturbedTest(unittest.TestCase):
    def test_disturbed_repetitions_are_left_out_when_enough_clean_remain(self):
        base = reps([100, 101, 99, 100, 100.5], "a.json", every=300)
        # two of five disturbed, far slower: left out, the rest the same
        other = reps([100.2, 300, 99.8, 100.1, 280], "b.json", every=300, disturbed=(1, 4))
        j = noise.judge(base, other, names=("a", "b"))
        self.assertEqual(j.left_out, {"other": 2})
        self.assertEqual(j.n_other, 3)
        self.assertNotEqual(j.verdict, "slower")
        self.assertNotEqual(j.verdict, "disturbed")

    def test_too_few_clean_repetitions_make_the_verdict_disturbed(self):
        base = reps([100, 101, 99, 100, 100.5], "a.json", every=300)
        other = reps([150, 151, 149, 150, 150.5], "b.json", every=300, disturbed=(0, 1, 2))
        j = noise.judge(base, other, names=("a", "b"))
        self.assertEqual(j.verdict, "disturbed")
        self.assertEqual(j.undisturbed_verdict, "slower")
        self.assertEqual(j.disturbed, "b: 58% of vda's I/O was not diskio's "
                                      "(3 of 5 repetitions disturbed)")

    def test_a_disturbed_side_is_never_slower_or_faster(self):
        # every combination of disturbed repetitions on either side
        for mask in range(1, 1 << 6):
            base = reps([100, 101, 99], "a.json", every=300,
                        disturbed=[i for i in range(3) if mask >> i & 1])
            other = reps([200, 202, 198], "b.json", every=300,
                         disturbed=[i for i in range(3) if mask >> (i + 3) & 1])
            j = noise.judge(base, other, names=("a", "b"))
            self.assertEqual(j.verdict, "disturbed", mask)
            self.assertIn("disturbed", j.disturbed)


def spread(n):
    """n numbers of mean 0 and sample variance 1."""
    raw = [i - (n - 1) / 2 for i in range(n)]
    sd = statistics.stdev(raw)
    return [r / sd for r in raw]


def side_of(mean, within, between, invocations, per, name, share):
    """Samples of invocations invocations of per repetitions each whose
    log values have this mean, a within-invocation sample variance
    within and invocation means whose sample variance less within / per
    is between: what noise.advise projects a plan to."""
    means = [mean] if invocations == 1 else [
        mean + math.sqrt(between + within / per) * z for z in spread(invocations)]
    return [noise.Sample(math.exp(m + math.sqrt(within) * z), f"{name}{j}.json",
                         1000.0 + i, (), share)
            for j, m in enumerate(means) for i, z in enumerate(spread(per))]


class AdviceTest(unittest.TestCase):
    """What an inconclusive verdict asks for is what would decide it:
    the same machine measured as advised (the same means, the same
    variance within and between invocations) is decided, measured with
    one repetition or invocation less it is not; no advice asks for more
    than MAX_REPEAT repetitions or MAX_INVOCATIONS invocations a side,
    and beyond them the smallest change resolved exceeds the measured
    one."""

    CASES = [(ratio, within, share, per)
             for ratio in (1.0, 1.02, 1.04, 1.08, 1.15, 1.3, 1.6, 2.5)
             for within in (0.0004, 0.004, 0.04, 0.4)
             for share in (0.1, 0.9)
             for per in (2, 3, 5)]

    def measured(self, ratio, within, share, invocations, per, between=None):
        default = (noise.QUIET_BETWEEN_INVOCATION_NOISE if share < 0.5
                   else noise.BETWEEN_INVOCATION_NOISE)
        between = default ** 2 if between is None else between
        base = side_of(0.0, within, between, invocations, per, "a", share)
        other = side_of(math.log(ratio), within, between, invocations, per, "b", share)
        return noise.judge(base, other, names=("a", "b"))

    def test_doing_what_the_advice_says_decides_and_no_less_does(self):
        kinds = set()
        for ratio, within, share, per in self.CASES:
            with self.subTest(ratio=ratio, within=within, share=share, per=per):
                j = self.measured(ratio, within, share, 1, per)
                if j.verdict != "inconclusive":
                    continue
                a = j.advice
                kinds.add(a.kind)
                self.assertIn(a.kind, ("repeat", "invocations", "resolution"))
                if a.kind == "repeat":
                    self.assertLessEqual(a.repeat, noise.MAX_REPEAT)
                    self.assertNotEqual(self.measured(ratio, within, share, 1, a.repeat).verdict,
                                        "inconclusive")
                    if a.repeat - 1 > per:
                        self.assertEqual(self.measured(ratio, within, share, 1,
                                                       a.repeat - 1).verdict, "inconclusive")
                elif a.kind == "invocations":
                    self.assertLessEqual(a.invocations, noise.MAX_INVOCATIONS)
                    reps = a.repeat or per
                    self.assertLessEqual(reps, noise.MAX_REPEAT)
                    self.assertNotEqual(self.measured(ratio, within, share, a.invocations,
                                                      reps).verdict, "inconclusive")
                    if a.invocations - 1 > 1:
                        self.assertEqual(self.measured(ratio, within, share, a.invocations - 1,
                                                       reps).verdict, "inconclusive")
                else:
                    self.assertGreater(a.resolves, abs(j.ratio - 1))
                    self.assertGreaterEqual(a.resolves, a.resolves_at_cap)
                    self.assertEqual(self.measured(ratio, within, share, noise.MAX_INVOCATIONS,
                                                   noise.MAX_REPEAT).verdict, "inconclusive")
        # the cases reach every kind of advice
        self.assertEqual(kinds, {"repeat", "invocations", "resolution"})

    def test_more_repetitions_are_not_asked_where_the_default_dominates(self):
        # one quiet invocation a side, tight repetitions: the default
        # between-invocation noise is what is wide, and repetitions
        # within one invocation cannot narrow it
        j = self.measured(1.3, 0.0004, 0.1, 1, 3)
        self.assertEqual(j.advice.kind, "invocations")
        self.assertIsNone(j.more)

    def test_one_value_a_side_is_asked_for_repetitions(self):
        j = noise.judge([100.0], [110.0])
        self.assertEqual((j.advice.kind, j.advice.repeat), ("unrepeated", noise.FIRST_REPEAT))

    def test_rounds_of_one_value_count_as_more_rounds(self):
        # diskio-pgphases' rounds: each its own invocation of one value
        base = [noise.Sample(v, f"a round {i}") for i, v in enumerate([100, 104, 97])]
        other = [noise.Sample(v, f"b round {i}") for i, v in enumerate([112, 106, 118])]
        j = noise.judge(base, other)
        self.assertEqual(j.advice.kind, "invocations")
        self.assertEqual((j.advice.invocations, j.more), (6, 3))
        self.assertLessEqual(j.advice.invocations, noise.MAX_INVOCATIONS)


class DefaultTest(unittest.TestCase):
    def test_the_default_is_the_invocations_not_the_rows(self):
        # one invocation: fsync's repetitions ran for seconds beside a
        # quiet machine, async's for microseconds whose share of busy
        # CPUs is the counters' granularity; weighted by how long each
        # ran the invocation is quiet, and every row it measured gets
        # that default, async's too
        fsync = [noise.Sample(200.0 + i, "a.json", 1000.0 + i, (), 0.2, 0.4)
                 for i in range(3)]
        async_ = [noise.Sample(2.0 + i / 10, "a.json", 1000.5 + i, (), 1.0, 0.0005)
                  for i in range(3)]
        default = noise.default_between_noise(fsync + async_)
        self.assertEqual(default, noise.QUIET_BETWEEN_INVOCATION_NOISE)
        other = [noise.Sample(2.1 + i / 10, "b.json", 1000.5 + i, (), 0.2)
                 for i in range(3)]
        alone = noise.judge(async_, other, names=("a", "b"))
        given = noise.judge(async_, other, names=("a", "b"),
                            defaults={"a.json": default, "b.json": default})
        self.assertIn("noise 32%", alone.notes[0])
        self.assertIn("noise 10%", given.notes[0])

    def test_the_median_is_weighted_by_duration(self):
        self.assertEqual(noise.weighted_median([0.1, 0.9, 0.9], [10.0, 1.0, 1.0]), 0.1)
        self.assertEqual(noise.weighted_median([0.1, 0.9], [1.0, 1.0]), 0.5)


if __name__ == "__main__":
    unittest.main()
