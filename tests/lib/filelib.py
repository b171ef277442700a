# SPDX-License-Identifier: MIT
"""Helpers shared by the unit tests: files written into a temporary
directory that the test case removes."""

import os
import tempfile
import unittest

# The command tests' fixtures (tests/scripts/fixtures) in the source tree.
FIXTURES = os.path.join(
    os.environ.get("top_srcdir") or os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "..", ".."), "tests", "scripts", "fixtures")


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
