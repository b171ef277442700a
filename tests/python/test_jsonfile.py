# SPDX-License-Identifier: MIT
"""Description: the typed JSON accessors name the file and JSON path of every bad value.

the typed JSON accessors name the file and the JSON path
of every missing, mistyped, non-finite or out-of-range value, and
read_json turns every parse failure into an InputError."""

import os
import unittest

from diskio_analysis.errors import InputError
from diskio_analysis.jsonfile import (MISSING, JsonFile, check_version,
                                      json_key_line, json_kind, json_path,
                                      json_short, read_json)
from diskio_analysis.textfile import MAX_INPUT_BYTES
from filelib import TempDirTest


class PathTest(unittest.TestCase):
    def test_identifiers_indexes_and_odd_keys(self):
        self.assertEqual(json_path("", "runs"), "runs")
        self.assertEqual(json_path("runs", 2), "runs[2]")
        self.assertEqual(json_path("runs[2]", "mode"), "runs[2].mode")
        self.assertEqual(json_path("jobs[0]", "job options"),
                         'jobs[0]["job options"]')

    def test_kind_and_short(self):
        self.assertEqual(json_kind(MISSING), "missing")
        self.assertEqual(json_kind(True), "true (a boolean)")
        self.assertEqual(json_kind({}), "an object")
        self.assertEqual(json_short("x" * 50), "x" * 20 + "... (50 characters)")

    def test_key_line(self):
        self.assertEqual(json_key_line('{\n "a": 1,\n "b": 2}', "b"), 3)
        self.assertIsNone(json_key_line("{}", "b"))


class AccessorTest(unittest.TestCase):
    src = JsonFile("f.json", "fix it")

    def fails(self, call, *args, **kw):
        with self.assertRaises(InputError) as ctx:
            call(*args, **kw)
        return str(ctx.exception)

    def test_a_lone_surrogate_is_refused_not_printed_later(self):
        message = self.fails(self.src.as_string, "\ud800", "label")
        self.assertIn("label: ", message)
        self.assertIn("not valid Unicode", message)

    def test_missing_and_null(self):
        self.assertEqual(self.fails(self.src.get_number, {}, "a", "b"),
                         "f.json: a.b: missing, expected a number; fix it")
        self.assertIsNone(self.src.get_number({"b": None}, "a", "b",
                                              optional=True))
        self.assertIn("a string or null",
                      self.fails(self.src.get_string, {"b": 1}, "a", "b",
                                 optional=True))

    def test_numbers(self):
        self.assertEqual(self.src.as_number(5, "x"), 5)
        self.assertIn("true (a boolean)", self.fails(self.src.as_number,
                                                     True, "x"))
        self.assertIn("not a finite number",
                      self.fails(self.src.as_number, float("nan"), "x"))
        self.assertIn("number too large",
                      self.fails(self.src.as_number, 10 ** 400, "x"))
        self.assertIn("-1 is below 0",
                      self.fails(self.src.as_number, -1, "x", minimum=0))

    def test_integers(self):
        self.assertEqual(self.src.as_int(2 ** 63 - 1, "x"), 2 ** 63 - 1)
        self.assertIn("integer too large",
                      self.fails(self.src.as_int, 2 ** 63, "x"))
        self.assertIn("1.5, expected an integer",
                      self.fails(self.src.as_int, 1.5, "x"))
        self.assertIn("0 is below 1",
                      self.fails(self.src.as_int, 0, "x", minimum=1))

    def test_strings_objects_lists(self):
        self.assertIn("empty string", self.fails(self.src.as_string, "", "x",
                                                 nonempty=True))
        self.assertIn("a list, expected an object",
                      self.fails(self.src.as_object, [], "x"))
        self.assertIn("an object, expected a list",
                      self.fails(self.src.as_list, {}, "x"))


class ReadJsonTest(TempDirTest):
    def read(self, data):
        return read_json(self.write("x.json", data))

    def rejects(self, data):
        with self.assertRaises(InputError) as ctx:
            self.read(data)
        return str(ctx.exception)

    def test_a_file_beyond_the_size_limit_is_refused_before_it_is_read(self):
        path = os.path.join(self.dir, "huge.json")
        with open(path, "wb") as f:
            f.truncate(MAX_INPUT_BYTES + 1)     # sparse: no disk used
        with self.assertRaises(InputError) as ctx:
            read_json(path)
        self.assertIn("more than the 256 MiB", str(ctx.exception))

    def test_returns_text_and_document(self):
        self.assertEqual(self.read(b'{"a": 1}'), ('{"a": 1}', {"a": 1}))

    def test_parse_errors(self):
        self.assertIn(":2: malformed JSON", self.rejects(b"{\n]"))
        self.assertIn("readable UTF-8 text", self.rejects(b"\xff"))
        self.assertIn("nested too deeply", self.rejects(b"[" * 100000))
        self.assertIn(":2: malformed JSON: number out of range",
                      self.rejects(b"[\n" + b"1" * 5000 + b"]"))

    def test_a_byte_order_mark_is_dropped(self):
        self.assertEqual(self.read(b'\xef\xbb\xbf{"a": 1}'),
                         ('{"a": 1}', {"a": 1}))

    def test_lines_before_the_json_only_where_allowed(self):
        path = self.write("fio.json", 'note: both iodepth >= 1 and '
                          'synchronous I/O engine\nnote: x\n{\n"fio '
                          'version": "fio-3.33"}\n')
        with self.assertRaises(InputError) as ctx:
            read_json(path)
        self.assertIn(":1: malformed JSON", str(ctx.exception))
        notes = []
        text, doc = read_json(path, lambda d: "fio version" in d, notes)
        self.assertEqual(doc, {"fio version": "fio-3.33"})
        self.assertEqual(json_key_line(text, "fio version"), 4)
        self.assertEqual(notes, [f'{path}: skipped 2 line(s) before the JSON '
                                 '("note: both iodepth >= 1 and synchronous '
                                 'I/O engine")'])
        with self.assertRaises(InputError):
            read_json(path, lambda d: False)
        with self.assertRaises(InputError) as ctx:
            read_json(self.write("bad.json", "note: x\n{\n]"),
                      lambda d: True)
        self.assertIn(":1: malformed JSON", str(ctx.exception))

    def test_missing_file(self):
        with self.assertRaises(InputError) as ctx:
            read_json(os.path.join(self.dir, "none.json"))
        self.assertIn("cannot read", str(ctx.exception))


class VersionTest(unittest.TestCase):
    def test_supported_version_passes_and_others_are_refused(self):
        check_version("f", "", {"schema_version": 1}, (1,), "thing")
        for bad in (2, True, None, "1"):
            with self.subTest(version=bad), self.assertRaises(InputError):
                check_version("f", '{\n"schema_version": 2}',
                              {"schema_version": bad}, (1,), "thing")

    def test_a_wrong_schema_version_is_said_as_json_writes_it(self):
        """No Python repr ('1', None, True) in the message: the value as
        the file spells it, or that there is none."""
        for doc, said in (({"schema_version": 2},
                           "f:2: unknown thing schema_version 2 (diskio "),
                          ({"schema_version": True},
                           "f:2: thing schema_version true, expected a "
                           "whole number"),
                          ({"schema_version": None},
                           "f:2: thing schema_version null, expected a "
                           "whole number"),
                          ({"schema_version": "1"},
                           'f:2: thing schema_version "1", expected a '
                           "whole number"),
                          ({}, "f:2: a thing without a schema_version")):
            with self.subTest(doc=doc), self.assertRaises(InputError) as c:
                check_version("f", '{\n"schema_version": 2}', doc, (1,),
                              "thing")
            message = str(c.exception)
            self.assertIn(said, message)
            self.assertIn("reads schema_version 1)", message)
            self.assertNotIn("None", message)
            self.assertNotIn("'", message)


if __name__ == "__main__":
    unittest.main()
