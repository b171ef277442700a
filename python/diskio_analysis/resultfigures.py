# SPDX-License-Identifier: MIT
"""What a run was asked to do and what it did beside its latencies: the
preconditioning, its parameters, its error, --rate's schedule, each
job's figures, --pattern wal's and checkpoint's counts.  Each class
is the schema's object its schema_object() names, with a field for each
of its keys (resulttypes.py)."""

from ._result_keys import (BacklogKeys, CheckpointKeys, JobErrorKeys, JobFiguresKeys,
                           LateStartKeys, ParametersKeys, PreconditionKeys, RateKeys, RunErrorKeys,
                           WalKeys)
from .resultkeys import derived
from .resulttypes import read, schema_object


@schema_object("precondition")
class Precondition(PreconditionKeys):
    """diskio --precondition: what was written before the runs (the range
    bytes, passes times, in writes of block_size; complete, or stopped)."""
    passes = read(2, required=True)
    block_size = read(1, required=True)
    bytes = read(0, required=True, count=True)
    written = read(0, required=True, count=True)
    direct = read(False)
    complete = read(False, required=True)
    duration_ns = read(0, required=True)


@schema_object("parameters")
class Parameters(ParametersKeys):
    """A measured run's parameters.  A custom run (parameters null: a
    program's own operations, timed with libdiskio) has none of diskio's:
    custom is True and the rest None (its own are Run.params).  Files
    written before jobs, --shared-file, the read modes and --write-back
    lack them: read as 1, false, "write" and 0."""
    block_size = read(required=True)
    pattern = read(choices=())                  # the patterns may grow
    # 0 taken, below the schema's minimum of 1, as the reader always has
    count = read(minimum=0)
    iodepth = read(minimum=0)
    sync_every = read(minimum=0)
    jobs = read(1)
    shared_file = read(False)
    direction = read("write")
    cached = read(False)
    verify = read(False)
    write_back = read(0)
    custom: bool = derived(False)


@schema_object("run_error")
class RunError(RunErrorKeys):
    """The error that stopped a run."""
    errno = read(minimum=0)                     # 0 taken, as the reader always has


@schema_object("rate.late_start_ns")
class LateStart(LateStartKeys):
    """With --rate, the ops whose lag is diskio's own lateness."""
    ops = read(count=True)


@schema_object("rate.backlog")
class Backlog(BacklogKeys):
    """With --rate, the ops that waited for the device."""
    ops = read(count=True)


@schema_object("rate")
class Rate(RateKeys):
    """With --rate: how the fixed schedule was kept (older files lack
    the figures from start_lag_p99_ns on: None)."""
    requested_ops_per_s = read(0.0, required=True)
    achieved_ops_per_s = read(0.0, required=True)
    held = read(False, required=True)
    max_start_lag_ns = read(0, required=True)


@schema_object("job_error")
class JobError(JobErrorKeys):
    """Why one job stopped early."""


@schema_object("job")
class JobFigures(JobFiguresKeys):
    """One entry of a run's per_job[]: what one of its concurrent jobs
    (or threads) did.  errors is 1 for a job that stopped at an error of
    its own."""
    where: str = derived("")                    # runs[0].per_job[3]
    job = read(0, required=True)
    ops = read(0, required=True, count=True)
    bytes = read(0, required=True, count=True)
    duration_ns = read(0, required=True)
    mean_ns = read(0.0, required=True)
    p50_ns = read(0, required=True)
    p99_ns = read(0, required=True)
    max_ns = read(0, required=True)
    errors = read(0, count=True)


@schema_object("wal")
class Wal(WalKeys):
    """--pattern wal: what the run did (diskio(1), PATTERNS)."""
    committers = read(count=True)
    commits = read(count=True)
    flushes = read(count=True)
    writes = read(count=True)
    syncs = read(count=True)
    pages = read(count=True)
    page_rewrites = read(count=True)
    segment_switches = read(count=True)
    insert_bytes = read(count=True)


@schema_object("checkpoint")
class Checkpoint(CheckpointKeys):
    """--pattern checkpoint: what the run did; its ops are pages."""
    files = read(count=True)
    checkpoints = read(count=True)
    pages = read(count=True)
    file_syncs = read(count=True)
    writebacks = read(count=True)
