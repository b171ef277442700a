# SPDX-License-Identifier: MIT
"""bench/rate-lag's figures from diskio results: how much of a paced
run's latency is diskio's own lateness, against the ops' service time
and an unpaced run of the same ops (the reference measured in the same
round)."""

import statistics

from diskio_analysis.result import Run

# issue 10's target: at 2000 ops/s on tmpfs, the corrected p50 (from when
# each op was due) no more than 5 us above the service p50 (from when it
# started): diskio's own wake-up lateness is not charged to the storage
TARGET_NS = 5000


class NotPaced(ValueError):
    """A result that is not a paced run (no rate section)."""


def paced_figures(run: Run):
    """The figures of one paced run (a Run of diskio_analysis.result)."""
    rate = run.rate
    if not rate:
        raise NotPaced("the run has no rate section: not run with --rate")
    total = run.need_part("total").need("p50")
    service = run.need_part("service").need("p50")
    late, backlog = rate.late_start_ns, rate.backlog
    return {
        "ops": run.ops,
        "achieved": rate.achieved_ops_per_s,
        "total_p50": total,
        "service_p50": service,
        "gap_p50": total - service,
        "late_ops": late.ops if late else None,
        "late_p99": late.p99 if late else None,
        "backlog_ops": backlog.ops if backlog else None,
        "max_lag": rate.max_start_lag_ns,
        "spin_margin": rate.spin_margin_ns,
        "held": rate.held,
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
