# SPDX-License-Identifier: MIT
"""The environment of a result (its "environment" object): the machine,
its clock and the target with the devices under it; and the tool that
wrote the file."""

from dataclasses import dataclass
from typing import List, Optional

from .resultkeys import count_key, key, key_list


@dataclass(slots=True)
class Tool:
    """The program that wrote the file."""
    name: Optional[str] = key()
    version: Optional[str] = key()


@dataclass(slots=True)
class Kernel:
    """uname(2)."""
    sysname: Optional[str] = key()
    release: Optional[str] = key()
    version: Optional[str] = key()
    machine: Optional[str] = key()


@dataclass(slots=True)
class Cpu:
    model: Optional[str] = key()
    cores: Optional[int] = count_key()
    idle_driver: Optional[str] = key()      # None also in files before it
    wakeup_ns: Optional[int] = key(minimum=0)


@dataclass(slots=True)
class Timer:
    """The clock every latency is read from."""
    clock: Optional[str] = key()
    resolution_ns: Optional[int] = key(minimum=0)
    overhead_ns: Optional[int] = key(minimum=0)
    clocksource: Optional[str] = key()          # schema 2


@dataclass(slots=True)
class TargetDevice:
    """The block device under the target's filesystem."""
    name: Optional[str] = key()
    partition: Optional[str] = key()
    rotational: Optional[bool] = key()
    scheduler: Optional[str] = key()
    write_cache: Optional[str] = key()
    logical_block_size: Optional[int] = key(minimum=0)
    physical_block_size: Optional[int] = key(minimum=0)
    model: Optional[str] = key()
    fua: Optional[bool] = key()                 # schema 2


@dataclass(slots=True)
class Ext4:
    journal: Optional[bool] = key()
    data_mode: Optional[str] = key()


@dataclass(slots=True)
class Loop:
    backing_file: Optional[str] = key()
    backing_filesystem: Optional[str] = key()
    backing_mount_point: Optional[str] = key()
    backing_device: Optional[str] = key()


@dataclass(slots=True)
class Overlay:
    upperdir: Optional[str] = key()
    upper_filesystem: Optional[str] = key()
    upper_mount_point: Optional[str] = key()


@dataclass(slots=True)
class EnvDevice:
    """A DEVICE: one block device under the target."""
    name: str = key("", required=True, nonempty=True)
    depth: Optional[int] = key(minimum=0)
    leaf: Optional[bool] = key()
    own_io: Optional[bool] = key()
    write_cache: Optional[str] = key()
    fua: Optional[bool] = key()
    rotational: Optional[bool] = key()


@dataclass(slots=True)
class Target:
    directory: Optional[str] = key()
    filesystem: Optional[str] = key()
    mount_point: Optional[str] = key()
    mount_source: Optional[str] = key()
    mount_options: Optional[str] = key()
    super_options: Optional[str] = key()
    device: Optional[TargetDevice] = key()
    ext4: Optional[Ext4] = key()                # schema 2, and the three below
    loop: Optional[Loop] = key()
    overlay: Optional[Overlay] = key()
    devices: List[EnvDevice] = key_list()


@dataclass(slots=True)
class Environment:
    """The environment probe: the machine and the target; None where a
    value could not be read."""
    hostname: Optional[str] = key()
    # which machine and which boot of it (None in files before them)
    machine_id: Optional[str] = key()
    boot_id: Optional[str] = key()
    kernel: Optional[Kernel] = key()
    cpu: Optional[Cpu] = key()
    memory_bytes: Optional[int] = key(minimum=0)
    timer: Optional[Timer] = key()
    target: Optional[Target] = key()
