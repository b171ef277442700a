# SPDX-License-Identifier: MIT
"""Helpers shared by the unit tests: a small Environment built in code."""

from diskio_analysis.environment import Environment


def make_env(name, phases, metrics, wal=None):
    """An Environment named name with phases {phase: s}, metrics
    {name: value} and wal {phase: {column: value}}."""
    env = Environment(directory=f"/envs/{name}", name=name)
    for line, (phase, seconds) in enumerate(phases.items(), 1):
        env.add_phase("phases.csv", line, phase, seconds)
    env.phase_files.append("phases.csv")
    for metric, value in metrics.items():
        env.add_metric(metric, value, "metrics.csv")
    for line, (phase, row) in enumerate((wal or {}).items(), 2):
        env.wal[phase] = dict(row, _line=line)
    env.wal_file = "wal.csv" if wal else None
    return env
