# SPDX-License-Identifier: MIT
"""Where the commands write, written once for all of them: an output
directory is created with its parents when missing (as mkdir -p does;
diskio-correlate, diskio-compare, diskio-plot and diskio-pgphases all
do it this way), and an output file is written whole or not at all,
never over an existing file unless told to.  A failure names the path
the user gave, never a temporary name."""

import os
import tempfile

from .errors import ToolError


class OutputError(ToolError):
    """An output that cannot be written: its path, what, what to do."""

    def __init__(self, path, what, todo, status=None):
        super().__init__(f"{path}: {what}; {todo}", status)
        self.path = path


def _reason(err):
    return err.strerror or str(err)


def make_output_dir(path, option, status=None, todo=None):
    """path as a directory, created with its missing parents (mode 0777
    less the umask).  option names the command-line option, todo what to
    do when something else is in the way, for the message."""
    todo = todo or f"give {option} a directory"
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        raise OutputError(path, "exists and is not a directory", todo, status)
    except OSError as err:
        raise OutputError(path, f"cannot create the directory: "
                          f"{_reason(err)}", f"check {option} and the "
                          "permissions of its parent", status)
    if not os.path.isdir(path):
        raise OutputError(path, "is not a directory", todo, status)
    return path


def name_exclusively(temp, path, text):
    """Give temp the name path unless path exists: link() refuses an
    existing name where rename() would replace it.  A filesystem without
    hard links gets an O_EXCL copy instead, removed if it cannot be
    finished."""
    try:
        os.link(temp, path)
        return
    except FileExistsError:
        raise
    except OSError:
        pass
    with open(path, "x", encoding="utf-8", errors="surrogateescape") as out:
        try:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        except OSError:
            os.unlink(path)
            raise


def write_output_file(path, text, option="--output", force=False,
                      status=None):
    """text into path: its directory created if need be; written under a
    temporary name beside it and then given its name, so that path holds
    the whole text or is left as it was.  Without force an existing path
    (a symlink too) is refused, before and at the moment of naming."""
    directory = os.path.dirname(path) or "."
    make_output_dir(directory, option, status,
                    f"give {option} a file name in a directory")
    if os.path.lexists(path) and not force:
        raise OutputError(path, "exists", f"remove it, choose another "
                          f"{option} or pass --force", status)
    if os.path.isdir(path):
        raise OutputError(path, "is a directory", f"give {option} a file "
                          "name", status)
    handle, temp = None, None
    try:
        handle, temp = tempfile.mkstemp(
            dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8",
                       errors="surrogateescape") as out:
            handle = None
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if force:
            os.replace(temp, path)
        else:
            name_exclusively(temp, path, text)
    except FileExistsError:
        raise OutputError(path, "appeared while it was written; left as it "
                          "is", f"remove it, choose another {option} or pass "
                          "--force", status)
    except OSError as err:
        raise OutputError(path, f"cannot write: {_reason(err)}",
                          "check the directory's permissions and free space",
                          status)
    finally:
        if handle is not None:
            os.close(handle)
        if temp is not None and os.path.lexists(temp):
            os.unlink(temp)
    return path
