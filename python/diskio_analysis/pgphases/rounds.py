# SPDX-License-Identifier: MIT
"""Rounds of the workload (--rounds): each on a cluster of its own, one
after the other; the result files give every task's median over the
rounds (q_time.csv: the median seconds, with the first round's time
stamps; wal.csv: each counter's median), rounds.csv every round's
seconds, and settings.json each task's spread: how far apart its rounds
were, which no prediction can be judged more closely than."""

import statistics


def median_tasks(rounds):
    """q_time rows: the first round's, each with its seconds the median
    over the rounds that ran it."""
    seconds = {}
    for tasks in rounds:
        for name, _, _, sec in tasks:
            seconds.setdefault(name, []).append(sec)
    return [(name, t0, t1, statistics.median(seconds[name]))
            for name, t0, t1, _ in rounds[0]]


def median_walrows(rounds):
    """wal.csv rows: the first round's tasks, each counter the median over
    the rounds."""
    values = {}
    for walrows in rounds:
        for name, d in walrows:
            for key, v in d.items():
                values.setdefault(name, {}).setdefault(key, []).append(v)
    return [(name, {key: statistics.median(v) for key, v in values[name].items()})
            for name, _ in rounds[0]]


def round_rows(rounds):
    """rounds.csv: (task, round from 1, seconds) for every round."""
    return [(name, r + 1, sec) for r, tasks in enumerate(rounds)
            for name, _, _, sec in tasks]


def spread(rounds):
    """{task: {"min_s", "max_s", "median_s", "spread"}}: spread is
    (max - min) / median, the rounds' disagreement; a task one round ran
    has none."""
    seconds = {}
    for tasks in rounds:
        for name, _, _, sec in tasks:
            seconds.setdefault(name, []).append(sec)
    result = {}
    for name, values in seconds.items():
        med = statistics.median(values)
        result[name] = {"min_s": min(values), "max_s": max(values),
                        "median_s": med,
                        "spread": (max(values) - min(values)) / med
                        if len(values) > 1 and med > 0 else None}
    return result


def spread_line(name, s):
    """'PERF.POWER.RF1 2.104 s (2.031-2.215, spread 8.7%)'."""
    text = "%s %.3f s" % (name, s["median_s"])
    if s["spread"] is not None:
        text += " (%.3f-%.3f, spread %.1f%%)" % (s["min_s"], s["max_s"],
                                                 100.0 * s["spread"])
    return text


def shown(name):
    """The tasks whose spread the progress lines show: the phases, the
    commit probe and the power test's refresh functions."""
    return name.startswith("COMMIT.") or name in (
        "LOAD", "PERF.POWER", "PERF.POWER.RF1", "PERF.POWER.RF2", "PERF.THRUPUT")
