# SPDX-License-Identifier: MIT
"""Typed reads from a parsed JSON file, written once for every reader.

read_json() turns every way a file can fail to parse into an InputError
(naming the line where it can); JsonFile's accessors check one value each
and name the file and the JSON path of a value that is missing, of the
wrong type, not finite or out of range, so that no reader ever stops with
a KeyError or a TypeError on a malformed file.
"""

import json
import math
import re
import sys
from typing import (Any, Callable, Dict, List, NoReturn, Optional, Sequence,
                    Tuple, Union)

from . import __version__ as VERSION
from .errors import InputError
from .textfile import MAX_STRING_CHARS, read_text
from .textsafe import clipped

# Counts, sizes, times and option values beyond this are corrupt, not
# measured.
MAX_JSON_INT = 2 ** 63 - 1

MISSING: Any = object()     # a key absent from a JSON object


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
    return "a list" if isinstance(value, list) else "an object"


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

    def _typed(self, value: Any, where: str, optional: bool, kind: type,
               expected: str) -> Any:
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
        return self._typed(value, where, optional, list, "a list")

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


def parse_json(path: str, text: str) -> Any:
    """The document of a JSON text (named path in a message); InputError
    when it is not JSON, nests deeper than Python's recursion limit
    (about 1000 levels: a result nests 6) or holds a number out of
    range."""
    try:
        return json.loads(text)
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


def read_json(path: str, preamble_ok: Optional[Callable[[Any], bool]] = None,
              notes: Optional[List[str]] = None) -> Tuple[str, Any]:
    """(text, parsed document) of a JSON file; InputError when it cannot
    be read or parsed.

    preamble_ok: a test of the parsed document under which lines before
    the JSON are allowed (fio prints "note: ..." lines to the same output
    as its JSON); such lines are named in notes.  Every other document must
    be JSON from its first line."""
    text = read_text(path)
    try:
        return text, parse_json(path, text)
    except InputError as err:
        first_error = err
    preamble, rest = split_preamble(text)
    if preamble_ok is None or not preamble:
        raise first_error
    try:
        doc = parse_json(path, rest)
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
