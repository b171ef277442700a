# SPDX-License-Identifier: MIT
"""What else the machine did while a run (or a repetition) measured, and
why it was judged disturbed (doc/verdicts.md)."""

from typing import List, Optional

from ._result_keys import (DisturbanceKeys, InterferenceCpuKeys, InterferenceDeviceKeys,
                           InterferenceKeys, MemoryFiguresKeys, PressureKeys, RunQueueKeys,
                           ThreadFiguresKeys)
from .jsonfile import JsonFile, json_path
from .resultkeys import derived
from .resulttypes import read, schema_object


@schema_object("interference.cpu")
class InterferenceCpu(InterferenceCpuKeys):
    """The machine's CPU time over the window: other_s, other_cpus and
    steal_share None over a window shorter than resolution_s (what
    /proc/stat's counters resolve over all CPUs; None in files written
    before it)."""
    # read without the schema's minimum, as the reader always has
    other_s = read(minimum=None)
    other_cpus = read(minimum=None)
    steal_share = read(minimum=None)


@schema_object("interference.thread")
class ThreadFigures(ThreadFiguresKeys):
    """The measuring threads' own scheduling (one per job), summed over
    them: their wall, CPU and run-delay time (runnable, waiting for a
    CPU), and the shares of the wall time they waited for a CPU and were
    blocked (neither running nor waiting for a CPU; None for a paced
    run)."""
    threads = read(count=True)


@schema_object("interference.run_queue")
class RunQueue(RunQueueKeys):
    """Other runnable tasks at the window's two readings."""
    before = read(count=True)
    after = read(count=True)


@schema_object("interference.pressure")
class Pressure(PressureKeys):
    """/proc/pressure's figures over the window."""


@schema_object("interference.memory")
class MemoryFigures(MemoryFiguresKeys):
    """Dirty and writeback memory before and after the window."""


@schema_object("interference.devices")
class InterferenceDevice(InterferenceDeviceKeys):
    """What one device under the target did over the window."""
    name = read("", required=True, nonempty=True)
    bytes = read(count=True)
    foreign_bytes = read(count=True)


@schema_object("interference")
class Interference(InterferenceKeys):
    """What else the machine did while a run's (or a repetition's)
    measured ops ran (doc/verdicts.md); None where unreadable."""
    cpus = read(count=True)
    # waits_for: "cpu" or "device" (None in files written before it,
    # where every mode was judged as the device's)

    @property
    def other_cpu_share(self) -> Optional[float]:
        """Others' busy CPUs over the machine's CPUs (0..1), or None where
        the file does not say."""
        if self.cpu is None or not self.cpus or self.cpu.other_cpus is None:
            return None
        return min(1.0, max(0.0, self.cpu.other_cpus / self.cpus))


@schema_object("disturbance")
class Disturbance(DisturbanceKeys):
    """One reason a run or repetition was disturbed: its kind
    ("other_cpu", "run_delay", "steal", "cpu_pressure", "memory_pressure",
    "dirty", "device_io", "writeback"), the figure measured against the
    threshold (in unit), the device (device_io, writeback) and the
    sentence diskio wrote."""
    where: str = derived("")
    reason = read("", required=True, choices=(), nonempty=True)  # may grow
    message = read("", required=True)


def check_disturbed(src: JsonFile, where: str, disturbed: Optional[bool],
                    disturbances: List[Disturbance]) -> None:
    if disturbances and not disturbed:
        src.fail(json_path(where, "disturbed"),
                 "false, but disturbances lists reasons")


def other_cpu_share(measured) -> Optional[float]:
    """A run's or repetition's other CPUs' share of the machine while it
    ran (Interference.other_cpu_share), None where the file does not say."""
    return None if measured.interference is None else measured.interference.other_cpu_share
