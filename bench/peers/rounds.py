# SPDX-License-Identifier: MIT
"""Interleaved rounds: every case with every tool back to back, the order
rotated from round to round and case to case, the load recorded with each
run and each round; busy rounds are abandoned, discarded and replaced
within the budget."""

import datetime
import statistics
import time

from .common import Fail, log, warn
from .load import LoadMeter, is_busy, wait_quiet
from .report import fmt_ns, fmt_rate
from .runs import run_one


def rotated(tools, k):
    """tools rotated left by k (mod their number)."""
    k = k % len(tools) if tools else 0
    return tools[k:] + tools[:k]


def log_run(case, tool, metrics, wall_s):
    if tool != "pg_test_fsync":
        log("  %-14s %-13s %12s ops/s  mean %-9s p50 %-9s (%.1fs)" % (
            case["name"], tool, fmt_rate(metrics["ops_s"]), fmt_ns(metrics["mean_ns"]),
            fmt_ns(metrics.get("p50_ns")), wall_s))
        return
    for mode, mm in metrics.items():
        log("  %-14s %-13s %12s ops/s  mean %-9s (pg %s, prints %d us)" % (
            mode, tool, fmt_rate(mm["ops_s"]), fmt_ns(mm["mean_ns"]),
            mm["method"], mm["usecs_printed"]))


def run_tool(env, case, tool, index):
    """The run entries of one tool on one case (pg_test_fsync: one per mode)."""
    m = LoadMeter()
    entry = {"group": case["group"], "case": case["name"], "tool": tool}
    try:
        metrics, r = run_one(env, case, tool)
        entry["error"] = None
    except Fail as e:
        metrics, r = None, {}
        entry["error"] = str(e)
        warn("round %d, %s / %s: %s" % (index + 1, case["name"], tool, e))
    load = m.stop()
    entry["wall_s"] = round(r.get("wall_s", load["wall_s"]), 3)
    entry["other_busy"] = load["other_busy"]
    if metrics:
        log_run(case, tool, metrics, entry["wall_s"])
    if tool == "pg_test_fsync" and metrics:
        return [dict(entry, case=mode, metrics=mm) for mode, mm in metrics.items()]
    entry["metrics"] = metrics
    return [entry]


def run_round(env, cases, index, threshold, can_abort):
    log("round %d" % (index + 1))
    meter = LoadMeter()
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    runs = []
    aborted = False
    for ci, (case, tools) in enumerate(cases):
        so_far = meter.stop()
        if can_abort and so_far["wall_s"] > 5 and is_busy(so_far, threshold):
            # it will be discarded anyway: do not spend the time
            log("  other processes used %.0f%% of the CPUs so far: round abandoned" %
                (so_far["other_busy"] * 100))
            aborted = True
            break
        # rotate the order of the tools every round (and per case), so that no
        # tool always runs first or after the same neighbour
        for tool in rotated([t for t in tools if env.have(t)], index + ci):
            runs += run_tool(env, case, tool, index)
    load = meter.stop()
    rnd = {"index": index + 1, "started": started, **load, "aborted": aborted, "runs": runs}
    log("  load: other processes %.1f%% of the CPUs, steal %.1f%%, loadavg %.2f, %.0f s" % (
        load["other_busy"] * 100, load["steal"] * 100, load["loadavg1"], load["wall_s"]))
    return rnd


def round_estimate(rounds):
    """Seconds a round takes: the median of the rounds run to the end."""
    full = [r["wall_s"] for r in rounds if not r["aborted"]]
    return statistics.median(full) if full else 60


def run_rounds(env, cases, args, t_start):
    """(rounds, indexes of the rounds used, noisy): up to --rounds quiet
    rounds, trying at most three times as many within --budget."""
    rounds = []
    quiet = []
    attempts_max = args.rounds if args.smoke else 3 * args.rounds
    while cases and len(rounds) < attempts_max and len(quiet) < args.rounds:
        if rounds and not args.smoke:
            if (time.monotonic() - t_start + round_estimate(rounds)) / 60 > args.budget:
                env.note("--budget of %g minutes reached after %d rounds (%d quiet)"
                         % (args.budget, len(rounds), len(quiet)))
                break
        rnd = run_round(env, cases, len(rounds), args.busy_threshold, not args.smoke)
        rounds.append(rnd)
        busy = rnd["aborted"] or is_busy(rnd, args.busy_threshold)
        rnd["busy"] = busy
        if not busy or args.smoke:
            quiet.append(rnd["index"])
        else:
            log("  round %d discarded: the machine was busy" % rnd["index"])
            wait_quiet(args.busy_threshold,
                       t_start + args.budget * 60 - round_estimate(rounds))
    if cases and len(quiet) < min(2, args.rounds):
        env.note("NOISY: fewer than 2 quiet rounds; every round used, the ratios "
                 "are not trustworthy")
        return rounds, [r["index"] for r in rounds], True
    return rounds, quiet, False
