# SPDX-License-Identifier: MIT
"""From the rounds to the answer: medians and spread over the used rounds,
per-round ratios of two tools' figures for one case, and the targets
judged on the median of those ratios (PASS, MISS, or n/a without one)."""

import math
import statistics


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def median_interval(xs, level=0.95):
    """A distribution-free interval for the median of xs: the k-th lowest
    and k-th highest values, k as large as keeps the chance that the true
    median lies between them at level or above (the binomial count of
    values below it).  (low, high, coverage), or None with fewer than 6
    values, where even the lowest and highest cover less than 95%."""
    xs = sorted(x for x in xs if x is not None)
    n = len(xs)
    best = None
    below = 0      # P(at most k of the n values below the median)
    for k in range(n // 2):
        below += math.comb(n, k) / 2 ** n
        coverage = 1 - 2 * below
        if coverage < level:
            break
        best = (xs[k], xs[n - 1 - k], coverage)
    return best


def spread(xs):
    """(max - min) / median, or None for fewer than two values."""
    xs = [x for x in xs if x is not None]
    if len(xs) < 2:
        return None
    m = statistics.median(xs)
    return (max(xs) - min(xs)) / m if m else None


def used_runs(rounds, used):
    """Each used round's runs, round by round."""
    return [rnd["runs"] for rnd in rounds if rnd["index"] in used]


def summarize(rounds, used):
    by = {}
    for runs in used_runs(rounds, used):
        for run in runs:
            by.setdefault((run["group"], run["case"], run["tool"]), []).append(run["metrics"])
    rows = []
    for k, all_ms in by.items():
        ms = [m for m in all_ms if m]
        rows.append({
            "group": k[0], "case": k[1], "tool": k[2], "n": len(ms),
            "failed": len(all_ms) - len(ms),
            "ops_per_s": median([m["ops_s"] for m in ms]),
            "mean_ns": median([m.get("mean_ns") for m in ms]),
            "p50_ns": median([m.get("p50_ns") for m in ms]),
            "spread_ops": spread([m["ops_s"] for m in ms]),
            "spread_mean": spread([m.get("mean_ns") for m in ms]),
            "write_mean_ns": median([m.get("write_mean_ns") for m in ms]),
            "sync_mean_ns": median([m.get("sync_mean_ns") for m in ms]),
            "dev_writes_per_op": median([m.get("dev_writes_per_op") for m in ms]),
            "dev_merges_per_op": median([m.get("dev_merges_per_op") for m in ms]),
            "dev_reads_per_op": median([m.get("dev_reads_per_op") for m in ms]),
            "dev_kib_per_read": median([m.get("dev_kib_per_read") for m in ms]),
            "mb_per_s": median([m.get("mb_s") for m in ms]),
        })
    return rows


def paired(rounds, used, case, a, b, key, key_b=None):
    """Per-round ratios a/b for one case (used rounds only): of metric key
    of both tools, or of key of a over key_b of b."""
    out = []
    for runs in used_runs(rounds, used):
        got = {run["tool"]: run["metrics"] for run in runs
               if run["case"] == case and run["metrics"]}
        x = got.get(a, {}).get(key)
        y = got.get(b, {}).get(key_b or key)
        if x and y:
            out.append(x / y)
    return out


NEED = {">=": "≥ %.2f", "within": "1 ± %.2f", "<=": "≤ %g"}


def judge(value, op, limit):
    """PASS or MISS of value against limit (">=", "<=", or "within":
    |value - 1| <= limit); n/a without a value."""
    if value is None:
        return "n/a"
    if op == ">=":
        ok = value >= limit
    elif op == "within":
        ok = abs(value - 1) <= limit
    else:
        ok = value <= limit
    return "PASS" if ok else "MISS"


def ratio_target(tid, group, what, ratios, op, limit):
    val = median(ratios)
    return {"id": tid, "group": group, "what": what, "value": val,
            "per_round": [round(x, 4) for x in ratios], "need": NEED[op] % limit,
            "unit": "ratio", "result": judge(val, op, limit)}


def figure_target(tid, group, what, value, limit, unit):
    """A target on one figure that must be at most limit (no rounds)."""
    return {"id": tid, "group": group, "what": what, "value": value,
            "need": "≤ %g" % limit, "unit": unit, "result": judge(value, "<=", limit)}


def round_targets(rounds, used):
    t = []
    for bs in ("512 B", "8 KiB"):
        c = "async " + bs
        # diskio's own overhead: against the bare loop writing the same
        # data (diskio's 8 MiB pool of random blocks, stamped before each
        # op); the hot one-buffer bare loop is in the table beside it
        for peer, label, need in (("bare+pool", "bare timed loop, diskio's data", 0.97),
                                  ("fio", "fio psync", 1.2)):
            t.append(ratio_target(
                "overhead-%s-%s" % (peer, bs.replace(" ", "")), "overhead",
                "async %s tmpfs: diskio ops/s ÷ %s" % (bs, label),
                paired(rounds, used, c, "diskio", peer, "ops_s"), ">=", need))
    for mode in ("fsync", "fdatasync", "osync", "odsync", "direct"):
        for key, lab in (("mean_ns", "mean"), ("p50_ns", "median")):
            t.append(ratio_target(
                "accuracy-bare-%s-%s" % (mode, lab), "accuracy",
                "%s 8 KiB: diskio %s ÷ bare loop %s" % (mode, lab, lab),
                paired(rounds, used, mode, "diskio", "bare", key), "within", 0.03))
    for mode in ("fsync", "fdatasync", "direct-dsync"):
        meth = {"direct-dsync": "open_datasync"}.get(mode, mode)
        for key, lab in (("mean_ns", "mean"), ("p50_ns", "median")):
            # pg_test_fsync has no median: both against its time per op
            t.append(ratio_target(
                "accuracy-pg-%s-%s" % (mode, lab), "accuracy",
                "%s 8 KiB: diskio %s ÷ pg_test_fsync %s usecs/op" % (mode, lab, meth),
                paired(rounds, used, mode, "diskio", "pg_test_fsync", key, "mean_ns"),
                "within", 0.05))
    for mode in ("aio", "uring"):
        for depth in (1, 32):
            rs = paired(rounds, used, "%s qd%d" % (mode, depth), "diskio", "fio", "ops_s")
            if mode == "uring" and not rs:
                continue
            t.append(ratio_target(
                "qd-%s-%d" % (mode, depth), "qd",
                "%s O_DIRECT 8 KiB qd%d: diskio IOPS ÷ fio %s" % (
                    mode, depth, "libaio" if mode == "aio" else "io_uring"), rs, ">=", 1.0))
    return (t + bare_targets(rounds, used) + read_targets(rounds, used) +
            crystal_targets(rounds, used))


def bare_targets(rounds, used):
    """The bare group: each durable mode's median within 2% of the bare
    loop's, buffered ops/s at least 0.98 of it; beside them, what writing
    diskio's data (its pool, stamped) costs the bare loop itself."""
    from .plan import BARE_SYNC_MODES
    t = []
    for mode in BARE_SYNC_MODES:
        t.append(ratio_target(
            "bare-%s-median" % mode, "bare", "%s 8 KiB: diskio median ÷ bare loop median" % mode,
            paired(rounds, used, "bare " + mode, "diskio", "bare", "p50_ns"), "within", 0.02))
        # reported beside it: against the bare loop writing diskio's data
        # (a fresh block each write: for O_DIRECT, pages pinned anew), and
        # what that data costs the bare loop itself
        t.append(ratio_target(
            "bare-%s-median-data" % mode, "bare",
            "%s 8 KiB: diskio median ÷ bare loop writing diskio's data (report)" % mode,
            paired(rounds, used, "bare " + mode, "diskio", "bare+pool", "p50_ns"), ">=", 0.0))
        t.append(ratio_target(
            "bare-%s-data" % mode, "bare",
            "%s 8 KiB: the data's own cost, bare loop median ÷ itself on one buffer "
            "(report)" % mode,
            paired(rounds, used, "bare " + mode, "bare+pool", "bare", "p50_ns"), ">=", 0.0))
    # buffered: diskio's own cost against the bare loop writing the same
    # data (fresh, incompressible blocks: what honesty requires), and
    # that data's cost against one hot buffer, reported beside it
    for bs in ("512 B", "8 KiB"):
        case, tid = "bare async " + bs, bs.replace(" ", "")
        t.append(ratio_target(
            "bare-async-%s" % tid, "bare",
            "async %s tmpfs: diskio ops/s ÷ bare loop writing diskio's data" % bs,
            paired(rounds, used, case, "diskio", "bare+pool", "ops_s"), ">=", 0.98))
        t.append(ratio_target(
            "bare-async-%s-one-buffer" % tid, "bare",
            "async %s tmpfs: diskio ops/s ÷ bare loop rewriting one buffer (report)" % bs,
            paired(rounds, used, case, "diskio", "bare", "ops_s"), ">=", 0.0))
        t.append(ratio_target(
            "bare-async-%s-data" % tid, "bare",
            "async %s tmpfs: the data's own cost, bare loop ÷ itself on one buffer "
            "(report)" % bs,
            paired(rounds, used, case, "bare+pool", "bare", "ops_s"), ">=", 0.0))
    return t


def read_targets(rounds, used):
    """diskio's read modes against fio's equivalent jobs: IOPS and MB/s
    within noise (10%), and the same device reads per op (within 10%,
    and never fewer than 0.05 apart: the readahead of a sequential read
    makes few requests)."""
    from .plan import READ_MODES, READ_SHAPES
    t = []
    for mode in READ_MODES:
        for shape, _, _, _ in READ_SHAPES:
            case = "%s %s" % (mode, shape)
            rs = paired(rounds, used, case, "diskio", "fio", "ops_s")
            if not rs:
                continue
            tid = "read-%s-%s" % (mode, shape.replace(" ", "-").lower())
            what = "%s %s: diskio %%s ÷ fio %s" % (
                mode, shape, "buffered, invalidate=1" if mode == "read" else "direct=1")
            t.append(ratio_target(tid + "-iops", "read", what % "IOPS", rs, "within", 0.10))
            t.append(ratio_target(tid + "-mbs", "read", what % "MB/s",
                                  paired(rounds, used, case, "diskio", "fio", "mb_s"),
                                  "within", 0.10))
            dev = paired(rounds, used, case, "diskio", "fio", "dev_reads_per_op")
            t.append(ratio_target(tid + "-dev", "read", what % "device reads per op", dev,
                                  "within", 0.10))
    return t


def crystal_targets(rounds, used):
    """The crystal suite's rows against fio's libaio jobs: IOPS (= MB/s:
    the same block size) within noise (10%), and the same device requests
    per op (within 10%)."""
    from .plan import crystal_rows
    t = []
    for label, column, _ in crystal_rows():
        case = "%s %s" % (label, column)
        rs = paired(rounds, used, case, "diskio", "fio", "ops_s")
        if not rs:
            continue
        tid = "crystal-%s-%s" % (label.replace(" ", "-").lower(), column)
        what = "crystal %s: diskio %%s ÷ fio libaio direct=1" % case
        t.append(ratio_target(tid + "-iops", "crystal", what % "IOPS (MB/s)", rs, "within", 0.10))
        dev_key = "dev_reads_per_op" if column == "read" else "dev_writes_per_op"
        dev = paired(rounds, used, case, "diskio", "fio", dev_key)
        t.append(ratio_target(tid + "-dev", "crystal", what % "device requests per op", dev,
                              "within", 0.10))
    return t


def memory_targets(memory):
    dm = (memory or {}).get("diskio")
    if not dm:
        return []
    small, large = [str(x) for x in memory["counts"]]
    if small not in dm or large not in dm:
        return []
    return [figure_target("memory-flat", "memory",
                          "diskio peak RSS, %s vs %s async ops (KiB apart)" % (small, large),
                          abs(dm[large] - dm[small]), 64, "KiB"),
            figure_target("memory-above-baseline", "memory",
                          "diskio peak RSS above diskio --count 1 (KiB)",
                          max(dm[large], dm[small]) - dm["1"], 4096, "KiB")]


def record_targets(record):
    if not (record and record.get("available")):
        return []
    bad = record["forbidden_calls"]
    return [figure_target("record-ir", "record",
                          "diskio_hist_record instructions per call (callgrind, marginal)",
                          record["ir_per_call"], 20, "Ir"),
            {"id": "record-no-alloc-lock", "group": "record",
             "what": "no malloc/free/lock called inside diskio_hist_record",
             "value": ", ".join(bad) or "none", "need": "none", "unit": "",
             "result": "PASS" if not bad else "MISS"}]


def targets(rounds, used, memory, record):
    return round_targets(rounds, used) + memory_targets(memory) + record_targets(record)
