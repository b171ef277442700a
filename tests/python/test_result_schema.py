# SPDX-License-Identifier: MIT
"""Description: the result reader has a field for every key of doc/result-schema.json, and no other.

result.py's dataclasses and doc/result-schema.json describe one format:
every property path of the schema (runs[].rate.backlog.ops,
runs[].latency.total.<percentile pattern>, ...) is a field of the reader,
reached from Result through the fields' types and their JSON keys, and
every field the reader reads is a property of the schema, of the same
JSON type.  So a key added to diskio's output (and to the schema, which
tests/cli/results-match-schema.sh holds the output to) cannot be left
unread, and the reader cannot expect a key diskio never writes.  The
schema's own rules: every property described, every key an identifier,
the percentile keys and version the reader's; and the result fixtures of
earlier releases hold to it, required keys aside."""

import dataclasses
import glob
import json
import os
import typing
import unittest

import schemalib
from diskio_analysis import result
from diskio_analysis.jsonfile import Triples
from diskio_analysis.result import (PARTS, PERCENTILE_KEY, PERCENTILES,
                                    RESULT_SCHEMA, SUPPORTED_RESULT_VERSIONS,
                                    Result, json_key, unwrap_optional)

SCHEMA = schemalib.load_schema()
# the JSON types a reader's field may stand for: an integer key may be
# read as a number (what files of every release hold, floats included)
JSON_TYPES = {bool: {"boolean"}, int: {"integer"}, float: {"number", "integer"},
              str: {"string"}, list: {"array"}, dict: {"object"},
              Triples: {"array"}}


def reader_types(cls=Result, prefix="", out=None):
    """{property path: the Python type read there} of every key the
    reader reads, from Result down."""
    out = {} if out is None else out
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if f.metadata.get("derived"):
            continue
        name = json_key(f)
        parts = name.split(".")
        for depth in range(1, len(parts)):        # device.total: device too
            out.setdefault(schemalib.join(prefix, ".".join(parts[:depth])), dict)
        path = schemalib.join(prefix, name)
        kind = unwrap_optional(hints[f.name])
        if f.metadata.get("index"):               # an index, read as its Run
            out[path] = int
        elif f.metadata.get("pattern"):           # the keys of this object
            walk_type(typing.get_args(kind)[1],   # that match a pattern
                      schemalib.join(prefix, f"<{f.metadata['pattern']}>"), out)
        else:
            walk_type(kind, path, out, f.metadata.get("keys"))
    return out


def walk_type(kind, path, out, keys=None, item=False):
    """The types at path (not recorded for the items of a list, which
    are no property) and below."""
    origin = typing.get_origin(kind)
    if dataclasses.is_dataclass(kind):
        reader_types(kind, path, out)
    elif origin is list:
        (of,) = typing.get_args(kind)
        if typing.get_origin(of) is not tuple:    # buckets: [low, high, count]
            walk_type(unwrap_optional(of), path + "[]", out, item=True)
    elif origin is dict:
        for name in keys or ["<*>"]:
            walk_type(typing.get_args(kind)[1], schemalib.join(path, name), out)
    if not item:
        out[path] = origin or (dict if dataclasses.is_dataclass(kind) else kind)


def schema_types(nodes):
    """The JSON types a property's schema nodes allow, null aside."""
    types = set()
    for node in nodes:
        stack = [node]
        while stack:
            n = stack.pop()
            if "$ref" in n:
                stack.append(schemalib.deref(SCHEMA, n["$ref"]))
            for alternatives in ("oneOf", "anyOf"):
                stack.extend(n.get(alternatives, []))
            declared = n.get("type")
            types.update([declared] if isinstance(declared, str) else declared or [])
            for value in n.get("enum", []) + ([n["const"]] if "const" in n else []):
                types.add({bool: "boolean", int: "integer", str: "string",
                           type(None): "null"}[type(value)])
    types.discard("null")
    return types


class ReaderMatchesSchemaTest(unittest.TestCase):
    def test_every_schema_property_is_a_reader_field_and_back(self):
        schema_paths = schemalib.property_paths(SCHEMA)
        reader_paths = set(reader_types())
        self.assertEqual(sorted(schema_paths - reader_paths), [],
                         "keys of doc/result-schema.json result.py does not read")
        self.assertEqual(sorted(reader_paths - schema_paths), [],
                         "fields of result.py that are no key of the schema")

    def test_each_field_reads_the_json_type_of_its_key(self):
        nodes = schemalib.property_nodes(SCHEMA)
        for path, kind in reader_types().items():
            with self.subTest(path=path):
                allowed = JSON_TYPES[kind]
                self.assertTrue(schema_types(nodes[path]) <= allowed,
                                f"{path}: the schema allows {schema_types(nodes[path])}, "
                                f"result.py reads {kind.__name__}")

    def test_the_reader_reads_what_a_real_result_holds(self):
        """A path the schema test above knows is one the reader fills: a
        hand-made document with one key in each object reads back."""
        doc = {"schema": "diskio-result", "schema_version": 2, "label": "x",
               "tool": {"name": "diskio", "version": "0.1.0"},
               "runs": [{"mode": "fsync", "parameters": {"block_size": 4096},
                         "rate": {"requested_ops_per_s": 1000, "achieved_ops_per_s": 999.5,
                                  "held": True, "max_start_lag_ns": 5,
                                  "backlog": {"ops": 3, "max_lag_ns": 7}},
                         "wal": {"committers": 4, "syncs_per_commit": 0.25},
                         "checkpoint": {"file_syncs": 16},
                         "interference": {"start_time": "t", "cpu": {"other_cpus": 0.5},
                                          "devices": [{"name": "vda", "bytes": 9}]},
                         "latency": {"total": {"count": 1, "p99_9": 5, "p95": 4}}}]}
        r = result.read_object(result.JsonFile("r.json", "todo"), doc, "", Result)
        run = r.runs[0]
        self.assertEqual((r.tool.version, run.rate.backlog.max_lag_ns, run.rate.held,
                          run.wal.committers, run.checkpoint.file_syncs),
                         ("0.1.0", 7, True, 4, 16))
        self.assertEqual((run.interference.cpu.other_cpus, run.interference.devices[0].bytes,
                          run.start_time), (0.5, 9, "t"))
        self.assertEqual(run.parts["total"].percentiles, {"p99_9": 5, "p95": 4})


class SchemaRulesTest(unittest.TestCase):
    def test_every_property_is_described(self):
        for path, nodes in schemalib.property_nodes(SCHEMA).items():
            for node in nodes:
                with self.subTest(path=path):
                    self.assertTrue(schemalib.description(SCHEMA, node), path)

    def test_every_key_is_an_identifier(self):
        """The reader writes a key's JSON path as where.key."""
        for path in schemalib.property_paths(SCHEMA):
            name = path.rsplit(".", 1)[-1].rstrip("[]")
            if not name.startswith("<"):
                self.assertRegex(name, r"^[a-z_][a-z0-9_]*$", path)

    def test_the_percentile_keys_and_their_pattern_are_the_readers(self):
        figures = SCHEMA["$defs"]["summary_figures"]
        self.assertEqual(list(figures["patternProperties"]), [PERCENTILE_KEY.pattern])
        required = tuple(k for k in figures["required"] if PERCENTILE_KEY.match(k))
        self.assertEqual(required, PERCENTILES)
        self.assertEqual(list(SCHEMA["$defs"]["latency"]["properties"]), list(PARTS))

    def test_the_name_and_version_are_the_readers(self):
        self.assertEqual(SCHEMA["properties"]["schema"]["const"], RESULT_SCHEMA)
        self.assertEqual(SCHEMA["properties"]["schema_version"]["const"],
                         max(SUPPORTED_RESULT_VERSIONS))


def is_result_file(path):
    with open(path, encoding="utf-8") as f:
        return RESULT_SCHEMA in f.read(200)


class EarlierFilesTest(unittest.TestCase):
    def test_the_fixtures_of_earlier_releases_hold_to_the_schema(self):
        """Files of schema 1 and of early schema 2 lack keys diskio writes
        now, but have none the schema does not know, each of its type."""
        try:
            check = schemalib.validator(schemalib.relaxed(SCHEMA), skip=False)
        except ImportError:
            self.skipTest("python3-jsonschema is not installed")
        fixtures = os.path.join(schemalib.TOP_SRCDIR, "tests", "scripts", "fixtures")
        paths = [p for p in glob.glob(os.path.join(fixtures, "**", "*.json"), recursive=True)
                 if is_result_file(p)]
        self.assertGreaterEqual(len(paths), 10)
        for path in paths:
            with self.subTest(path=os.path.relpath(path, fixtures)), \
                    open(path, encoding="utf-8") as f:
                self.assertEqual(schemalib.errors(check, json.load(f)), [])


if __name__ == "__main__":
    unittest.main()
