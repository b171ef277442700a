# SPDX-License-Identifier: MIT
"""Reading an input file whole, written once for every reader: a clear
InputError when it cannot be read, is not UTF-8 text, or is larger than
any input the tools are made for (a file of gigabytes, sparse or not,
would exhaust memory before it could be judged).  A UTF-8 byte order mark
(what Windows editors and Excel put first) is dropped: no reader should
see it as part of the first field or refuse the JSON that follows."""

import os

from .errors import InputError

# A diskio result with a hundred runs and full histograms is tens of MB;
# a DBT-3 kit's q_time.csv is kilobytes.
MAX_INPUT_BYTES = 256 << 20
# A string read from an input (a label, a mode, a phase or metric name, a
# message) longer than this is refused, not cut: a name cut short could
# become another name (two environments or metrics taken for one), and
# a name of 100 MB would be copied into every line, chart and JSON path
# that names it.  diskio --label takes at most 200 characters; a path
# (PATH_MAX 4096 bytes) in an error message fits.
MAX_STRING_CHARS = 8192


def unreadable(err):
    """Why a file could not be read, in words, without Python's repr of
    its name (which str(OSError) gives): the path is named beside it."""
    if isinstance(err, UnicodeDecodeError):
        byte = err.object[err.start]
        return f"not UTF-8 text (it holds the byte 0x{byte:02x})"
    return err.strerror or type(err).__name__


def read_text(path, newline=None, limit=MAX_INPUT_BYTES, kind="input"):
    """The whole of path as str (newline as open() takes it), refused when
    larger than limit bytes (a kind of input may have a lower limit than
    MAX_INPUT_BYTES: JSON, jsonfile.MAX_JSON_BYTES)."""
    try:
        with open(path, newline=newline, encoding="utf-8-sig") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                raise InputError(path, None, f"{size} bytes, more than the "
                                 f"{limit >> 20} MiB any {kind} of these "
                                 "tools holds",
                                 "check that this is the file you meant")
            # read one byte past the limit: a file that grows (or a pipe)
            # is caught as well
            text = handle.read(limit + 1)
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(path, None, f"cannot read: {unreadable(err)}",
                         "check the file exists and is readable UTF-8 text")
    if len(text) > limit:
        raise InputError(path, None, f"more than {limit >> 20} MiB",
                         "check that this is the file you meant")
    return text
