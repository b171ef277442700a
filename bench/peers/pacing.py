# SPDX-License-Identifier: MIT
"""bench/rate-lag's figures from diskio results: how much of a paced
run's latency is diskio's own lateness, against the ops' service time
and an unpaced run of the same ops (the reference measured in the same
round)."""

import statistics

# issue 10's target: at 2000 ops/s on tmpfs, the corrected p50 (from when
# each op was due) no more than 5 us above the service p50 (from when it
# started): diskio's own wake-up lateness is not charged to the storage
TARGET_NS = 5000


class NotPaced(ValueError):
    """A result that is not a paced run (no rate section)."""


def paced_figures(run):
    """The figures of one paced run (a result's run as a dict)."""
    rate = run.get("rate")
    if not rate:
        raise NotPaced("the run has no rate section: not run with --rate")
    total, service = run["latency"]["total"], run["latency"]["service"]
    late = rate.get("late_start_ns") or {}
    backlog = rate.get("backlog") or {}
    return {
        "ops": run["ops"],
        "achieved": rate["achieved_ops_per_s"],
        "total_p50": total["p50"],
        "service_p50": service["p50"],
        "gap_p50": total["p50"] - service["p50"],
        "late_ops": late.get("ops"),
        "late_p99": late.get("p99"),
        "backlog_ops": backlog.get("ops"),
        "max_lag": rate["max_start_lag_ns"],
        "spin_margin": rate.get("spin_margin_ns"),
        "held": bool(rate["held"]),
    }


def judge(rounds):
    """rounds: [(paced figures, unpaced p50 ns)]: the medians over the
    rounds and whether the target is met."""
    gaps = [p["gap_p50"] for p, _ in rounds]
    ratios = [p["service_p50"] / ref for p, ref in rounds if ref > 0]
    med = statistics.median(gaps)
    return {
        "gap_p50_median": med,
        "gap_p50_range": (min(gaps), max(gaps)),
        "service_vs_unpaced_median": statistics.median(ratios) if ratios else None,
        "held_rounds": sum(1 for p, _ in rounds if p["held"]),
        "target_ns": TARGET_NS,
        "met": med <= TARGET_NS,
    }
