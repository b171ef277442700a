# SPDX-License-Identifier: MIT
"""Helpers shared by the unit tests: a small Environment built in code."""

from diskio_analysis.correlate.environment import Environment
from diskio_analysis.inputs import PgSettings


def make_env(name, phases, metrics, wal=None, settings=None):
    """An Environment named name with phases {phase: s}, metrics
    {name: value, or [values] for repetitions}, wal {phase: {column:
    value}} and settings (keyword arguments of PgSettings, or None)."""
    env = Environment(directory=f"/envs/{name}", name=name)
    for line, (phase, seconds) in enumerate(phases.items(), 1):
        env.add_phase("phases.csv", line, phase, seconds)
    env.phase_files.append("phases.csv")
    for metric, value in metrics.items():
        values = value if isinstance(value, list) else [value]
        for sample in values:
            env.add_metric(metric, sample, "metrics.csv", repeat_of="test")
    for line, (phase, row) in enumerate((wal or {}).items(), 2):
        env.wal[phase] = dict(row, _line=line)
    env.wal_file = "wal.csv" if wal else None
    if settings is not None:
        env.settings = PgSettings(path=f"/envs/{name}/settings.json",
                                  **dict({"wal_sync_method": "fdatasync"},
                                         **settings))
    return env


def wal_runs(env, runs, device_us=None):
    """Give env --pattern wal and checkpoint runs: (pattern, mode, jobs,
    gap_ns, {metric part: us}), the device's time per request under each
    device_us ({"write": us, "flush": us}; unknown by default)."""
    for pattern, mode, jobs, gap_ns, parts in runs:
        prefix = f"{mode}@{pattern}" + (f"-jobs{jobs}" if jobs > 1 else "") + \
            (f"-gap{gap_ns // 1000}us" if gap_ns else "")
        env.pattern_runs.append({"prefix": prefix, "pattern": pattern, "mode": mode,
                                 "jobs": jobs, "gap_ns": gap_ns, "wal_bytes": 174,
                                 "syncs_per_commit": 1.0, "source": "r.json",
                                 "device_us": device_us or {"write": None, "flush": None}})
        for part, us in parts.items():
            env.add_metric(f"{prefix}.{part}", us, "r.json", repeat_of="test")
    return env
