# SPDX-License-Identifier: MIT
"""What else the machine did while a run (or a repetition) measured, and
why it was judged disturbed (doc/verdicts.md)."""

from dataclasses import dataclass
from typing import List, Optional

from .jsonfile import JsonFile, json_path
from .resultkeys import WAITS_FOR, count_key, derived, key, key_list


@dataclass(slots=True)
class InterferenceCpu:
    """The machine's CPU time over the window: other_s, other_cpus and
    steal_share None over a window shorter than resolution_s (what
    /proc/stat's counters resolve over all CPUs; None in files written
    before it)."""
    own_s: Optional[float] = key()
    other_s: Optional[float] = key()
    other_cpus: Optional[float] = key()
    steal_share: Optional[float] = key()
    resolution_s: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class ThreadFigures:
    """The measuring threads' own scheduling (one per job), summed over
    them: their wall, CPU and run-delay time (runnable, waiting for a
    CPU), and the shares of the wall time they waited for a CPU and were
    blocked (neither running nor waiting for a CPU; None for a paced
    run)."""
    threads: Optional[int] = count_key()
    wall_s: Optional[float] = key(minimum=0)
    cpu_s: Optional[float] = key(minimum=0)
    run_delay_s: Optional[float] = key(minimum=0)
    run_delay_share: Optional[float] = key(minimum=0)
    blocked_share: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class RunQueue:
    before: Optional[int] = count_key()
    after: Optional[int] = count_key()


@dataclass(slots=True)
class Pressure:
    cpu_some: Optional[float] = key()
    cpu_full: Optional[float] = key()
    io_some: Optional[float] = key()
    io_full: Optional[float] = key()
    memory_some: Optional[float] = key()
    memory_full: Optional[float] = key()


@dataclass(slots=True)
class MemoryFigures:
    dirty_kib_before: Optional[int] = key(minimum=0)
    writeback_kib_before: Optional[int] = key(minimum=0)
    dirty_kib_after: Optional[int] = key(minimum=0)
    writeback_kib_after: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class InterferenceDevice:
    name: str = key("", required=True, nonempty=True)
    depth: Optional[int] = key(minimum=0)
    bytes: Optional[int] = count_key()
    foreign_bytes: Optional[int] = count_key()
    foreign_share: Optional[float] = key(minimum=0)


@dataclass(slots=True)
class Interference:
    """What else the machine did while a run's (or a repetition's)
    measured ops ran (doc/verdicts.md); None where unreadable."""
    start_time: Optional[str] = key()
    wall_s: Optional[float] = key(minimum=0)
    cpus: Optional[int] = count_key()
    # "cpu" or "device" (None in files written before it, where every
    # mode was judged as the device's)
    waits_for: Optional[str] = key(choices=WAITS_FOR)
    cpu: Optional[InterferenceCpu] = key()
    thread: Optional[ThreadFigures] = key()
    run_queue: Optional[RunQueue] = key()
    pressure: Optional[Pressure] = key()
    memory: Optional[MemoryFigures] = key()
    devices: List[InterferenceDevice] = key_list()

    @property
    def other_cpu_share(self) -> Optional[float]:
        """Others' busy CPUs over the machine's CPUs (0..1), or None where
        the file does not say."""
        if self.cpu is None or not self.cpus or self.cpu.other_cpus is None:
            return None
        return min(1.0, max(0.0, self.cpu.other_cpus / self.cpus))


@dataclass(slots=True)
class Disturbance:
    """One reason a run or repetition was disturbed: its kind
    ("other_cpu", "run_delay", "steal", "cpu_pressure", "memory_pressure",
    "dirty", "device_io", "writeback"), the figure measured against the
    threshold (in unit), the device (device_io, writeback) and the
    sentence diskio wrote."""
    where: str = derived("")
    reason: str = key("", required=True, nonempty=True)
    message: str = key("", required=True, nonempty=True)
    figure: Optional[float] = key()
    threshold: Optional[float] = key()
    unit: Optional[str] = key()
    device: Optional[str] = key()
    repetition: Optional[int] = key(minimum=1)  # a run's list: which one


def check_disturbed(src: JsonFile, where: str, disturbed: Optional[bool],
                    disturbances: List[Disturbance]) -> None:
    if disturbances and not disturbed:
        src.fail(json_path(where, "disturbed"),
                 "false, but disturbances lists reasons")


def other_cpu_share(measured) -> Optional[float]:
    """A run's or repetition's other CPUs' share of the machine while it
    ran (Interference.other_cpu_share), None where the file does not say."""
    return None if measured.interference is None else measured.interference.other_cpu_share
