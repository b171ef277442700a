# SPDX-License-Identifier: MIT
"""What a run was asked to do and what it did beside its latencies: the
preconditioning, its parameters, its error, --rate's schedule, each
job's figures, --pattern wal's and checkpoint's counts."""

from dataclasses import dataclass
from typing import Optional

from .resultkeys import DIRECTIONS, count_key, derived, key


@dataclass(slots=True)
class Precondition:
    """diskio --precondition: what was written before the runs (the range
    bytes, passes times, in writes of block_size; complete, or stopped)."""
    passes: int = key(2, required=True, minimum=1)
    block_size: int = key(1, required=True, minimum=1)
    bytes: int = count_key(0, required=True)
    written: int = count_key(0, required=True)
    direct: bool = key(False)
    complete: bool = key(False, required=True)
    duration_ns: int = key(0, required=True, minimum=0)
    mb_per_s: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class Parameters:
    """A measured run's parameters.  A custom run (parameters null: a
    program's own operations, timed with libdiskio) has none of diskio's:
    custom is True and the rest None (its own are Run.params).  Files
    written before jobs, --shared-file, the read modes and --write-back
    lack them: read as 1, false, "write" and 0."""
    block_size: Optional[int] = key(required=True, minimum=1)
    file_size: Optional[int] = key(minimum=0)
    pattern: Optional[str] = key()
    count: Optional[int] = key(minimum=0)
    runtime_s: Optional[float] = key(minimum=0)
    warmup: Optional[int] = key(minimum=0)
    iodepth: Optional[int] = key(minimum=0)
    batch: Optional[int] = key(minimum=1)
    sync_every: Optional[int] = key(minimum=0)
    rate_ops_per_s: Optional[float] = key(minimum=0)
    jobs: int = key(1, minimum=1)
    shared_file: bool = key(False)
    open_flags: Optional[str] = key()
    direction: str = key("write", choices=DIRECTIONS)
    cached: bool = key(False)
    verify: bool = key(False)
    write_back: int = key(0, minimum=0)
    custom: bool = derived(False)


@dataclass(slots=True)
class RunError:
    """The error that stopped a run."""
    op: Optional[int] = key(minimum=0)
    errno: Optional[int] = key(minimum=0)
    message: Optional[str] = key()
    during: Optional[str] = key()
    job: Optional[int] = key(minimum=0)         # runs of several jobs


@dataclass(slots=True)
class LateStart:
    """With --rate, the ops whose lag is diskio's own lateness."""
    ops: Optional[int] = count_key()
    p50: Optional[int] = key(minimum=0)
    p99: Optional[int] = key(minimum=0)
    max: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class Backlog:
    """With --rate, the ops that waited for the device."""
    ops: Optional[int] = count_key()
    max_lag_ns: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class Rate:
    """With --rate: how the fixed schedule was kept (older files lack
    the figures from start_lag_p99_ns on: None)."""
    requested_ops_per_s: float = key(0.0, required=True, minimum=0)
    achieved_ops_per_s: float = key(0.0, required=True, minimum=0)
    held: bool = key(False, required=True)
    max_start_lag_ns: int = key(0, required=True, minimum=0)
    start_lag_p99_ns: Optional[int] = key(minimum=0)
    late_start_ns: Optional[LateStart] = key()
    backlog: Optional[Backlog] = key()
    spin_margin_ns: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class JobError:
    """Why one job stopped early."""
    message: Optional[str] = key()
    op: Optional[int] = key(minimum=0)
    during: Optional[str] = key()


@dataclass(slots=True)
class JobFigures:
    """One entry of a run's per_job[]: what one of its concurrent jobs
    (or threads) did.  errors is 1 for a job that stopped at an error of
    its own."""
    where: str = derived("")                    # runs[0].per_job[3]
    job: int = key(0, required=True, minimum=0)
    ops: int = count_key(0, required=True)
    bytes: int = count_key(0, required=True)
    duration_ns: int = key(0, required=True, minimum=0)
    mean_ns: float = key(0.0, required=True, minimum=0)
    p50_ns: int = key(0, required=True, minimum=0)
    p99_ns: int = key(0, required=True, minimum=0)
    max_ns: int = key(0, required=True, minimum=0)
    errors: int = count_key(0)
    error: Optional[JobError] = key()


@dataclass(slots=True)
class Wal:
    """--pattern wal: what the run did (diskio(1), PATTERNS)."""
    bytes_per_commit: Optional[int] = key(minimum=0)
    segment_size: Optional[int] = key(minimum=0)
    page_size: Optional[int] = key(minimum=0)
    recycle: Optional[bool] = key()
    committers: Optional[int] = count_key()
    gap_ns: Optional[int] = key(minimum=0)
    commits: Optional[int] = count_key()
    flushes: Optional[int] = count_key()
    writes: Optional[int] = count_key()
    syncs: Optional[int] = count_key()
    pages: Optional[int] = count_key()
    page_rewrites: Optional[int] = count_key()
    segment_switches: Optional[int] = count_key()
    insert_bytes: Optional[int] = count_key()
    syncs_per_commit: Optional[float] = key(minimum=0)
    flushes_per_commit: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class Checkpoint:
    """--pattern checkpoint: what the run did; its ops are pages."""
    files: Optional[int] = count_key()
    pages_per_checkpoint: Optional[int] = key(minimum=0)
    flush_after_pages: Optional[int] = key(minimum=0)
    checkpoints: Optional[int] = count_key()
    pages: Optional[int] = count_key()
    file_syncs: Optional[int] = count_key()
    writebacks: Optional[int] = count_key()
