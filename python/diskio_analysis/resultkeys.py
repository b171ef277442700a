# SPDX-License-Identifier: MIT
"""The result schema's names and how a field of result.py's objects is
read from its key (the field's metadata).

The schema's name and the versions read, the latency parts, the
percentiles and their keys' rule (percentile_key(), the C library's
pct_name()), the values some keys may take; and key(), count_key(),
key_list(), own() and derived(), the fields of every dataclass of the
schema's objects (resultenv.py, resultfigures.py, resultinterference.py,
resultlatency.py, resultrun.py): key(), count_key() and key_list() as
resulttypes.py makes them from the schema, own() and derived() as the
classes declare them; for the one generic reader (resultread.py) and
tests/python/test_result_schema.py.
"""

import dataclasses
import math
import re
from dataclasses import field
from typing import Any, Callable, Optional, Tuple

RESULT_SCHEMA = "diskio-result"
SUPPORTED_RESULT_VERSIONS = (1, 2)
RESULT_TODO = ("the file does not follow the diskio result schema "
               "(doc/result-schema.md); regenerate it with diskio")

# The latency parts of a run, in file order.
PARTS = ("total", "write", "sync", "service", "switch")
# The percentiles every HIST and SUMMARY holds (src/lib/result.c's
# summary_pcts), and the pattern of every percentile's key.
SUMMARY_PERCENTILES = (50.0, 90.0, 99.0, 99.9, 99.99)
PERCENTILE_KEY = re.compile(r"^p[0-9]+(_[0-9]+)?$")
# what parameters.direction may be (absent before the read modes: "write")
DIRECTIONS = ("write", "read")
# what decided whether an O_DIRECT run was direct (direct.source)
DIRECT_SOURCES = ("statx", "device")
# INTERFERENCE's waits_for: what the mode's ops wait for, which says what
# disturbs them (doc/verdicts.md)
WAITS_FOR = ("cpu", "device")
# The most repetitions a run has: diskio --repeat's limit (CLI_REPEAT_MAX,
# src/cli/cli_options.h; test_result.py holds the two together).  More
# is no measurement diskio made.
MAX_REPETITIONS = 1000


def percentile_key(pct: float, sep: str = "_") -> str:
    """A percentile's key, by the rule of the C library's pct_name(): "p"
    and the percentile in at most ten significant digits ("%.10g"), never
    an exponent, its decimal point as sep: 99.9 -> "p99_9", 1e-05 ->
    "p0_00001"; sep "." gives the table's "p99.9"."""
    text = "p%.10g" % pct
    if "e" in text and pct > 0:
        decimals = 9 - math.floor(math.log10(pct))
        text = "p%.*f" % (min(decimals, 40), pct)
        text = text.rstrip("0") if "." in text else text
        text = text.rstrip(".")
    return text.replace(".", sep)


# The keys of the summary's percentiles: p50, p90, p99, p99_9, p99_99.
PERCENTILES = tuple(percentile_key(p) for p in SUMMARY_PERCENTILES)


# ---- how a field is read: its metadata ----

def key(default: Any = None, *, required: bool = False,
        minimum: Optional[float] = None, nonempty: bool = False,
        choices: Tuple[str, ...] = (), most: Optional[Tuple[int, str]] = None) -> Any:
    """A field read from the JSON key of its name: required (missing or
    null is an error; else the default stands), numbers not below
    minimum, strings nonempty or one of choices, lists of at most
    most[0] items (most[1] says whose limit that is)."""
    meta = {"required": required, "minimum": minimum, "nonempty": nonempty,
            "choices": choices, "most": most}
    return field(default=default, metadata=meta)


def count_key(default: Any = None, *, required: bool = False) -> Any:
    """A count (ops, bytes, requests, a histogram's values, errors, ...):
    a field declared int and read as a whole number from 0 up, so that
    2.5, -1 or "3" is refused naming its JSON path (JsonFile.as_count),
    whatever the field."""
    return field(default=default, metadata={"required": required, "count": True})


def key_list(*, required: bool = False,
             factory: Callable[[], Any] = list) -> Any:
    """A list (factory dict: a name -> value object), empty when absent."""
    return field(default_factory=factory, metadata={"required": required})


def own(json: Optional[str] = None, factory: Optional[Callable[[], Any]] = None,
        shown: bool = True, **meta: Any) -> Any:
    """A field its class reads itself (_read_rest), from json (a key, or
    a dotted path: device.total), with meta for the schema test: keys
    (the fixed keys of a name -> value object), pattern (the pattern of
    its keys) or index (an index into runs[], read as the Run)."""
    info = {"json": json, "own": True, **meta}
    if factory is not None:
        return field(default_factory=factory, metadata=info, repr=shown)
    return field(default=None, metadata=info, repr=shown)


def derived(default: Any = None, shown: bool = True) -> Any:
    """A field that is not a key of the file: the JSON path an object was
    read at, a value worked out from others, the file it came from."""
    return field(default=default, metadata={"derived": True}, repr=shown,
                 compare=shown)


def json_key(f: "dataclasses.Field[Any]") -> str:
    """The JSON key (or dotted path) of a field."""
    return f.metadata.get("json") or f.name
