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
