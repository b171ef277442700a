# SPDX-License-Identifier: MIT
"""Where the commands write, written once for all of them: an output
directory is created with its parents when missing (as mkdir -p does),
reached without following a symbolic link another user could have
planted, and held by its descriptor (outdir.py says how); an output file
is written whole or not at all, never over an existing file unless told
to.  diskio-compare, diskio-correlate, diskio-plot, diskio-pgphases and
diskio-fleet all write this way.  A failure names the path the user
gave, never a temporary name, and says what to do."""

import os
import stat

from .errors import ToolError
from .outdir import OutputDir, UntrustedLink


class OutputError(ToolError):
    """An output that cannot be written: its path, what, what to do."""

    def __init__(self, path, what, todo, status=None):
        super().__init__(f"{path}: {what}; {todo}", status)
        self.path = path


def _reason(err):
    return err.strerror or str(err)


def _untrusted(err, path):
    """What an UntrustedLink met on the way to path was."""
    same = os.path.normpath(err.filename) == os.path.normpath(path)
    where = "" if same else f"{err.filename} is "
    link = (f"; the link's owner uid {err.link_uid}"
            if err.dir_mode & stat.S_ISVTX else "")
    return (f"{where}a symbolic link in a directory another user can write "
            f"(owner uid {err.dir_uid}, mode {err.dir_mode:04o}{link}); "
            "not followed")


def _dir_error(err, path, option, status, todo, own):
    """The OutputError of an OSError met on the way to directory path."""
    if isinstance(err, UntrustedLink):
        return OutputError(path, _untrusted(err, path), own, status)
    if isinstance(err, (NotADirectoryError, FileExistsError)) and \
            os.path.normpath(err.filename or path) == os.path.normpath(path):
        return OutputError(path, "exists and is not a directory", todo,
                           status)
    return OutputError(path, f"cannot create the directory: {_reason(err)}",
                       f"check {option} and the permissions of its parent",
                       status)


def open_output_dir(path, option, status=None, todo=None, create=True,
                    own=None):
    """path as an OutputDir (close it when done), created with its
    missing parents (mode 0777 less the umask) unless create is false:
    then None when it does not exist yet.  option names the command-line
    option, todo what to do when something else is in the way, own what
    to do about a planted link, for the message."""
    todo = todo or f"give {option} a directory"
    own = own or f"give {option} a directory of your own"
    try:
        return OutputDir.open(path, create)
    except FileNotFoundError as err:
        if not create:
            return None
        raise _dir_error(err, path, option, status, todo, own)
    except OSError as err:
        raise _dir_error(err, path, option, status, todo, own)


def open_output_subdir(parent, name, option, status=None, create=True):
    """The directory name inside parent (an OutputDir), as
    open_output_dir() makes one; None when create is false and it does
    not exist."""
    path = parent.name(name)
    try:
        return parent.subdir(name, create)
    except OSError as err:
        raise _dir_error(err, path, option, status,
                         f"give {option} a directory",
                         f"give {option} a directory of your own")


def write_output_in(directory, name, text, option="--output", force=False,
                    status=None):
    """text into the file name of directory (an OutputDir), written as
    OutputDir.write() writes: the whole text or nothing, by descriptor.
    Without force an existing name (a symlink too) is refused, before and
    at the moment of naming; with force the name is replaced, never
    written through.  Returns the file's path."""
    path = directory.name(name)
    if name in ("", ".", ".."):
        raise OutputError(path, "is a directory", f"give {option} a file "
                          "name", status)
    st = directory.lstat(name)
    if st is not None and not force:
        raise OutputError(path, "exists", f"remove it, choose another "
                          f"{option} or pass --force", status)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(path, "is a directory", f"give {option} a file "
                          "name", status)
    try:
        directory.write(name, text, replace=force)
    except FileExistsError:
        raise OutputError(path, "appeared while it was written; left as it "
                          "is", f"remove it, choose another {option} or pass "
                          "--force", status)
    except OSError as err:
        raise OutputError(path, f"cannot write: {_reason(err)}",
                          "check the directory's permissions and free space",
                          status)
    return path


def write_output_file(path, text, option="--output", force=False,
                      status=None):
    """text into path (its directory created if need be, as
    open_output_dir() does), as write_output_in() writes it."""
    parent, name = os.path.split(path)
    with open_output_dir(parent, option, status,
                         f"give {option} a file name in a directory",
                         own=f"give {option} a file in a directory of your "
                         "own") as directory:
        write_output_in(directory, name, text, option, force, status)
    return path
