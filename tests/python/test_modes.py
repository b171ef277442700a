# SPDX-License-Identifier: MIT
"""Description: the analysis knows the modes from the library's mode table and maps wal_sync_method with it.

modes.py reads _modes.py, which make writes from libdiskio's mode table
(python/make-modes): the modes are the library's, in its order, with
their facts, and the wal_sync_method a PostgreSQL cluster runs maps to
the mode PostgreSQL's default WAL writes are (without O_DIRECT), its
flushes counted where that mode makes them: wal_sync after a sync call,
wal_write for a method whose write syncs."""

import os
import subprocess
import unittest

from diskio_analysis.inputs import WAL_SYNC_METHODS
from diskio_analysis.modes import MODES, syncs, wal_sync_method_modes

BUILDDIR = os.environ.get("top_builddir", ".")


class ModesTest(unittest.TestCase):
    def test_the_modes_are_the_librarys_in_its_order(self):
        facts = os.path.join(BUILDDIR, "tests", "mode-facts")
        self.assertTrue(os.access(facts, os.X_OK),
                        f"{facts} is missing, yet make check builds it: this build is broken")
        rows = subprocess.run([facts], check=True, capture_output=True,
                              text=True).stdout.splitlines()
        self.assertEqual(list(MODES), [row.split()[0] for row in rows])
        for row in rows:
            name, durable, sync, direct, queued, reads, method = row.split()
            self.assertEqual(tuple(MODES[name]),
                             (name, durable != "-", sync != "-", direct != "-",
                              queued != "-", reads != "-",
                              None if method == "-" else method))

    def test_a_sync_call_is_the_tables(self):
        self.assertTrue(syncs("fsync") and syncs("fdatasync"))
        self.assertFalse(syncs("odsync") or syncs("async"))
        # a name the table lacks (a fio job's own) has no sync call
        self.assertFalse(syncs("fio-io_uring"))

    def test_postgresql_s_methods_map_to_the_modes_of_its_default_wal(self):
        self.assertEqual(wal_sync_method_modes(),
                         {"fsync": "fsync", "fdatasync": "fdatasync",
                          "open_sync": "osync", "open_datasync": "odsync"})
        self.assertEqual(WAL_SYNC_METHODS["fdatasync"],
                         ("fdatasync", "wal_sync", "wal_sync_time_ms"))
        self.assertEqual(WAL_SYNC_METHODS["open_datasync"],
                         ("odsync", "wal_write", "wal_write_time_ms"))
        self.assertEqual(WAL_SYNC_METHODS["open_sync"],
                         ("osync", "wal_write", "wal_write_time_ms"))


if __name__ == "__main__":
    unittest.main()
