# SPDX-License-Identifier: MIT
"""Description: the result reader's fields are made from doc/result-schema.json: a key added is read, no edit.

python/make-result-types.py writes _result_types.py (the schema's
objects and their keys) from the schema when diskio is built, and
resulttypes.py makes the reader's dataclasses from it.  So the module
the package imports is the one the schema makes now; a copy of the
package given a schema with keys added (one in a run, whose class has
methods of its own, and one in an object the schema newly defines)
reads them, checked as the schema says, its methods unchanged; and
_result_keys.py, what mypy knows of each class, types each key as the
reader does."""

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import typing
import unittest

import schemalib
from diskio_analysis import _result_keys, _result_types, result, resulttypes

GENERATOR = os.path.join(schemalib.TOP_SRCDIR, "python", "make-result-types.py")
PACKAGE = os.path.join(schemalib.TOP_SRCDIR, "python", "diskio_analysis")
CLASS_MODULES = [os.path.join(PACKAGE, name + ".py") for name in resulttypes.DECLARING]

# a copy of the package on a schema with keys added reads this file and
# says what it read
PROBE = r"""
import dataclasses, json, sys, typing
from diskio_analysis import result
doc = json.loads(sys.argv[1])
try:
    r = result.read_object(result.JsonFile("r.json", "todo"), doc, "", result.Result)
except result.InputError as err:
    print(json.dumps({"error": str(err)}))
    sys.exit(0)
run = r.runs[0]
hints = typing.get_type_hints(result.Run)
print(json.dumps({"queue_wait_ns": run.queue_wait_ns, "hint": repr(hints["queue_wait_ns"]),
                  "workload": run.workload, "total": run.parts["total"].count,
                  "probe": run.probe and [run.probe.kind, run.probe.hits],
                  "probe_class": type(run.probe).__name__,
                  "fields": [f.name for f in dataclasses.fields(result.Run)][:4]}))
"""


def generate(*args):
    return subprocess.run([sys.executable, GENERATOR, *args], check=True,
                          capture_output=True, text=True).stdout


def with_keys_added(schema):
    """The schema with a key added to run, and one more: an object of
    its own."""
    schema = json.loads(json.dumps(schema))
    run = schema["$defs"]["run"]
    run["properties"]["queue_wait_ns"] = {
        "description": "A key diskio does not write yet.", "type": ["integer", "null"],
        "minimum": 0}
    run["properties"]["probe"] = {"description": "An object of its own.",
                                  "oneOf": [{"$ref": "#/$defs/probe"}, {"type": "null"}]}
    schema["$defs"]["probe"] = {
        "description": "A new object.", "type": "object",
        "properties": {"kind": {"description": "Its kind.", "type": "string",
                                "enum": ["a", "b"]},
                       "hits": {"description": "How many.", "type": "integer"}},
        "required": ["kind", "hits"], "additionalProperties": False}
    return schema


class GeneratedModuleTest(unittest.TestCase):
    def test_the_module_the_package_reads_is_the_schemas(self):
        with open(_result_types.__file__, encoding="utf-8") as f:
            self.assertEqual(f.read(), generate(schemalib.SCHEMA_PATH),
                             "_result_types.py is not what doc/result-schema.json makes: "
                             "run make")

    def test_every_object_of_the_schema_has_a_class(self):
        schema = schemalib.load_schema()
        defined = {name for name, node in schema["$defs"].items() if "properties" in node}
        self.assertLessEqual(defined | {"result"}, set(_result_types.OBJECTS))
        self.assertEqual([row[0] for row in _result_types.OBJECTS["run"][1]],
                         list(schema["$defs"]["run"]["properties"]))
        for name in _result_types.OBJECTS:
            cls = resulttypes.schema_class(name)
            with self.subTest(object=name):
                self.assertTrue(dataclasses.is_dataclass(cls), name)

    def test_what_mypy_knows_of_a_class_is_what_the_reader_reads(self):
        with open(_result_keys.__file__, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text, generate("--keys", schemalib.SCHEMA_PATH, *CLASS_MODULES))
        # the annotations mypy reads (if TYPE_CHECKING:), evaluated here
        space = {"__name__": "diskio_analysis._keys_probe", "__package__": "diskio_analysis"}
        exec(compile(text.replace("if TYPE_CHECKING:", "if True:"), "_result_keys", "exec"),
             space)
        checked = 0
        for name in _result_types.OBJECTS:
            cls = resulttypes.schema_class(name)
            keys = space.get(cls.__name__ + "Keys")
            if keys is None:
                continue
            hints = typing.get_type_hints(cls)
            for key, hint in keys.__annotations__.items():
                with self.subTest(cls=cls.__name__, key=key):
                    self.assertEqual(hint, hints[key])
                    checked += 1
        self.assertGreater(checked, 300)

    def test_a_read_naming_no_key_is_refused(self):
        class Stray:
            no_such_key = resulttypes.read(1)
        with self.assertRaisesRegex(TypeError, "Stray.no_such_key: no key"):
            resulttypes.declared(Stray, _result_types.OBJECTS["run"][1])


class KeyAddedTest(unittest.TestCase):
    """A copy of the package, its _result_types.py made from a copy of
    the schema with keys added."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="t-result-types.")
        copy = os.path.join(cls.tmp, "diskio_analysis")
        os.mkdir(copy)
        # the package's modules (the reader is among them), not their
        # modes: the source tree is read-only in make distcheck
        for name in os.listdir(PACKAGE):
            if name.endswith(".py"):
                shutil.copyfile(os.path.join(PACKAGE, name), os.path.join(copy, name))
        schema_path = os.path.join(cls.tmp, "result-schema.json")
        with open(schema_path, "w", encoding="utf-8") as f:
            json.dump(with_keys_added(schemalib.load_schema()), f)
        with open(os.path.join(copy, "_result_types.py"), "w", encoding="utf-8") as f:
            f.write(generate(schema_path))
        shutil.copy(_result_keys.__file__, os.path.join(copy, "_result_keys.py"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def probe(self, **run):
        doc = {"schema": "diskio-result", "schema_version": 2,
               "runs": [{"mode": "fsync", "parameters": {"block_size": 4096},
                         "latency": {"total": {"count": 3}}, **run}]}
        env = dict(os.environ, PYTHONPATH=self.tmp, PYTHONDONTWRITEBYTECODE="1")
        out = subprocess.run([sys.executable, "-c", PROBE, json.dumps(doc)], env=env,
                             check=True, capture_output=True, text=True).stdout
        return json.loads(out)

    def test_a_key_added_to_the_schema_is_read(self):
        seen = self.probe(queue_wait_ns=7, probe={"kind": "a", "hits": 2})
        self.assertEqual(seen["queue_wait_ns"], 7)
        self.assertEqual(seen["hint"], "typing.Optional[int]")
        self.assertEqual(seen["probe"], ["a", 2])
        self.assertEqual(seen["probe_class"], "Probe")
        # the class's own fields and methods are as they were
        self.assertEqual((seen["workload"], seen["total"]), ("fsync", 3))
        self.assertEqual(seen["fields"][:3], ["where", "mode", "parameters"])

    def test_the_added_key_is_checked_as_the_schema_says(self):
        self.assertIn("runs[0].queue_wait_ns", self.probe(queue_wait_ns=-1)["error"])
        self.assertIn("runs[0].probe.kind", self.probe(probe={"kind": "c", "hits": 2})["error"])

    def test_a_file_without_it_reads_as_before(self):
        seen = self.probe()
        self.assertEqual((seen["queue_wait_ns"], seen["probe"], seen["workload"]),
                         (None, None, "fsync"))

    def test_the_package_itself_lacks_it(self):
        """The keys are the copy's: the package the tests run has none."""
        self.assertNotIn("queue_wait_ns", {f.name for f in dataclasses.fields(result.Run)})


if __name__ == "__main__":
    unittest.main()
