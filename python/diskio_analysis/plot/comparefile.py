# SPDX-License-Identifier: MIT
"""The reader of diskio-compare's JSON comparison, for diskio-plot: each
ratio B/A with its interval and verdict, by environment, run and
metric."""

from dataclasses import dataclass, field

from ..jsonfile import JsonFile, check_version, json_path

COMPARE_SCHEMA = "diskio-compare"
SUPPORTED_COMPARE_VERSIONS = (2,)
COMPARE_TODO = "regenerate it with diskio-compare --format json"


def is_comparison(doc):
    """Whether a parsed JSON document claims to be a diskio-compare
    comparison."""
    return isinstance(doc, dict) and doc.get("schema") == COMPARE_SCHEMA


@dataclass
class Ratio:
    """One row of the comparison: environment's metric of run against
    the baseline's."""
    environment: str
    run: str                # the run's label: "fsync 8 KiB"
    metric: str
    higher_is_better: bool
    ratio: float            # B/A
    low: float | None = None  # its 95% interval; None without repetitions
    high: float | None = None
    verdict: str = ""


@dataclass
class NotDirect:
    """A run diskio-compare made no verdict on: on (environments) the
    filesystem buffered its O_DIRECT I/O."""
    environment: str
    run: str                # the run's label: "direct 8 KiB"
    on: list
    note: str


@dataclass
class Comparison:
    """What the charts take from a diskio-compare comparison."""
    path: str
    baseline: str
    min_change: float
    ratios: list = field(default_factory=list)     # Ratio, in file order
    # NotDirect: runs diskio-compare made no verdict on (absent in
    # comparisons written before it)
    not_direct: list = field(default_factory=list)


def load_comparison(path, text, doc):
    """The Comparison of an already parsed diskio-compare JSON document
    (text is its JSON text, for line numbers)."""
    check_version(path, text, doc, SUPPORTED_COMPARE_VERSIONS,
                  "diskio-compare comparison")
    src = JsonFile(path, COMPARE_TODO)
    comparison = Comparison(
        path, src.get_string(doc, "", "baseline"),
        src.get_number(doc, "", "min_change", minimum=0.0))
    for index, row in enumerate(src.get_list(doc, "", "comparisons")):
        where = json_path("comparisons", index)
        row = src.as_object(row, where)
        better = row.get("higher_is_better")
        if not isinstance(better, bool):
            src.fail(json_path(where, "higher_is_better"),
                     "must be true or false")
        interval = src.get_list(row, where, "interval", optional=True)
        low = high = None
        if interval is not None:
            if len(interval) != 2:
                src.fail(json_path(where, "interval"), "must be [low, high]")
            low, high = (src.as_number(v, json_path(
                json_path(where, "interval"), i), minimum=0.0)
                for i, v in enumerate(interval))
        comparison.ratios.append(Ratio(
            src.get_string(row, where, "environment"),
            src.get_string(row, where, "run_label"),
            src.get_string(row, where, "metric"), better,
            src.get_number(row, where, "ratio", minimum=0.0), low, high,
            src.get_string(row, where, "verdict")))
    for index, row in enumerate(src.get_list(doc, "", "not_direct", optional=True) or []):
        where = json_path("not_direct", index)
        row = src.as_object(row, where)
        on = src.get_list(row, where, "on")
        comparison.not_direct.append(NotDirect(
            src.get_string(row, where, "environment"),
            src.get_string(row, where, "run_label"),
            [src.as_string(name, json_path(json_path(where, "on"), i))
             for i, name in enumerate(on)],
            src.get_string(row, where, "note")))
    return comparison
