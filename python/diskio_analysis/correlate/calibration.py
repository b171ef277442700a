# SPDX-License-Identifier: MIT
"""The WAL model's calibration: PostgreSQL's own time per WAL sync (and
per checkpoint file sync) against the latency of the diskio run standing
for it, in one environment, with the device's own time per request under
each; what tells a reader how far diskio's latencies stand for the
database's syncs."""

from ..inputs import WAL_SYNC_METHODS
from ..modes import syncs


def fmt_factor(factor):
    """1.00, 0.89; 0.00042 rather than 0.00."""
    return f"{factor:.2f}" if factor >= 0.1 else f"{factor:.2g}"


def device_figures(device_us):
    """(kind, PostgreSQL's us, diskio's us): the device's own time per
    flush request under both (per write where there were no flushes), or
    None where either is unknown."""
    for kind in ("flush", "write"):
        pg, diskio = device_us[kind]["pg"], device_us[kind]["diskio"]
        if pg is not None and diskio is not None:
            return kind, pg, diskio
    return None


def device_text(device_us):
    """", the device 176 us per flush under PostgreSQL, 165 us under
    diskio", or "" where either is unknown (device_figures)."""
    figures = device_figures(device_us)
    if figures is None:
        return ""
    kind, pg, diskio = figures
    return (f", the device {pg:.0f} us per {kind} under PostgreSQL, "
            f"{diskio:.0f} us under diskio")


def calibration_wal(env, est, count_column, time_column):
    """calibration()'s "wal": per phase that timed its WAL syncs (in
    count_column and time_column) and has a diskio run standing for
    them, the two against each other; the commit probe first, then the
    phases with the most syncs."""
    wal = []
    for phase, p in est.items():
        b = p["bases"]["wal_commit"]
        row = env.wal[phase]
        count = row.get(count_column)
        if not count or b["pg_time_s"] is None or b["latency_us"] is None:
            continue
        pg_us = (row.get(time_column) or 0.0) * 1000.0 / count
        commits = row.get("xact_commit")
        cpu_s, phase_s = env.phase_cpu_s(phase), env.phases.get(phase)
        prefix = b["latency_metric"].rsplit(".", 1)[0]
        run = next((r for r in env.pattern_runs if r["prefix"] == prefix), None)
        wal.append({"phase": phase, "committers": p["context"]["committers"],
                    # the device's own time per request under each: where
                    # they agree and the syncs do not, the difference is
                    # not the storage's
                    "device_us": {kind: {"pg": env.phase_device_us(phase, kind),
                                         "diskio": run["device_us"][kind] if run else None}
                                  for kind in ("write", "flush")},
                    # the CPUs the server and its client kept busy meanwhile:
                    # where they contend, PostgreSQL's syncing backend waits
                    # for one inside its sync, which diskio's does less
                    "pg_cpus": cpu_s / phase_s if cpu_s is not None and phase_s else None,
                    "syncs": count, "pg_us": pg_us, "diskio_us": b["latency_us"],
                    "ratio": b["latency_us"] / pg_us if pg_us > 0 else None,
                    "metric": b["latency_metric"],
                    "pg_syncs_per_commit": count / commits if commits else None})
    # the commit probe first, then the phases with the most syncs
    wal.sort(key=lambda c: (not c["phase"].startswith("commit."), -c["syncs"]))
    return wal


def calibration_checkpoint(env, est):
    """calibration()'s "checkpoint": PostgreSQL's time per checkpoint
    file sync over every phase against the diskio run standing for it,
    or None where either is unknown."""
    ckpt = None
    files = sum(r.get("checkpoint_sync_files") or 0 for r in env.wal.values()
                if r.get("checkpoint_sync_time_ms") is not None)
    time_ms = sum(r.get("checkpoint_sync_time_ms") or 0 for r in env.wal.values()
                  if r.get("checkpoint_sync_files"))
    bases = [p["bases"]["checkpoint"] for p in est.values()
             if p["bases"]["checkpoint"]["latency_us"] is not None]
    if files and time_ms > 0 and bases:
        pg_us = time_ms * 1000.0 / files
        ckpt = {"files": files, "pg_us": pg_us, "diskio_us": bases[0]["latency_us"],
                "ratio": bases[0]["latency_us"] / pg_us,
                "metric": bases[0]["latency_metric"]}
    return ckpt


def calibration(env, est, method):
    """PostgreSQL's own time per WAL sync (and per checkpoint file sync)
    against the latency of the diskio run standing for it, in one
    environment: {"wal": [per phase that timed them, the commit probe's
    first], "checkpoint": {...} or None, "text": one line}."""
    mode, count_column, time_column = WAL_SYNC_METHODS[method]
    wal = calibration_wal(env, est, count_column, time_column)
    ckpt = calibration_checkpoint(env, est)
    parts = []
    shown = [c for c in wal if c["phase"].startswith("commit.")] or wal[:1]
    for c in shown:
        parts.append(f"{c['phase']} ({c['committers']} committer"
                     f"{'s' if c['committers'] > 1 else ''}): PostgreSQL "
                     f"{c['pg_us']:.0f} us per WAL "
                     f"{'sync' if syncs(mode) else 'write'}, "
                     f"diskio {c['metric'].rsplit('.', 1)[0]} {c['diskio_us']:.0f} us "
                     f"({fmt_factor(c['ratio'])}x)"
                     + (f", PostgreSQL and its client {c['pg_cpus']:.2f} CPUs busy"
                        if c["pg_cpus"] is not None else "")
                     + device_text(c["device_us"]))
    if ckpt:
        parts.append(f"checkpoint file sync: PostgreSQL {ckpt['pg_us']:.0f} us, diskio "
                     f"{ckpt['metric'].rsplit('.', 1)[0]} {ckpt['diskio_us']:.0f} us "
                     f"({fmt_factor(ckpt['ratio'])}x)")
    text = (f"calibration {env.name}: " + "; ".join(parts)) if parts else None
    factors = [f"{fmt_factor(c['ratio'])}x" for c in shown if c["ratio"]]
    if ckpt:
        factors.append(f"checkpoint {fmt_factor(ckpt['ratio'])}x")
    return {"wal": wal, "checkpoint": ckpt, "text": text,
            "short": f"{env.name} " + ", ".join(factors) if factors else None,
            # the WAL phases the summary's calibration table shows
            "summary_phases": [c["phase"] for c in shown]}
