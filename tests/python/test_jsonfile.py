# SPDX-License-Identifier: MIT
"""Description: the typed JSON accessors name the file and JSON path of every bad value.

the typed JSON accessors name the file and the JSON path
of every missing, mistyped, non-finite or out-of-range value, and
read_json turns every parse failure into an InputError: a key given twice
in an object (fio's option tables aside), a document too large or too
dense in values to read within the memory promised; a HIST's buckets are
kept compact."""

import os
import unittest
from unittest import mock

from diskio_analysis import jsonfile
from diskio_analysis.errors import InputError
from diskio_analysis.fio import fio_repeated_option
from diskio_analysis.jsonfile import (MAX_JSON_BYTES, MISSING, JsonFile,
                                      Triples, check_version, json_key_line,
                                      json_kind, json_path, json_short,
                                      parse_json, read_json)
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

    def test_counts_are_whole_numbers_from_0(self):
        self.assertEqual(self.src.as_count(0, "x"), 0)
        self.assertEqual(self.src.as_count(2 ** 63 - 1, "x"), 2 ** 63 - 1)
        for bad, said in ((2.5, "2.5"), (-1, "-1"), ("3", '"3"'), (True, "true"),
                          (2.0, "2.0"), ([], "a list")):
            with self.subTest(bad=bad):
                self.assertEqual(self.fails(self.src.as_count, bad, "runs[0].ops"),
                                 f"f.json: runs[0].ops: {said}, expected a count "
                                 "(a whole number, 0 or more); fix it")
        self.assertIn("integer too large", self.fails(self.src.as_count, 2 ** 63, "x"))
        self.assertIsNone(self.src.as_count(None, "x", optional=True))

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
            f.truncate(MAX_JSON_BYTES + 1)      # sparse: no disk used
        with self.assertRaises(InputError) as ctx:
            read_json(path)
        self.assertIn(f"more than the {MAX_JSON_BYTES >> 20} MiB any JSON input",
                      str(ctx.exception))

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


class StrictParseTest(unittest.TestCase):
    def fails(self, text, repeated_ok=None):
        with self.assertRaises(InputError) as ctx:
            parse_json("r.json", text, repeated_ok)
        return str(ctx.exception)

    def test_a_key_given_twice_is_refused_naming_its_path(self):
        """json.loads keeps the last of two values of a key and drops the
        other unseen: the file says two things, and is refused."""
        self.assertEqual(
            self.fails('{"runs": [{"mode": "fsync"}, {"latency": {"total": '
                       '{"count": 4, "mean": 5, "count": 2.5}}}]}'),
            "r.json: runs[1].latency.total.count: given twice in one object (a "
            "JSON reader keeps one of the two values and drops the other unseen); "
            "the file says two things there: regenerate it, or remove the value "
            "that is wrong")
        self.assertIn('r.json: ["job options"]: given twice',
                      self.fails('{"job options": 1, "job options": 2}'))
        # the first in the document's order, however deep the other
        self.assertIn("r.json: a.b: given twice", self.fails(
            '{"a": {"b": 1, "b": 1}, "c": [{"d": {"e": 1, "e": 1}}]}'))

    def test_fio_may_repeat_an_option_in_its_option_tables(self):
        """fio writes an option given twice twice in its option tables
        and runs with the last: read as fio ran; anywhere else, and in a
        document that is not fio's, refused."""
        fio = ('{"fio version": "fio-3.33", "global options": {"bs": "4k", "bs": "8k"}, '
               '"jobs": [{"job options": {"filename": "a", "filename": "b"}%s}]}')
        doc = parse_json("fio.json", fio % "", fio_repeated_option)
        self.assertEqual((doc["global options"]["bs"],
                          doc["jobs"][0]["job options"]["filename"]), ("8k", "b"))
        self.assertIn('jobs[0].sync.lat_ns: given twice', self.fails(
            fio % ', "sync": {"lat_ns": 1, "lat_ns": 2}', fio_repeated_option))
        self.assertIn('["job options"].filename: given twice', self.fails(
            '{"schema": "diskio-result", "job options": {"filename": "a", '
            '"filename": "b"}}', fio_repeated_option))

    def test_buckets_are_kept_compact(self):
        doc = parse_json("r.json", '{"buckets": [[800, 803, 1], [990, 997, 2]], '
                         '"other": [[1, 2, 3]]}')
        buckets = doc["buckets"]
        self.assertIsInstance(buckets, Triples)
        self.assertEqual(list(buckets), [(800, 803, 1), (990, 997, 2)])
        self.assertEqual((len(buckets), buckets[1], buckets[-1][0]), (2, (990, 997, 2), 990))
        self.assertEqual(buckets, [[800, 803, 1], [990, 997, 2]])
        self.assertEqual(json_kind(buckets), "a list")
        self.assertIs(JsonFile("r.json", "x").as_list(buckets, "buckets"), buckets)
        self.assertEqual(doc["other"], [[1, 2, 3]])
        # what is no list of three integers stays as it is, for a reader
        # to name the item at fault
        for text in ('[[1, 2, true]]', '[[1, 2]]', '[[1, 2, 3.5]]', '[[1, 2, 3], 4]',
                     '[[1, 2, 99999999999999999999]]', '[[1, 2, "3"]]'):
            with self.subTest(buckets=text):
                self.assertIsInstance(parse_json("r.json", '{"buckets": %s}' % text)
                                      ["buckets"], list)

    def test_a_document_too_large_or_too_dense_is_refused_before_it_is_parsed(self):
        with mock.patch.object(jsonfile, "MAX_JSON_BYTES", 100):
            self.assertEqual(self.fails(" " * 101 + "[]"),
                             "r.json: 103 characters of JSON, more than the 0 MiB any JSON "
                             "input of these tools holds; check that this is the file you "
                             "meant: no diskio result, fio output or report of these tools "
                             "is so large")
        # 30 MB of empty lists would take 640 MB: what its characters
        # cost by the estimate, refused before json.loads makes them
        dense = "[" + "[]," * 1000 + "[]]"
        with mock.patch.object(jsonfile, "MAX_PARSED_BYTES", 1 << 17):
            message = self.fails(dense)
            self.assertIn("r.json: 3004 characters of JSON so dense in values that "
                          "reading them could take 0 MiB of memory, more than the 0 MiB",
                          message)
            self.assertIn("no diskio result, fio output or report of these tools is so "
                          "dense", message)
            self.assertEqual(len(parse_json("r.json", "[" + "1," * 1000 + "1]")), 1001)


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
