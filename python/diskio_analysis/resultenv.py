# SPDX-License-Identifier: MIT
"""The environment of a result (its "environment" object): the machine,
its clock and the target with the devices under it; and the tool that
wrote the file.  Each class is the schema's object its schema_object()
names, with a field for each of its keys (resulttypes.py); a value the
probe could not read is None, as is a key files of earlier releases
lack (schema 1: timer.clocksource, target.device.fua, target.ext4,
target.loop, target.overlay, target.devices; cpu.idle_driver,
machine_id and boot_id in files before them)."""

from ._result_keys import (CpuKeys, EnvDeviceKeys, EnvironmentKeys, Ext4Keys, KernelKeys, LoopKeys,
                           OverlayKeys, TargetDeviceKeys, TargetKeys, TimerKeys, ToolKeys)
from .resulttypes import read, schema_object


@schema_object("tool")
class Tool(ToolKeys):
    """The program that wrote the file."""
    version = read(nonempty=False)              # "" read as it stands


@schema_object("environment.kernel")
class Kernel(KernelKeys):
    """uname(2)."""


@schema_object("environment.cpu")
class Cpu(CpuKeys):
    """The processor."""
    cores = read(count=True)


@schema_object("environment.timer")
class Timer(TimerKeys):
    """The clock every latency is read from."""


@schema_object("target_device")
class TargetDevice(TargetDeviceKeys):
    """The block device under the target's filesystem."""


@schema_object("ext4")
class Ext4(Ext4Keys):
    """An ext4 filesystem's journal."""


@schema_object("loop")
class Loop(LoopKeys):
    """A loop device's backing file and where it lives."""


@schema_object("overlay")
class Overlay(OverlayKeys):
    """An overlayfs's upper layer."""


@schema_object("env_device")
class EnvDevice(EnvDeviceKeys):
    """A DEVICE: one block device under the target."""
    name = read("", required=True, nonempty=True)
    write_cache = read(choices=())              # any text the kernel gives


@schema_object("target")
class Target(TargetKeys):
    """The target directory (or block device) and what it sits on."""


@schema_object("environment")
class Environment(EnvironmentKeys):
    """The environment probe: the machine and the target; None where a
    value could not be read."""
