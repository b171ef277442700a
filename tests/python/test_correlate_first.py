# SPDX-License-Identifier: MIT
"""Description: with the WAL model, correlate first shows the predictions, the calibration, the disk ratios.

Where the baseline has wal.csv, the summary leads with the answer: first
the phases the WAL model predicts (the refresh functions and the commit
probe too, without --phases all), each with its predicted time, range,
measured time and verdict (within, off, inconclusive); then the
calibration in labelled columns (PostgreSQL's own time per sync,
diskio's, their ratio, the device's time per flush under each); then
the disk ratios the predictions rest on (the WAL pattern's and the
checkpoint's run, with their intervals), and no other mode's.  The
verdicts of each phase against every disk metric are under --details."""

import os
import re
import unittest

from diskio_analysis.correlate.environment import load_environment
from diskio_analysis.correlate.render import render_json, render_text
from diskio_analysis.correlate.report import build_report, select_phases
from diskio_analysis.correlate.summary import MAX_LINES, caveats
from diskio_analysis.correlate.walmodel import judge_prediction
from envlib import make_env, wal_runs
from filelib import FIXTURES

ROW = {"wal_write": 1000.0, "wal_sync": 500.0, "wal_write_time_ms": 30.0,
       "wal_sync_time_ms": 50.0, "wal_bytes": 32 << 20}
# the commit probe: 2000 commits alone, 4000 by four sessions (0.25 syncs
# per commit); PostgreSQL's own 300 and 600 us per sync
WAL = {"commit.c1": dict(ROW, wal_sync=2000.0, wal_write=2000.0,
                         wal_sync_time_ms=600.0, wal_write_time_ms=60.0,
                         xact_commit=2000.0),
       "commit.c4": dict(ROW, wal_sync=1000.0, wal_write=1000.0,
                         wal_sync_time_ms=600.0, wal_write_time_ms=20.0,
                         xact_commit=4000.0),
       "power.rf1": dict(ROW, wal_sync=1500.0, xact_commit=1500.0,
                         wal_sync_time_ms=700.0),
       "load": dict(ROW, checkpoint_sync_files=10.0,
                    checkpoint_sync_time_ms=50.0)}
RUNS = [("wal", "fdatasync", 1, 150000, {"mean_us": 520, "sync_mean_us": 500}),
        ("wal", "fdatasync", 4, 150000, {"mean_us": 700, "sync_mean_us": 600}),
        ("checkpoint", "fsync", 1, 0, {"mean_us": 30, "sync_mean_us": 4000,
                                        "write_mean_us": 5})]
# plain modes beside them; async 7.87x slower, which no sync is
PLAIN = {"async.mean_us": [5.0, 5.1, 4.9], "fsync.mean_us": [100.0, 101.0, 99.0],
         "fdatasync.mean_us": [80.0, 81.0, 79.0]}


def envs_with_pattern_runs():
    envs = []
    for name, factor, phases in (
            ("A", 1.0, {"load": 10.0, "power": 5.0, "power.rf1": 2.0,
                        "power.q1": 1.0, "commit.c1": 1.0, "commit.c4": 1.0}),
            ("B", 2.0, {"load": 10.2, "power": 5.5, "power.rf1": 2.75,
                        "power.q1": 1.0, "commit.c1": 2.0, "commit.c4": 1.6})):
        env = make_env(name, phases,
                       {m: [v * (7.87 if m.startswith("async") and factor > 1
                                 else factor) for v in values]
                        for m, values in PLAIN.items()},
                       WAL, {"phase_committers": {"commit.c4": 4}})
        wal_runs(env, [(p, m, j, g, {k: v * factor for k, v in parts.items()})
                       for p, m, j, g, parts in RUNS],
                 device_us={"write": 100.0, "flush": 165.0 * factor})
        for run in env.pattern_runs:      # two more repetitions each
            for part in ("sync_mean_us", "mean_us"):
                name = f"{run['prefix']}.{part}"
                value = env.metrics[name].value
                for spread in (0.99, 1.01):
                    env.add_metric(name, value * spread, "r.json",
                                   repeat_of="test")
        env.phase_device_rounds["commit.c4"] = {"write": [110.0],
                                                "flush": [176.0 * factor]}
        envs.append(env)
    return envs


def fixture_envs():
    return [load_environment(os.path.join(FIXTURES, name))
            for name in ("env-a", "env-b")]


def summary(envs, **kw):
    return render_text(build_report(envs, envs[0], "fdatasync", **kw))


def section(lines, heading):
    """The table under heading: its indented lines."""
    start = lines.index(heading) + 1
    end = start
    while end < len(lines) and lines[end].startswith("  "):
        end += 1
    return lines[start:end]


class FirstScreenTest(unittest.TestCase):
    def test_the_first_lines_are_the_predicted_phases(self):
        text = summary(fixture_envs())
        lines = text.splitlines()
        self.assertEqual(lines[0], "diskio-correlate: B vs A (baseline)")
        self.assertEqual(lines[2], "== B vs A (baseline): the WAL model's "
                                   "prediction of each phase ==")
        self.assertEqual(lines[3].split(), ["phase", "verdict", "predicted",
                                            "range", "measured", "syncs"])
        # every phase with WAL counters, the refresh functions included
        self.assertEqual([line.split()[0] for line in lines[4:9]],
                         ["load", "power", "throughput", "power.rf1",
                          "power.rf2"])
        self.assertEqual(lines[7].split()[:8],
                         ["power.rf1", "off", "+26%", "5.02", "s", "1.00×",
                          "n/a", "4.00"])
        self.assertEqual(lines[9], "  not predicted: power.q1, "
                         "throughput.qs1.all: no WAL counters in A's wal.csv")
        order = [lines.index(heading) for heading in (
            "== B vs A (baseline): the WAL model's prediction of each phase ==",
            "== calibration: time per sync, PostgreSQL's own (PG) against "
            "diskio's ==",
            "== disk ratios the predictions rest on (vs A) ==")]
        self.assertEqual(order, sorted(order))
        self.assertLessEqual(len(lines), MAX_LINES, text)
        self.assertTrue(all(len(line) <= 100 for line in lines), text)
        self.assertNotIn("disks:", text)
        self.assertNotIn("consistent with", text)

    def test_the_calibration_columns_are_labelled(self):
        lines = summary(envs_with_pattern_runs()).splitlines()
        table = section(lines, "== calibration: time per sync, PostgreSQL's "
                               "own (PG) against diskio's ==")
        self.assertEqual(table[0].split(), ["env", "sync", "PostgreSQL",
                                            "diskio", "diskio/PG", "device",
                                            "PG", "device", "diskio"])
        rows = [re.split(r"\s{2,}", line.strip()) for line in table[1:]]
        self.assertIn(["A", "WAL, commit.c4 (4)", "600.0 us", "600.0 us",
                       "1.00×", "176 us/flush", "165 us/flush"], rows)
        self.assertIn(["A", "WAL, commit.c1 (1)", "300.0 us", "500.0 us",
                       "1.67×", "n/a", "n/a"], rows)
        self.assertIn(["B", "checkpoint file", "5000 us", "8000 us", "1.60×",
                       "n/a", "n/a"], rows)

    def test_the_disk_ratios_are_the_models_not_every_modes(self):
        envs = envs_with_pattern_runs()
        report = build_report(envs, envs[0], "fdatasync")
        self.assertEqual(report["comparisons"][0]["metrics"]["async.mean_us"]
                         ["verdict"], "slower")
        lines = render_text(report).splitlines()
        table = section(lines, "== disk ratios the predictions rest on (vs A) ==")
        self.assertEqual(table[0].split(), ["for", "metric", "B/A", "95%",
                                            "interval", "verdict"])
        rows = {line.split()[1]: line.split() for line in table[1:]}
        self.assertEqual(sorted(rows), ["fdatasync@wal-gap150us.sync_mean_us",
                                        "fdatasync@wal-jobs4-gap150us.sync_mean_us",
                                        "fsync@checkpoint.sync_mean_us"])
        self.assertEqual(rows["fsync@checkpoint.sync_mean_us"][0], "checkpoint")
        self.assertEqual(rows["fdatasync@wal-gap150us.sync_mean_us"][:3],
                         ["wal_commit", "fdatasync@wal-gap150us.sync_mean_us",
                          "2.00×"])
        self.assertRegex(rows["fsync@checkpoint.sync_mean_us"][3], r"^\d.*×$")
        # no mode the model does not use: not async's 7.87x
        text = "\n".join(lines)
        self.assertNotRegex(text, r"(?<![\w.@])async\.mean_us")
        self.assertNotIn("7.87×", text)

    def test_the_details_still_show_the_rest(self):
        envs = fixture_envs()
        report = build_report(envs, envs[0], "fdatasync")
        first = render_text(report).splitlines()
        details = render_text(report, details=True).splitlines()
        legend = next(i for i, line in enumerate(first)
                      if line.startswith("predicted (wal_sync_method"))
        self.assertEqual(details[:legend], first[:legend])
        self.assertIn("more: --details.", " ".join(first[legend:]))
        rest = "\n".join(details[legend:])
        self.assertIn("== B vs A (baseline): each phase against the disks ==",
                      rest)
        self.assertIn("disks: slower: fsync.sync_mean_us 1.55×", rest)
        self.assertIn("  power: 1.42× (slower); consistent with "
                      "fsync.sync_mean_us 1.55× (needs 76%)", rest)
        self.assertIn("  metric  async.mean_us ", rest)
        self.assertIn("Noise: phases are single runs", rest)
        self.assertIn("-- phase power.rf1", rest)
        self.assertIn("== WAL model (wal_sync_method fdatasync) ==", rest)

    def test_without_wal_counters_the_verdicts_stay_first(self):
        envs = [make_env("A", {"load": 10.0}, {"fsync.mean_us": 100.0}),
                make_env("B", {"load": 15.0}, {"fsync.mean_us": 200.0})]
        lines = summary(envs).splitlines()
        self.assertEqual(lines[3], "== B vs A (baseline) ==")
        self.assertTrue(lines[4].startswith("disks: slower: fsync.mean_us"))

    def test_an_explicit_phases_filter_narrows_the_predictions(self):
        envs = fixture_envs()
        lines = summary(envs, phases_wanted=re.compile(r"^power")).splitlines()
        self.assertEqual([line.split()[0] for line in lines[4:7]],
                         ["power", "power.rf1", "power.rf2"])
        self.assertEqual(lines[7], "  not predicted: power.q1: no WAL "
                                   "counters in A's wal.csv")


class DefaultPhasesTest(unittest.TestCase):
    def test_the_phases_with_wal_counters_are_shown_by_default(self):
        phases = ["load", "power", "power.rf1", "power.q1", "power.rf2"]
        self.assertEqual(select_phases(phases, None, {"power.rf1": {},
                                                      "power.rf2": {}}),
                         ["load", "power", "power.rf1", "power.rf2"])
        self.assertEqual(select_phases(phases, None), ["load", "power"])


def prediction(predicted_s, actual_s=100.0, predicted_range=None,
               measured=None):
    return {"predicted_s": predicted_s, "actual_s": actual_s,
            "actual_ratio": actual_s / 100.0,
            "trust": {"measured_ratio_interval": measured,
                      "predicted_ratio_range": predicted_range}}


class PredictionVerdictTest(unittest.TestCase):
    def test_within_the_bound_or_off_beyond_it(self):
        self.assertEqual(judge_prediction(prediction(96.0), 0.05)["verdict"],
                         "within")
        off = judge_prediction(prediction(90.0), 0.05)
        self.assertEqual(off["verdict"], "off")
        self.assertAlmostEqual(off["error"], -0.10)
        self.assertIsNone(judge_prediction(prediction(None), 0.05)["verdict"])

    def test_rounds_that_spread_beyond_the_bound_cannot_tell(self):
        p = judge_prediction(prediction(130.0, 150.0, measured=[1.2, 1.9]),
                             0.05)
        self.assertEqual(p["verdict"], "inconclusive")
        self.assertAlmostEqual(p["measured_spread"], 1.9 / 1.5 - 1.0)
        self.assertIn("rounds spread more than the ±5%", p["verdict_note"])
        self.assertEqual(p["verdict_cause"], "spread")
        p = judge_prediction(prediction(149.0, 150.0, measured=[1.48, 1.52]),
                             0.05)
        self.assertEqual(p["verdict"], "within")

    def test_phases_inconclusive_alike_are_named_once_with_their_spreads(self):
        note = "the phase's rounds spread more than the ±5% a prediction " \
            "is judged by"
        trust = {"incomplete_runs": [], "implausible": None, "disturbed": None}
        phases = {name: {"trust": trust, "verdict_note": note,
                         "verdict_cause": "spread", "measured_spread": spread}
                  for name, spread in (("load", 0.27), ("power", 1.5))}
        self.assertEqual(caveats(phases), [
            f"load, power: inconclusive: {note} (±27% to ±150%)"])

    def test_a_disturbed_phase_cannot_tell(self):
        wal = {"load": dict(ROW, wal_sync=50000.0)}
        a = make_env("A", {"load": 10.0}, {"fdatasync.mean_us": 100.0}, wal)
        b = make_env("B", {"load": 12.5}, {"fdatasync.mean_us": 150.0}, wal)
        report = build_report([a, b], a, "fdatasync")
        p = report["wal_model"]["predictions"][0]["phases"]["load"]
        self.assertEqual(p["verdict"], "within")
        b.phase_disturbed["load"] = [("58% of vda's I/O was not diskio's",)]
        report = build_report([a, b], a, "fdatasync")
        p = report["wal_model"]["predictions"][0]["phases"]["load"]
        self.assertEqual(p["verdict"], "inconclusive")
        self.assertEqual(p["trust"]["phase_disturbed"],
                         "B: 58% of vda's I/O was not diskio's")
        self.assertIn("load: inconclusive: the phase's measurement was "
                      "disturbed", render_text(report))

    def test_a_measurement_inside_a_wide_predicted_range_cannot_tell(self):
        p = judge_prediction(prediction(120.0, 150.0, [1.1, 1.6]), 0.05)
        self.assertEqual(p["verdict"], "inconclusive")
        self.assertIn("lies in the predicted range", p["verdict_note"])
        self.assertEqual(p["verdict_cause"], "range")
        p = judge_prediction(prediction(120.0, 150.0, [1.1, 1.3]), 0.05)
        self.assertEqual(p["verdict"], "off")

    def test_the_json_keeps_every_key_and_adds_the_verdicts(self):
        import json
        envs = fixture_envs()
        report = json.loads(render_json(build_report(envs, envs[0],
                                                     "fdatasync")))
        model = report["wal_model"]
        p = model["predictions"][0]["phases"]["power.rf2"]
        for key in ("baseline_s", "predicted_s", "predicted_ratio",
                    "predicted_commit_path_s", "actual_s", "actual_ratio",
                    "dominant_basis", "trust", "bases"):
            self.assertIn(key, p)
        self.assertEqual((p["verdict"], round(p["error"], 4),
                          p["verdict_cause"], p["verdict_note"]),
                         ("off", round(4.0216 / 5.2 - 1, 4), None, None))
        self.assertEqual(model["verdict_bound"], report["min_change"])
        basis = p["bases"]["wal_commit"]
        self.assertEqual((basis["latency_metric"],
                          basis["latency_metric_other"]),
                         ("fdatasync.mean_us", "fdatasync.mean_us"))
        cal = model["calibration"]["A"]
        self.assertEqual(cal["summary_phases"], ["throughput"])
        self.assertIn("short", cal)
        self.assertIn("text", cal)


if __name__ == "__main__":
    unittest.main()
