# SPDX-License-Identifier: MIT
"""Description: NAME=PATH names an environment on the command line, and a path holding '=' stays a path.

An argument NAME=PATH puts PATH in the environment NAME whatever its
results' label; it is NAME=PATH when the text before its first '=' is not
empty and holds no '/', so ./x=y.json and /a/x=y.json are paths; an empty
name or path is a usage error, and NAME=PATH whose PATH is missing while
the whole argument is a file says how to give that file.  The name given
comes before the label and the directory in an environment's name."""

import os
import shutil
import unittest

from diskio_analysis import sides
from diskio_analysis.errors import InputError, UsageError
from diskio_analysis.result import Result
from filelib import FIXTURES, TempDirTest


class SplitTest(unittest.TestCase):
    def test_a_name_before_the_first_equals_sign(self):
        self.assertEqual(sides.split_named("A=aa1.json"), ("A", "aa1.json"))
        self.assertEqual(sides.split_named("fast disk=run=2/r.json"),
                         ("fast disk", "run=2/r.json"))

    def test_a_path_holding_equals_signs_stays_a_path(self):
        for path in ("aa1.json", "./x=y.json", "/lab/x=y.json", "d/x=y.json"):
            with self.subTest(path=path):
                self.assertEqual(sides.split_named(path), (None, path))

    def test_an_empty_name_or_path_is_a_usage_error(self):
        for argument, said in (("=x.json", "no name before '='"),
                               ("A=", "no file after '='")):
            with self.subTest(argument=argument), \
                    self.assertRaises(UsageError) as ctx:
                sides.split_named(argument)
            self.assertIn(said, str(ctx.exception))
            self.assertIn(f"./{argument}", str(ctx.exception))


class NameTest(unittest.TestCase):
    def test_the_name_given_comes_first(self):
        self.assertEqual(sides.environment_name(
            Result("/d/e/r.json", side="A", label="L")), "A")
        self.assertEqual(sides.environment_name(Result("/d/e/r.json", label="L")), "L")
        self.assertEqual(sides.environment_name(Result("/d/e/r.json")), "e")


class LoadTest(TempDirTest):
    def test_a_named_result_is_loaded_named(self):
        path = os.path.join(self.dir, "r.json")
        shutil.copy(os.path.join(FIXTURES, "env-a", "result.json"), path)
        result = sides.load_named_result(f"B={path}")
        self.assertEqual((result.path, sides.environment_name(result)), (path, "B"))

    def test_a_file_named_like_a_name_says_how_to_give_it(self):
        cwd = os.getcwd()
        os.chdir(self.dir)
        try:
            shutil.copy(os.path.join(FIXTURES, "env-a", "result.json"), "x=y.json")
            with self.assertRaises(InputError) as ctx:
                sides.load_named_result("x=y.json")
            self.assertEqual(str(ctx.exception),
                             "y.json: no such file or directory (x=y.json reads as the "
                             "environment x and its file y.json); write ./x=y.json to "
                             "read the file x=y.json")
            result = sides.load_named_result("./x=y.json")
            self.assertIsNone(result.side)
        finally:
            os.chdir(cwd)


if __name__ == "__main__":
    unittest.main()
