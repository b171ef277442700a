# SPDX-License-Identifier: MIT
"""diskio's modes, as libdiskio's mode table has them.

A mode's facts (durable, a sync call of its own, O_DIRECT, queued, a
read, the PostgreSQL wal_sync_method it is) live in one place, the
library's mode table (src/lib/modes.c).  _modes.py is made from it when
diskio is built (python/make-modes, through the library's
diskio_mode_*() functions); the analysis asks this module rather than
listing modes of its own.  A mode this table lacks (a fio job's
"fio-io_uring", a custom run's name) has none of the facts."""

from typing import Dict, NamedTuple, Optional

from ._modes import MODES as _ROWS


class Mode(NamedTuple):
    name: str
    durable: bool   # every acknowledged write is durable
    syncs: bool     # a sync call follows the writes: a sync part of its own
    direct: bool    # O_DIRECT
    queued: bool    # several ops in flight
    reads: bool     # reads the filled file
    # PostgreSQL's wal_sync_method that writes its WAL this way (with
    # O_DIRECT for a direct mode), or None
    wal_sync_method: Optional[str]


MODES: Dict[str, Mode] = {row[0]: Mode(*row) for row in _ROWS}


def syncs(mode: str) -> bool:
    """Whether mode follows its writes with a sync call (fsync,
    fdatasync): its runs have a sync part, PostgreSQL counts its WAL
    flushes as wal_sync."""
    known = MODES.get(mode)
    return known is not None and known.syncs


def wal_sync_method_modes() -> Dict[str, str]:
    """PostgreSQL's wal_sync_method -> the mode whose writes it makes as
    PostgreSQL opens its WAL by default (without O_DIRECT), in the
    table's order."""
    return {m.wal_sync_method: m.name for m in MODES.values()
            if m.wal_sync_method and not m.direct}
