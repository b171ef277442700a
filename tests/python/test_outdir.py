# SPDX-License-Identifier: MIT
"""Description: output directories follow no link another user could plant; files go in by descriptor.

outdir.py, the one way every analysis command reaches and writes its
output directory: a symbolic link is followed only in a directory no
other user can write (or the caller's own link in a sticky one), a
component swapped for a link after it was checked cannot redirect a
write, and every file goes in by the directory's descriptor."""

import errno
import os
import stat
import types
import unittest
from unittest import mock

from diskio_analysis.outdir import (MAX_LINKS, OutputDir, UntrustedLink,
                                    resolve, trusted_link)
from filelib import TempDirTest

ME = os.geteuid()
OTHER = 65534 if ME != 65534 else 65533     # nobody, as another user
ROOT_ONLY = "only root can give a file to another user"


def st(uid, mode):
    return types.SimpleNamespace(st_uid=uid, st_mode=stat.S_IFDIR | mode)


class RuleTest(unittest.TestCase):
    """trusted_link(directory, link, caller): Linux's protected_symlinks
    idea, for every component."""

    def test_a_directory_only_its_owner_can_write(self):
        for owner in (ME, 0):
            self.assertTrue(trusted_link(st(owner, 0o755), st(OTHER, 0o777), ME))
            self.assertTrue(trusted_link(st(owner, 0o700), st(ME, 0o777), ME))
        self.assertFalse(trusted_link(st(OTHER, 0o755), st(OTHER, 0o777), ME))
        self.assertFalse(trusted_link(st(OTHER, 0o700), st(ME, 0o777), ME))

    def test_group_or_other_write_is_another_user(self):
        for mode in (0o775, 0o757, 0o777, 0o770):
            self.assertFalse(trusted_link(st(ME, mode), st(ME, 0o777), ME),
                             oct(mode))
            self.assertFalse(trusted_link(st(0, mode), st(0, 0o777), 0),
                             oct(mode))

    def test_sticky_only_for_the_callers_own_link(self):
        tmp = st(0, 0o1777)
        self.assertTrue(trusted_link(tmp, st(ME, 0o777), ME))
        self.assertFalse(trusted_link(tmp, st(OTHER, 0o777), ME))
        self.assertFalse(trusted_link(st(OTHER, 0o1777), st(ME, 0o777), ME))


class LinkTest(TempDirTest):
    def setUp(self):
        super().setUp()
        os.chmod(self.dir, 0o755)
        self.target = os.path.join(self.dir, "target")
        os.mkdir(self.target, 0o700)
        self.shared = os.path.join(self.dir, "shared")
        os.mkdir(self.shared)

    def link_in(self, mode):
        os.chmod(self.shared, mode)
        link = os.path.join(self.shared, "out")
        os.symlink(self.target, link)
        return link

    def test_a_link_in_a_directory_others_can_write_is_refused(self):
        for mode in (0o777, 0o775):
            with self.subTest(mode=oct(mode)):
                link = self.link_in(mode)
                with self.assertRaises(UntrustedLink) as ctx:
                    OutputDir.open(link, create=True)
                self.assertEqual((ctx.exception.filename, ctx.exception.dir_mode),
                                 (link, mode))
                with self.assertRaises(UntrustedLink):
                    OutputDir.open(os.path.join(link, "sub", "deeper"),
                                   create=True)
                self.assertEqual(os.listdir(self.target), [])
                os.unlink(link)

    def test_a_link_in_the_callers_own_directory_is_followed(self):
        link = self.link_in(0o755)
        with OutputDir.open(os.path.join(link, "sub"), create=True) as out:
            out.write("f", "x")
        self.assertEqual(os.listdir(os.path.join(self.target, "sub")), ["f"])

    def test_a_relative_link_is_resolved_from_its_directory(self):
        os.mkdir(os.path.join(self.shared, "real"))
        os.symlink("real", os.path.join(self.shared, "rel"))
        with OutputDir.open(os.path.join(self.shared, "rel")) as out:
            out.write("f", "x")
        self.assertEqual(os.listdir(os.path.join(self.shared, "real")), ["f"])

    def test_the_callers_own_link_in_a_sticky_directory_is_followed(self):
        link = self.link_in(0o1777)
        with OutputDir.open(link) as out:
            out.write("f", "x")
        self.assertEqual(os.listdir(self.target), ["f"])

    @unittest.skipIf(ME != 0, ROOT_ONLY)
    def test_another_users_link_in_a_sticky_directory_is_refused(self):
        link = self.link_in(0o1777)
        os.lchown(link, OTHER, OTHER)
        with self.assertRaises(UntrustedLink) as ctx:
            OutputDir.open(link)
        self.assertEqual(ctx.exception.link_uid, OTHER)

    @unittest.skipIf(ME != 0, ROOT_ONLY)
    def test_a_link_in_another_users_directory_is_refused(self):
        link = self.link_in(0o755)
        os.chown(self.shared, OTHER, OTHER)
        with self.assertRaises(UntrustedLink) as ctx:
            OutputDir.open(link, create=True)
        self.assertEqual(ctx.exception.dir_uid, OTHER)
        self.assertEqual(os.listdir(self.target), [])

    @unittest.skipIf(ME != 0, ROOT_ONLY)
    def test_another_users_real_directory_is_written_by_descriptor(self):
        """Entered, since nothing inside is followed: a link the owner
        plants at a name costs that name, never redirects the write."""
        os.chown(self.shared, OTHER, OTHER)
        os.symlink(os.path.join(self.target, "f"),
                   os.path.join(self.shared, "f"))
        with OutputDir.open(self.shared) as out:
            with self.assertRaises(FileExistsError):
                out.write("f", "x")
            out.write("g", "x")
        self.assertEqual(os.listdir(self.target), [])
        self.assertEqual(os.stat(os.path.join(self.shared, "g")).st_uid, ME)

    def test_a_links_target_is_held_to_the_same_rule(self):
        inner = self.link_in(0o777)             # shared/out, untrusted
        outer = os.path.join(self.dir, "mine")  # in our own directory
        os.symlink(os.path.join(inner, "x"), outer)
        with self.assertRaises(UntrustedLink) as ctx:
            OutputDir.open(outer, create=True)
        self.assertEqual(ctx.exception.filename, inner)
        self.assertEqual(os.listdir(self.target), [])

    def test_a_loop_of_links_ends(self):
        a, b = os.path.join(self.dir, "a"), os.path.join(self.dir, "b")
        os.symlink(b, a)
        os.symlink(a, b)
        with self.assertRaises(OSError) as ctx:
            OutputDir.open(a, create=True)
        self.assertEqual(ctx.exception.errno, errno.ELOOP)
        self.assertGreater(MAX_LINKS, 8)

    def test_a_file_in_the_way_is_not_a_directory(self):
        path = self.write("file", "x")
        for where in (path, os.path.join(path, "sub")):
            with self.assertRaises(NotADirectoryError) as ctx:
                OutputDir.open(where, create=True)
            self.assertEqual(ctx.exception.filename, path)

    def test_missing_parts_are_made_or_reported(self):
        path = os.path.join(self.dir, "n", "e", "w")
        with self.assertRaises(FileNotFoundError):
            OutputDir.open(path)
        with OutputDir.open(path, create=True) as out:
            self.assertIsNone(out.subdir("h1", create=False))
            with out.subdir("h1") as host:
                host.write("result.json", "{}")
        self.assertTrue(os.path.isfile(os.path.join(path, "h1", "result.json")))


class SwapTest(TempDirTest):
    """A component checked and then swapped for a link: the writes go
    to the directory that was checked, by its descriptor."""

    def setUp(self):
        super().setUp()
        self.victim = os.path.join(self.dir, "victim")
        os.mkdir(self.victim, 0o700)
        self.base = os.path.join(self.dir, "base")

    def swap(self):
        """base/a becomes base/moved, base/a a link to the victim."""
        os.rename(os.path.join(self.base, "a"), os.path.join(self.base, "moved"))
        os.symlink(self.victim, os.path.join(self.base, "a"))

    def test_a_swap_after_the_checks_cannot_redirect_writes(self):
        with OutputDir.open(os.path.join(self.base, "a", "b"),
                            create=True) as out:
            self.swap()
            out.write("q_time.csv", "x")
            with out.subdir("h1") as host:
                host.write("result.json", "{}")
            staged = out.stage(b"png", hint="chart.png")
            staged.link("chart.png")
            staged.close()
        self.assertEqual(os.listdir(self.victim), [])
        self.assertEqual(sorted(os.listdir(os.path.join(self.base, "moved", "b"))),
                         ["chart.png", "h1", "q_time.csv"])

    def test_a_swap_in_the_middle_of_the_walk_cannot_redirect_it(self):
        """base/a is swapped just before base/a/b/c is made: c is made
        in the directory already held, never through the new link."""
        os.makedirs(os.path.join(self.base, "a", "b"))
        real_mkdir = os.mkdir

        def swapping_mkdir(name, mode=0o777, *, dir_fd=None):
            if name == "c":
                self.swap()
            return real_mkdir(name, mode, dir_fd=dir_fd)
        with mock.patch("os.mkdir", swapping_mkdir):
            fd = resolve(os.path.join(self.base, "a", "b", "c"), create=True)
        os.close(fd)
        self.assertEqual(os.listdir(self.victim), [])
        self.assertTrue(os.path.isdir(os.path.join(self.base, "moved", "b", "c")))

    def test_a_link_planted_at_a_files_name_is_never_written_through(self):
        os.makedirs(self.base)
        target = os.path.join(self.victim, "secret")
        os.symlink(target, os.path.join(self.base, "wal.csv"))
        with OutputDir.open(self.base) as out:
            with self.assertRaises(FileExistsError) as ctx:
                out.write("wal.csv", "x")
            self.assertEqual(ctx.exception.filename,
                             os.path.join(self.base, "wal.csv"))
            out.write("wal.csv", "x", replace=True)     # the name, not the target
        self.assertFalse(os.path.lexists(target))
        self.assertFalse(os.path.islink(os.path.join(self.base, "wal.csv")))

    def test_without_unnamed_files_a_swapped_temporary_is_not_published(self):
        os.makedirs(self.base)
        with OutputDir.open(self.base) as out, \
                mock.patch("diskio_analysis.outdir._unnamed_files",
                           return_value=False):
            staged = out.stage("mine", hint="r")
            os.rename(os.path.join(self.base, staged.temp),
                      os.path.join(self.base, "kept"))
            with open(os.path.join(self.base, staged.temp), "w") as f:
                f.write("theirs")
            with self.assertRaises(OSError):
                staged.link("r")
            staged.close()
        with open(os.path.join(self.base, "kept")) as f:
            self.assertEqual(f.read(), "mine")
        self.assertFalse(os.path.lexists(os.path.join(self.base, "r")))


if __name__ == "__main__":
    unittest.main()
