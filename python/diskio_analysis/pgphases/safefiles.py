# SPDX-License-Identifier: MIT
"""Files the runner reads where another user could have put something
else: run as root, diskio-pgphases reads only files that are what they
should be.  open_owned() opens a name without following a symlink
planted there, without blocking on a FIFO, and keeps the file only if it
is a regular file with one name, owned by the user who should have made
it; whatever that user owns, that user can read anyway, so a file that
passes reveals nothing, and root's own files never pass."""

import errno
import os
import stat


class NotOwned(OSError):
    """A name that is not the regular, singly linked file of the
    expected owner: a symlink, a hard link, a FIFO, a device or another
    user's file.  Never read."""


def open_owned(path, uid):
    """A descriptor of path, opened read-only, or OSError: ENOENT when
    there is nothing at path, NotOwned when what is there is not a
    regular file with one link owned by uid (a symlink counts, dangling
    or not)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                     | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise NotOwned(errno.ELOOP, "a symlink: not followed", path)
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = "not a regular file"
        elif st.st_nlink != 1:
            what = "a file with %d hard links: not read" % st.st_nlink
        elif st.st_uid != uid:
            what = "owned by uid %d, not %d: not read" % (st.st_uid, uid)
        else:
            what = None
        if what:
            raise NotOwned(errno.EPERM, what, path)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_owned(path, uid, limit):
    """The first limit bytes of path, opened by open_owned()."""
    fd = open_owned(path, uid)
    with os.fdopen(fd, "rb") as f:
        return f.read(limit)
