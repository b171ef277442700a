# SPDX-License-Identifier: MIT
"""Typed reads from a parsed JSON file, written once for every reader.

read_json() turns every way a file can fail to parse into an InputError
(naming the line where it can); JsonFile's accessors check one value each
and name the file and the JSON path of a value that is missing, of the
wrong type, not finite or out of range, so that no reader ever stops with
a KeyError or a TypeError on a malformed file.

parse_json() is the one JSON parser of every command.  It refuses a key
given twice in one object (json.loads would keep the last and drop the
other without a word: a file that says two things), a document larger
than MAX_JSON_BYTES or so dense in values that its Python objects could
outgrow MAX_PARSED_BYTES, and keeps each "buckets" list of [low, high,
count] integers as compact Triples, so that the largest result these
tools read is read within a bounded memory (doc/threat-model.md, 39).
"""

import json
import math
import re
import sys
from array import array
from collections.abc import Sequence as SequenceABC
from itertools import chain
from typing import (Any, Callable, Dict, Iterator, List, NoReturn, Optional,
                    Sequence, Tuple, Union, overload)

from . import __version__ as VERSION
from .errors import InputError
from .textfile import MAX_STRING_CHARS, read_text
from .textsafe import clipped

# Counts, sizes, times and option values beyond this are corrupt, not
# measured.
MAX_JSON_INT = 2 ** 63 - 1

# What a JSON document's values may take once parsed, by the estimate
# below: with the text itself, the objects a result is read into and
# Python, a comparison within 1 GiB (tests/fuzz/analysis-input-memory.py
# measures it for the costliest JSON per byte there is).
MAX_PARSED_BYTES = 768 << 20
# At most what reading makes of each character that opens or separates a
# value (bytes, CPython 3.11 on 64 bits, measured): a list, or an object
# with the typed object a reader makes of it (result.py's), with their
# first items; half a string (each has two quotes); each further item; a
# key and its value, with the dict's room for them.  Counted in the text
# before it is parsed, strings included: an over-estimate, the closest
# for a list of one number each (0.9 of it), twice the truth for a list
# of empty lists (30 MB of which would take 640 MB).
VALUE_COST = (("[", 96), ("{", 416), ('"', 32), (",", 48), (":", 112))
# The largest JSON document read.  The densest diskio result by that
# estimate, runs of a thousand repetitions, is 17 bytes of values a byte
# (an interval series 14, full histograms 10), so that no result of this
# size is refused as too dense.  A diskio result of 40 MiB is a series of
# 170,000 intervals (47 hours at 1 s, 28 minutes at 10 ms) or thousands
# of runs with full histograms.
MAX_JSON_BYTES = 40 << 20
# The keys whose value, a list of [integer, integer, integer], is kept as
# compact Triples: a HIST's buckets, the bulk of a large diskio result.
TRIPLES_KEYS = ("buckets",)

MISSING: Any = object()     # a key absent from a JSON object
# what a count must be, for a message
COUNT = "a count (a whole number, 0 or more)"


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)


def json_path(where: str, key: Union[int, str]) -> str:
    """JSON path of key below where: runs[2].parameters.pattern,
    jobs[0]["job options"], percentile["99.000000"]."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    if _IDENTIFIER.fullmatch(key):
        return f"{where}.{key}" if where else key
    return f"{where}[{json.dumps(key, ensure_ascii=False)}]"


def json_short(value: Any) -> str:
    """A JSON value for a message, cut short when long."""
    text = str(value)
    if len(text) <= 40:
        return text
    return f"{text[:20]}... ({len(text)} characters)"


def json_value_text(value: Any) -> str:
    """A JSON value for a message, as the file spells it: null, true, 3,
    "text" (a long one cut short); the kind of a list or an object;
    'missing' for an absent key."""
    if value is MISSING:
        return "missing"
    if isinstance(value, str):
        return f'"{clipped(value, 40)}"'
    if value is None or isinstance(value, (bool, int, float)):
        return clipped(json.dumps(value), 40)
    return json_kind(value)


def json_kind(value: Any) -> str:
    """What a JSON value is, for a message: 'a string', 'null', ..."""
    if value is MISSING:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, (list, Triples)) else "an object"


class Triples(SequenceABC):
    """A JSON list of [integer, integer, integer] (each within int64),
    kept as one array of 24 bytes an item where json.loads' lists and
    integers take 150: reads as a sequence of (a, b, c) tuples."""

    __slots__ = ("flat",)

    def __init__(self, flat: "array[int]") -> None:
        self.flat = flat

    @classmethod
    def of(cls, items: List[Any]) -> Optional["Triples"]:
        """The Triples of a parsed list, or None when an item is not a
        list of three integers within int64 (booleans are not integers
        here): a reader then finds the item at fault in the list."""
        if set(map(type, items)) - {list} or set(map(len, items)) - {3} or \
                set(map(type, chain.from_iterable(items))) - {int}:
            return None
        try:
            return cls(array("q", chain.from_iterable(items)))
        except OverflowError:
            return None

    def __len__(self) -> int:
        return len(self.flat) // 3

    @overload
    def __getitem__(self, index: int) -> Tuple[int, int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> List[Tuple[int, int, int]]: ...

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("Triples index out of range")
        a, b, c = self.flat[3 * index:3 * index + 3]
        return (a, b, c)

    def __iter__(self) -> Iterator[Tuple[int, int, int]]:
        values = iter(self.flat)
        return zip(values, values, values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Triples):
            return self.flat == other.flat
        if isinstance(other, list):
            return list(self) == [tuple(item) for item in other]
        return NotImplemented

    def __repr__(self) -> str:
        return f"Triples({list(self)!r})"


def json_key_line(text: str, key: str) -> Optional[int]:
    """Line of the first occurrence of "key" in a JSON text, or None."""
    pos = text.find(f'"{key}"')
    return None if pos < 0 else text.count("\n", 0, pos) + 1


class JsonFile:
    """Typed reads from one parsed JSON file.  as_*(value, where) check a
    value found at JSON path where; get_*(node, where, key) read key of the
    object node found at where.  A wrong type, a missing key, a non-finite
    or out-of-range number raises InputError naming the file and the JSON
    path; optional=True lets a missing key or null through as None."""

    def __init__(self, path: str, todo: str) -> None:
        self.path, self.todo = path, todo

    def fail(self, where: str, what: str) -> NoReturn:
        raise InputError(self.path, None, f"{where}: {what}", self.todo)

    def _absent(self, value: Any, where: str, optional: bool,
                expected: str) -> bool:
        if value is MISSING or value is None:
            if optional:
                return True
            self.fail(where, f"{json_kind(value)}, expected {expected}")
        return False

    def _wrong(self, value: Any, where: str, optional: bool,
               expected: str) -> NoReturn:
        self.fail(where, f"{json_kind(value)}, expected {expected}"
                         + (" or null" if optional else ""))

    def _typed(self, value: Any, where: str, optional: bool,
               kind: Union[type, Tuple[type, ...]], expected: str) -> Any:
        """value if it is a kind, None if absent and optional."""
        if self._absent(value, where, optional, expected):
            return None
        if not isinstance(value, kind):
            self._wrong(value, where, optional, expected)
        return value

    def as_object(self, value: Any, where: str,
                  optional: bool = False) -> Any:
        return self._typed(value, where, optional, dict, "an object")

    def as_list(self, value: Any, where: str,
                optional: bool = False) -> Any:
        return self._typed(value, where, optional, (list, Triples), "a list")

    def as_string(self, value: Any, where: str, optional: bool = False,
                  nonempty: bool = False) -> Any:
        """A string of at most MAX_STRING_CHARS characters, valid
        Unicode."""
        value = self._typed(value, where, optional, str, "a string")
        if nonempty and value == "":
            self.fail(where, "empty string, expected a name")
        if value is not None and len(value) > MAX_STRING_CHARS:
            self.fail(where, f"a string of {len(value)} characters, longer "
                      f"than the {MAX_STRING_CHARS} any name or message "
                      "these tools read may be")
        if value is not None and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                # json.loads accepts "\ud800"; nothing can print it later
                self.fail(where, f"{json.dumps(value)[:40]} is not valid "
                          "Unicode (a lone surrogate escape)")
        return value

    def as_number(self, value: Any, where: str, optional: bool = False,
                  minimum: Optional[float] = None) -> Any:
        """A finite number (bool rejected); ints come back as they are."""
        if self._absent(value, where, optional, "a number"):
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self._wrong(value, where, optional, "a number")
        try:
            number = float(value)
        except OverflowError:
            self.fail(where, "number too large")
        if not math.isfinite(number):
            self.fail(where, f"{number!r} is not a finite number")
        if minimum is not None and number < minimum:
            self.fail(where, f"{number:g} is below {minimum:g}")
        return value

    def as_int(self, value: Any, where: str, optional: bool = False,
               minimum: Optional[float] = None) -> Any:
        """An integer in [minimum, MAX_JSON_INT] (bool rejected)."""
        if self._absent(value, where, optional, "an integer"):
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float):
                self.fail(where, f"{value!r}, expected an integer")
            self._wrong(value, where, optional, "an integer")
        if value > MAX_JSON_INT:
            self.fail(where, "integer too large")
        if minimum is not None and value < minimum:
            self.fail(where, f"{json_short(value)} is below {minimum}")
        return value

    def as_count(self, value: Any, where: str, optional: bool = False) -> Any:
        """A count (of ops, bytes, requests, values): an integer from 0
        to MAX_JSON_INT; 2.5, -1, "3" or true is refused, said as the
        file spells it."""
        if self._absent(value, where, optional, COUNT):
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            self.fail(where, f"{json_value_text(value)}, expected {COUNT}"
                             + (" or null" if optional else ""))
        if value > MAX_JSON_INT:
            self.fail(where, "integer too large")
        return value

    def get_object(self, node: Dict[str, Any], where: str, key: str,
                   **kw: Any) -> Any:
        return self.as_object(node.get(key, MISSING), json_path(where, key),
                              **kw)

    def get_list(self, node: Dict[str, Any], where: str, key: str,
                 **kw: Any) -> Any:
        return self.as_list(node.get(key, MISSING), json_path(where, key),
                            **kw)

    def get_string(self, node: Dict[str, Any], where: str, key: str,
                   **kw: Any) -> Any:
        return self.as_string(node.get(key, MISSING), json_path(where, key),
                              **kw)

    def get_number(self, node: Dict[str, Any], where: str, key: str,
                   **kw: Any) -> Any:
        return self.as_number(node.get(key, MISSING), json_path(where, key),
                              **kw)

    def get_int(self, node: Dict[str, Any], where: str, key: str,
                **kw: Any) -> Any:
        return self.as_int(node.get(key, MISSING), json_path(where, key),
                           **kw)


def long_digit_run_line(text: str, limit: int) -> Optional[int]:
    """Line of the first run of more than limit digits in text, or None."""
    match = re.search(r"\d{%d,}" % (limit + 1), text)
    return None if match is None else text.count("\n", 0, match.start()) + 1


def split_preamble(text: str) -> Tuple[List[str], str]:
    """(lines before the first line that opens a JSON object, the text with
    those lines blanked, so that line numbers still match the file), or
    ([], text) when the first line opens it."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.lstrip().startswith("{"):
            return lines[:index], "\n" * index + "\n".join(lines[index:])
    return [], text


# Whether a key given twice in the object at a JSON path (as keys and
# indexes from the top) of a document is the way its writer says
# something (fio's option tables), not a contradiction.
RepeatedOk = Callable[[Any, Tuple[Union[int, str], ...]], bool]


def check_json_size(path: str, text: str) -> None:
    """Refuse a JSON text longer than MAX_JSON_BYTES, or whose values
    could take more than MAX_PARSED_BYTES once parsed, before it is."""
    todo = ("check that this is the file you meant: no diskio result, fio "
            "output or report of these tools is so")
    if len(text) > MAX_JSON_BYTES:
        raise InputError(path, None, f"{len(text)} characters of JSON, more "
                         f"than the {MAX_JSON_BYTES >> 20} MiB any JSON input "
                         "of these tools holds", todo + " large")
    estimate = sum(text.count(mark) * cost for mark, cost in VALUE_COST)
    if estimate > MAX_PARSED_BYTES:
        raise InputError(path, None, f"{len(text)} characters of JSON so "
                         f"dense in values that reading them could take "
                         f"{estimate >> 20} MiB of memory, more than the "
                         f"{MAX_PARSED_BYTES >> 20} MiB any input of these "
                         "tools needs", todo + " dense")


def first_repeated(pairs: List[Tuple[str, Any]]) -> str:
    """The first key of pairs that an earlier pair has too."""
    seen = set()
    for name, _ in pairs:
        if name in seen:
            return name
        seen.add(name)
    raise ValueError("no key is repeated")


def object_maker(repeated: Dict[int, Tuple[Dict[str, Any], str]]
                 ) -> Callable[[List[Tuple[str, Any]]], Dict[str, Any]]:
    """json.loads' object_pairs_hook: the dict of an object's pairs, an
    object with a key given twice noted in repeated (by id, with the
    key), a TRIPLES_KEYS list made Triples."""
    def make(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            repeated[id(obj)] = (obj, first_repeated(pairs))
        for name in TRIPLES_KEYS:
            value = obj.get(name)
            if type(value) is list:
                triples = Triples.of(value)
                if triples is not None:
                    obj[name] = triples
        return obj
    return make


def children(node: Any) -> Iterator[Tuple[Union[int, str], Any]]:
    """(key or index, value) of each item of a JSON object or list."""
    return iter(node.items()) if isinstance(node, dict) else enumerate(node)


def check_repeated(path: str, doc: Any,
                   repeated: Dict[int, Tuple[Dict[str, Any], str]],
                   repeated_ok: Optional[RepeatedOk]) -> None:
    """Refuse the first object, in the document's order, with a key given
    twice where repeated_ok does not allow it.  The walk keeps one
    iterator a level, so that its memory is the document's depth."""
    def refuse(keys: Tuple[Union[int, str], ...]) -> None:
        if id(node) not in repeated or (repeated_ok is not None and repeated_ok(doc, keys)):
            return
        where = ""
        for key in keys + (repeated[id(node)][1],):
            where = json_path(where, key)
        raise InputError(path, None, f"{where}: given twice in one object (a JSON "
                         "reader keeps one of the two values and drops the other "
                         "unseen)", "the file says two things there: regenerate "
                         "it, or remove the value that is wrong")
    node = doc
    if not isinstance(doc, (dict, list)):
        return
    refuse(())
    Keys = Tuple[Union[int, str], ...]
    stack: List[Tuple[Iterator[Tuple[Union[int, str], Any]], Keys]] = [(children(doc), ())]
    while stack:
        items, keys = stack[-1]
        for key, node in items:
            if isinstance(node, (dict, list)):
                here = keys + (key,)
                refuse(here)
                stack.append((children(node), here))
                break
        else:
            stack.pop()


def parse_json(path: str, text: str,
               repeated_ok: Optional[RepeatedOk] = None) -> Any:
    """The document of a JSON text (named path in a message); InputError
    when it is not JSON, nests deeper than Python's recursion limit
    (about 1000 levels: a result nests 6), holds a number out of range,
    gives a key twice in one object (unless repeated_ok allows it there)
    or is too large or dense to read (check_json_size)."""
    check_json_size(path, text)
    repeated: Dict[int, Tuple[Dict[str, Any], str]] = {}
    try:
        doc = json.loads(text, object_pairs_hook=object_maker(repeated))
    except json.JSONDecodeError as err:
        raise InputError(path, err.lineno, f"malformed JSON: {err.msg}",
                         "regenerate the file or fix it by hand")
    except RecursionError:
        raise InputError(path, None, "JSON nested too deeply",
                         "regenerate the file")
    except (ValueError, OverflowError) as err:
        # Python refuses integers of more than sys.get_int_max_str_digits()
        # (4300) digits; no measurement needs one.
        limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300
        raise InputError(path, long_digit_run_line(text, limit),
                         f"malformed JSON: number out of range "
                         f"({str(err).split(';')[0]})",
                         "regenerate the file or fix it by hand")
    if repeated:
        check_repeated(path, doc, repeated, repeated_ok)
    return doc


def read_json(path: str, preamble_ok: Optional[Callable[[Any], bool]] = None,
              notes: Optional[List[str]] = None,
              repeated_ok: Optional[RepeatedOk] = None) -> Tuple[str, Any]:
    """(text, parsed document) of a JSON file; InputError when it cannot
    be read or parsed.

    preamble_ok: a test of the parsed document under which lines before
    the JSON are allowed (fio prints "note: ..." lines to the same output
    as its JSON); such lines are named in notes.  Every other document must
    be JSON from its first line.  repeated_ok: as for parse_json."""
    text = read_text(path, limit=MAX_JSON_BYTES, kind="JSON input")
    try:
        return text, parse_json(path, text, repeated_ok)
    except InputError as err:
        first_error = err
    preamble, rest = split_preamble(text)
    if preamble_ok is None or not preamble:
        raise first_error
    try:
        doc = parse_json(path, rest, repeated_ok)
    except InputError:
        raise first_error
    if not preamble_ok(doc):
        raise first_error
    if notes is not None:
        first = preamble[0].strip()
        first = first if len(first) <= 60 else first[:57] + "..."
        notes.append(f"{path}: skipped {len(preamble)} line(s) before the "
                     f"JSON (\"{first}\")")
    return rest, doc


def check_version(path: str, text: str, doc: Dict[str, Any],
                  supported: Sequence[int], what: str) -> None:
    """Reject a document whose schema_version is not one of supported
    (what names the kind of file): a reader that half-understands a file
    is worse than one that refuses it."""
    version = doc.get("schema_version", MISSING)
    if isinstance(version, bool) or not isinstance(version, int) or \
            version not in supported:
        versions = " and ".join(map(str, supported))
        if isinstance(version, int) and not isinstance(version, bool):
            what_is = f"unknown {what} schema_version {version}"
        elif version is MISSING:
            what_is = f"a {what} without a schema_version"
        else:
            what_is = (f"{what} schema_version {json_value_text(version)}, "
                       "expected a whole number")
        raise InputError(path, json_key_line(text, "schema_version"),
                         f"{what_is} (diskio {VERSION} reads schema_version "
                         f"{versions})",
                         "use the analysis tools of the diskio release that "
                         "wrote it")
