# SPDX-License-Identifier: MIT
"""An output directory held by its descriptor, and the files made in it.

Every file and directory the analysis commands write goes through here
(outputs.py gives the messages).  A directory the user names is resolved
one component at a time, each opened relative to the one before with
O_DIRECTORY|O_NOFOLLOW and created there (mkdirat) when missing, so no
name is looked up twice; everything inside is then made relative to the
directory's descriptor, never through a path: a file is written unnamed
(O_TMPFILE) or under a hidden name of its own (O_CREAT|O_EXCL|O_NOFOLLOW)
and given its name with linkat(), which never replaces a name and never
follows a symbolic link.  Whoever renames or replaces a component later
changes nothing: the writes go to the directory that was checked.

The rule for a symbolic link met on the way (Linux's
fs.protected_symlinks, applied to every component, the link's target
included): it is followed only where no user but the caller and root
can have put it there or can change it, that is when the directory
holding it is owned by the caller or by root and

  * is writable by its owner alone: no group or other write bit (a
    POSIX ACL that lets anyone else write shows as the group write
    bit), or
  * is sticky (as /tmp is) and the link is owned by the caller.

Any other link is refused (UntrustedLink), never followed: root told to
write in /srv/u/out, which user u made a link to a root-only directory,
writes nothing there.  At most MAX_LINKS links are followed in one path.

A directory that is not a link is entered whoever owns it: inside it,
names are only ever created exclusively and never followed, so a user
who can write there can make a name fail (it exists already) but can
never send a write anywhere else.
"""

import errno
import os
import secrets
import shutil
import stat

MAX_LINKS = 40
# enough for a directory that keeps vanishing as it is made, and for
# random temporary names that are taken
TRIES = 100
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
NEW_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
# what open(O_TMPFILE) says where the filesystem has no unnamed files
NO_UNNAMED = (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL)
# what link() says where the filesystem has no hard links
NO_HARD_LINKS = (errno.EPERM, errno.ENOSYS, errno.EOPNOTSUPP)


class UntrustedLink(OSError):
    """A symbolic link in a directory another user can write: not
    followed.  filename is the link as the path spelled it; dir_uid and
    dir_mode describe its directory, link_uid the link."""

    def __init__(self, where, dir_st, link_st):
        super().__init__(errno.EPERM, "a symbolic link in a directory "
                         "another user can write", where)
        self.dir_uid = dir_st.st_uid
        self.dir_mode = stat.S_IMODE(dir_st.st_mode)
        self.link_uid = link_st.st_uid


def trusted_link(dir_st, link_st, uid):
    """Whether uid may follow a link (link_st, from lstat) found in a
    directory (dir_st): the rule of the module's description."""
    if dir_st.st_uid not in (uid, 0):
        return False
    if not dir_st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return True
    return bool(dir_st.st_mode & stat.S_ISVTX) and link_st.st_uid == uid


def components(path):
    return [c for c in path.split("/") if c not in ("", ".")]


def _link_target(dfd, name, where, uid):
    """What the link name in dfd points to, when the rule lets uid follow
    it; NotADirectoryError when name is no link (and no directory)."""
    st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
    if not stat.S_ISLNK(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR),
                                 where)
    dir_st = os.fstat(dfd)
    if not trusted_link(dir_st, st, uid):
        raise UntrustedLink(where, dir_st, st)
    return os.readlink(name, dir_fd=dfd)


def resolve(path, create=False, uid=None, start=None):
    """A descriptor (O_RDONLY|O_DIRECTORY) of the directory path, reached
    as the module's description says, relative to start (a directory
    descriptor, default the working directory) unless path is absolute;
    with create, missing directories are made (mode 0777 less the umask,
    as mkdir -p does).  uid is whose rule applies (default: the effective
    uid).  OSError otherwise, its filename the component at fault:
    FileNotFoundError (without create), NotADirectoryError,
    UntrustedLink, or what open() or mkdir() said."""
    uid = os.geteuid() if uid is None else uid
    where = "/" if path.startswith("/") else ""
    fd = os.open("/" if where else ".", DIR_FLAGS, dir_fd=start)
    todo, links, tries = components(path), 0, 0
    try:
        while todo:
            name = todo.pop(0)
            here = os.path.join(where, name)
            try:
                nfd = os.open(name, DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError as err:
                if not create:
                    err.filename = here
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                except OSError as err:
                    # made meanwhile, or a dangling link: looked at again
                    tries += 1
                    if not isinstance(err, FileExistsError) or tries > TRIES:
                        err.filename = here
                        raise
                todo.insert(0, name)
                continue
            except OSError as err:
                if err.errno not in (errno.ENOTDIR, errno.ELOOP):
                    err.filename = here
                    raise
                target = _link_target(fd, name, here, uid)
                links += 1
                if links > MAX_LINKS:
                    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), here)
                if target.startswith("/"):
                    os.close(fd)
                    fd = os.open("/", DIR_FLAGS)
                    where = "/"
                todo[:0] = components(target)
                continue
            os.close(fd)
            fd, where = nfd, here
    except BaseException:
        os.close(fd)
        raise
    return fd


def _unnamed_files():
    """Whether an unnamed file can be linked in (through /proc)."""
    return os.path.isdir("/proc/self/fd")


def _same_file(a, b):
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


class OutputDir:
    """A directory held open (fd), and the path it was reached by (path:
    for messages only, never opened again)."""

    def __init__(self, fd, path):
        self.fd, self.path = fd, path

    @classmethod
    def open(cls, path, create=False, uid=None):
        return cls(resolve(path or ".", create, uid), path)

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def name(self, name):
        """name inside the directory, as a path for a message."""
        return os.path.join(self.path, name)

    def lstat(self, name):
        """What is at name (a link is not followed), or None."""
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def subdir(self, name, create=True, uid=None):
        """The directory name inside this one (one component), reached
        and made by resolve()'s rule; None when missing without create."""
        if "/" in name or name in ("", ".", ".."):
            raise ValueError(f"not a name in a directory: {name!r}")
        try:
            fd = resolve(name, create, uid, start=self.fd)
        except OSError as err:
            if isinstance(err, FileNotFoundError) and not create:
                return None
            err.filename = self.name(err.filename)
            raise
        return OutputDir(fd, self.name(name))

    def stage(self, data, mode=0o666, hint="file"):
        """A Staged file holding data (str, bytes or a binary file to
        copy), whole and synced, not yet named.  mode less the umask;
        hint goes into a temporary name where one is needed."""
        fd, temp = None, None
        if _unnamed_files():
            try:
                fd = os.open(".", os.O_TMPFILE | os.O_RDWR | os.O_CLOEXEC,
                             mode, dir_fd=self.fd)
            except OSError as err:
                if err.errno not in NO_UNNAMED:
                    raise
        if fd is None:
            fd, temp = self._new_temp(mode, hint)
        staged = Staged(self, fd, temp)
        try:
            with os.fdopen(fd, "wb", closefd=False) as out:
                if isinstance(data, str):
                    out.write(data.encode("utf-8", "surrogateescape"))
                elif isinstance(data, bytes):
                    out.write(data)
                else:
                    shutil.copyfileobj(data, out)
            os.fsync(fd)
        except BaseException:
            staged.close()
            raise
        return staged

    def _new_temp(self, mode, hint):
        for _ in range(TRIES):
            temp = f".{hint}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
            try:
                return os.open(temp, NEW_FLAGS, mode, dir_fd=self.fd), temp
            except FileExistsError:
                continue
        raise FileExistsError(errno.EEXIST, "no free temporary name")

    def write(self, name, data, replace=False, mode=0o666):
        """A new file name holding data, whole, or no file at all (see
        stage()).  Without replace an existing name (a symlink too) is
        never replaced: FileExistsError.  An OSError's filename is
        self.name(name), never a temporary."""
        try:
            staged = self.stage(data, mode, name)
            try:
                if replace:
                    staged.replace(name)
                else:
                    staged.link(name)
            finally:
                staged.close()
        except OSError as err:
            err.filename, err.filename2 = self.name(name), None
            raise


class Staged:
    """A file written whole in an OutputDir, not yet named: unnamed
    (O_TMPFILE), or under its hidden temporary name temp."""

    def __init__(self, directory, fd, temp):
        self.dir, self.fd, self.temp = directory, fd, temp

    def _mine(self, name):
        """Whether name in the directory is this file (never followed)."""
        st = self.dir.lstat(name)
        return st is not None and _same_file(st, os.fstat(self.fd))

    def _link(self, name):
        """linkat() of this very inode to name (FileExistsError if taken):
        through /proc/self/fd, else from the temporary name, checked to
        be this file afterwards (a file swapped in for the temporary is
        not published: the name given to it is taken back)."""
        dfd = self.dir.fd
        if _unnamed_files():
            os.link(f"/proc/self/fd/{self.fd}", name, dst_dir_fd=dfd,
                    follow_symlinks=True)
            return
        os.link(self.temp, name, src_dir_fd=dfd, dst_dir_fd=dfd,
                follow_symlinks=False)
        if self._mine(name):
            return
        given, temp = self.dir.lstat(name), self.dir.lstat(self.temp)
        if given is not None and temp is not None and _same_file(given, temp):
            os.unlink(name, dir_fd=dfd)
        raise OSError(errno.EBUSY, "its temporary file was replaced while "
                      "it was written; left as it is")

    def link(self, name):
        """Give the file the name name, never replacing anything there
        (FileExistsError).  A filesystem without hard links gets an
        O_EXCL copy, removed if it cannot be finished."""
        try:
            self._link(name)
        except FileExistsError:
            raise
        except OSError as err:
            if err.errno not in NO_HARD_LINKS:
                raise
            self._copy_to(name)

    def replace(self, name):
        """Give the file the name name, replacing what is there (the name
        itself, a symlink included: never followed): renamed from a
        temporary name of its own, then checked to be this file."""
        if self.temp is None:
            for _ in range(TRIES):
                temp = f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
                try:
                    self._link(temp)
                except FileExistsError:
                    continue
                self.temp = temp
                break
            else:
                raise FileExistsError(errno.EEXIST, "no free temporary name")
        os.replace(self.temp, name, src_dir_fd=self.dir.fd,
                   dst_dir_fd=self.dir.fd)
        if not self._mine(name):
            raise FileExistsError(errno.EEXIST, "replaced while it was "
                                  "written")

    def _copy_to(self, name):
        mode = stat.S_IMODE(os.fstat(self.fd).st_mode)
        out = os.open(name, NEW_FLAGS, mode, dir_fd=self.dir.fd)
        try:
            offset = 0
            while True:
                chunk = os.pread(self.fd, 1 << 20, offset)
                if not chunk:
                    break
                offset += os.write(out, chunk)
            os.fsync(out)
        except BaseException:
            st = self.dir.lstat(name)
            if st is not None and _same_file(st, os.fstat(out)):
                os.unlink(name, dir_fd=self.dir.fd)
            raise
        finally:
            os.close(out)

    def close(self):
        """Let go of the file; its temporary name is removed only while
        it is still this file."""
        if self.fd is None:
            return
        try:
            if self.temp is not None and self._mine(self.temp):
                os.unlink(self.temp, dir_fd=self.dir.fd)
        finally:
            os.close(self.fd)
            self.fd = None
