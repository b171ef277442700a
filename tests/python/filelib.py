# SPDX-License-Identifier: MIT
"""Helpers shared by the unit tests: files written into a temporary
directory that the test case removes."""

import os
import tempfile
import unittest


class TempDirTest(unittest.TestCase):
    """A TestCase with self.dir, removed after each test, and write()."""

    def setUp(self):
        self._dir = tempfile.TemporaryDirectory()
        self.dir = self._dir.name

    def tearDown(self):
        self._dir.cleanup()

    def write(self, name, text):
        """Write text (str or bytes) to name in self.dir; return the path."""
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(text.encode("utf-8") if isinstance(text, str) else text)
        return path
