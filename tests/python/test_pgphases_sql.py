# SPDX-License-Identifier: MIT
"""Description: diskio-pgphases' SQL files are found, parameterised and chosen by server version.

the runner's SQL files are found beside the module (in the
source tree, a VPATH build and an installed package alike), carry a
header that is never sent, take exactly the parameters they name, are
picked by server version where catalogs changed, and are all installed."""

import os
import re
import unittest

from diskio_analysis.pgphases import sql


def sql_files():
    return sorted(f for f in os.listdir(sql.SQL_DIR) if f.endswith(".sql"))


class LoaderTest(unittest.TestCase):
    def test_sql_dir_is_beside_the_module(self):
        self.assertEqual(sql.SQL_DIR, os.path.join(
            os.path.dirname(os.path.abspath(sql.__file__)), "sql"))
        self.assertGreaterEqual(len(sql_files()), 30)

    def test_every_file_has_a_licence_header_and_a_statement(self):
        for f in sql_files():
            with open(os.path.join(sql.SQL_DIR, f), encoding="utf-8") as fh:
                first = fh.readline()
            self.assertEqual(first, "-- SPDX-License-Identifier: MIT\n", f)
            body = sql.text(f[:-4])
            self.assertTrue(any(line and not line.startswith("--")
                                for line in body.splitlines()), f)
            self.assertTrue(body.endswith(";") or body.endswith("$$;"), f)

    def test_the_header_is_not_sent_but_comments_inside_are(self):
        self.assertNotIn("SPDX", sql.text("schema"))
        self.assertTrue(sql.text("schema").startswith("-- h(k, salt, m)"))
        self.assertEqual(sql.text("checkpoint"), "CHECKPOINT;")

    def test_parameters_are_substituted_everywhere(self):
        text = sql.load("rf1", first=42, last=44)
        self.assertEqual(text.count("BETWEEN 42 AND 44;"), 2)
        self.assertNotIn("{{", text)

    def test_a_missing_parameter_is_refused(self):
        with self.assertRaisesRegex(ValueError,
                                    r"rf2\.sql: parameters \['first', 'last'\]"):
            sql.load("rf2")

    def test_an_unused_parameter_is_refused(self):
        with self.assertRaises(ValueError):
            sql.load("checkpoint", first=1)

    def test_no_file_uses_a_parameter_its_header_does_not_name(self):
        for f in sql_files():
            with open(os.path.join(sql.SQL_DIR, f), encoding="utf-8") as fh:
                header, _, body = fh.read().partition("\n\n")
            for p in set(re.findall(r"\{\{(\w+)\}\}", body)):
                self.assertIn("{{%s}}" % p, header, f)

    def test_script_puts_one_statement_per_line_and_ends_with_a_newline(self):
        self.assertEqual(sql.script("SELECT 1;", "SELECT 2;"), "SELECT 1;\nSELECT 2;\n")


class VersionedTest(unittest.TestCase):
    def test_the_highest_variant_not_above_the_server_is_picked(self):
        self.assertEqual(sql.versioned("counters", 140000), "counters")
        self.assertEqual(sql.versioned("counters", 160009), "counters")
        self.assertEqual(sql.versioned("counters", 170000), "counters_post_170000")
        self.assertEqual(sql.versioned("counters", 170004), "counters_post_170000")
        self.assertEqual(sql.versioned("counters", 190000), "counters_post_180000")

    def test_no_file_applies_below_the_first_variant_without_a_base(self):
        self.assertIsNone(sql.versioned("stats_flush", 140011))
        self.assertEqual(sql.versioned("stats_flush", 150000), "stats_flush_post_150000")


class InstalledTest(unittest.TestCase):
    def test_every_module_and_sql_file_is_installed_by_make_install(self):
        top = os.environ.get("top_srcdir") or os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "..")
        with open(os.path.join(top, "Makefile.am")) as f:
            am = f.read()
        pkg = "python/diskio_analysis/pgphases/"
        for f in sql_files():
            self.assertIn(pkg + "sql/" + f + " ", am.replace("\n", " "), f)
        for f in os.listdir(os.path.dirname(sql.SQL_DIR)):
            if f.endswith(".py"):
                self.assertIn(pkg + f, am, f)


if __name__ == "__main__":
    unittest.main()
