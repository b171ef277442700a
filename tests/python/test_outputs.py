# SPDX-License-Identifier: MIT
"""Description: every command creates its output directory and writes its files the same way.

every command creates its output directory the same way
(missing parents included, never through a link another user could
have planted) and writes an output file whole or not at all, never over
an existing file without --force; a failure names the path the user
gave, never a temporary file, says what to do, and leaves no temporary
behind."""

import os
import resource
import signal
import unittest

from diskio_analysis.outputs import (OutputError, open_output_dir,
                                     write_output_file)
from filelib import TempDirTest


class DirectoryTest(TempDirTest):
    def test_missing_parents_are_created(self):
        path = os.path.join(self.dir, "a", "b", "c")
        self.assertIsNone(open_output_dir(path, "--outdir", create=False))
        with open_output_dir(path, "--outdir") as out:
            self.assertEqual(out.path, path)
        self.assertTrue(os.path.isdir(path))
        open_output_dir(path, "--outdir").close()       # existing: fine

    def test_a_planted_link_is_refused_naming_it_and_what_to_do(self):
        os.chmod(self.dir, 0o777)       # anyone could have made the link
        target = os.path.join(self.dir, "target")
        os.mkdir(target)
        link = os.path.join(self.dir, "out")
        os.symlink(target, link)
        what = ("a symbolic link in a directory another user can write "
                f"(owner uid {os.getuid()}, mode 0777); not followed")
        with self.assertRaises(OutputError) as ctx:
            open_output_dir(link, "--outdir", status=3)
        self.assertEqual(str(ctx.exception), f"{link}: {what}; give "
                         "--outdir a directory of your own")
        self.assertEqual(ctx.exception.exit_status, 3)
        with self.assertRaises(OutputError) as ctx:
            open_output_dir(os.path.join(link, "sub"), "--outdir")
        self.assertEqual(str(ctx.exception), f"{link}/sub: {link} is {what}; "
                         "give --outdir a directory of your own")
        with self.assertRaises(OutputError) as ctx:
            write_output_file(os.path.join(link, "report.txt"), "x")
        self.assertEqual(str(ctx.exception), f"{link}: {what}; give --output "
                         "a file in a directory of your own")
        self.assertEqual(os.listdir(target), [])

    def test_a_file_in_the_way_is_named(self):
        path = self.write("file", "x")
        with self.assertRaises(OutputError) as ctx:
            open_output_dir(os.path.join(path, "sub"), "--outdir")
        self.assertIn(f"{path}/sub: cannot create the directory",
                      str(ctx.exception))
        with self.assertRaises(OutputError) as ctx:
            open_output_dir(path, "--outdir")
        self.assertEqual(str(ctx.exception), f"{path}: exists and is not a "
                         "directory; give --outdir a directory")

    @unittest.skipIf(os.geteuid() == 0, "root writes anywhere")
    def test_an_unwritable_parent_is_named(self):
        os.chmod(self.dir, 0o500)
        try:
            with self.assertRaises(OutputError) as ctx:
                open_output_dir(os.path.join(self.dir, "x"), "--outdir")
            self.assertIn("Permission denied", str(ctx.exception))
        finally:
            os.chmod(self.dir, 0o700)


class FileTest(TempDirTest):
    def test_written_whole_into_a_new_directory(self):
        path = os.path.join(self.dir, "new", "deeper", "report.txt")
        write_output_file(path, "the report\n")
        with open(path, encoding="utf-8") as handle:
            self.assertEqual(handle.read(), "the report\n")
        self.assertEqual(os.listdir(os.path.dirname(path)), ["report.txt"])

    def test_an_existing_file_needs_force(self):
        path = self.write("report.txt", "old")
        with self.assertRaises(OutputError) as ctx:
            write_output_file(path, "new")
        self.assertEqual(str(ctx.exception), f"{path}: exists; remove it, "
                         "choose another --output or pass --force")
        with open(path) as handle:
            self.assertEqual(handle.read(), "old")
        write_output_file(path, "new", force=True)
        with open(path) as handle:
            self.assertEqual(handle.read(), "new")
        self.assertEqual(os.listdir(self.dir), ["report.txt"])

    def test_a_symlink_is_refused_without_force(self):
        target = self.write("target", "kept")
        link = os.path.join(self.dir, "link")
        os.symlink(target, link)
        with self.assertRaises(OutputError):
            write_output_file(link, "new")
        with open(target) as handle:
            self.assertEqual(handle.read(), "kept")

    def test_a_failure_names_the_users_path_and_leaves_nothing(self):
        path = os.path.join(self.dir, "report.txt")
        # a file size limit makes the write fail with EFBIG
        soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
        previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (16, hard))
        try:
            with self.assertRaises(OutputError) as ctx:
                write_output_file(path, "x" * 4096, status=3)
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
            signal.signal(signal.SIGXFSZ, previous)
        self.assertTrue(str(ctx.exception).startswith(f"{path}: cannot "
                                                      "write: File too large"),
                        str(ctx.exception))
        self.assertNotIn(".tmp", str(ctx.exception))
        self.assertEqual(ctx.exception.exit_status, 3)
        self.assertEqual(os.listdir(self.dir), [])

    def test_a_directory_is_not_a_file(self):
        with self.assertRaises(OutputError) as ctx:
            write_output_file(self.dir, "x", force=True)
        self.assertIn("is a directory", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()
