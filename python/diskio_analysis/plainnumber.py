# SPDX-License-Identifier: MIT
"""The one grammar of a number written as text in any file, reply or
option the analysis commands read: ASCII digits, an optional sign, a
decimal point and an exponent.  Python's int() and float() take more
(1_000, full-width and other Unicode digits, surrounding Unicode
spaces, "nan", "infinity"), none of which a program writes for a
number: a reader that took them would read a cell another tool reads
differently, or not at all."""

import re
from typing import Optional, Union

# A number is never longer than this: a cell of thousands of digits is
# not a measurement, and int() of more than 4300 digits raises.
MAX_NUMBER_CHARS = 100

_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
                      r"(?:[eE][+-]?[0-9]+)?", re.ASCII)


def plain_number(text: str, integer: bool = False) \
        -> Optional[Union[int, float]]:
    """The number text spells (an int for an integer, a float for one with
    a point or an exponent), or None when it is not a plain number; with
    integer=True only an integer is taken.  A float beyond the range of
    a double comes back infinite: the caller's bounds refuse it."""
    if not isinstance(text, str) or len(text) > MAX_NUMBER_CHARS:
        return None
    if _INTEGER.fullmatch(text):
        return int(text)
    if integer or not _DECIMAL.fullmatch(text):
        return None
    return float(text)
