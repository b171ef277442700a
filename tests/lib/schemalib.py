# SPDX-License-Identifier: MIT
"""The result schema (doc/result-schema.json) for the tests: its
validator (python3-jsonschema, draft 2020-12), its property paths, and a
command that validates result files against it.

A property path names a key wherever it may stand, its arrays as []:
runs[].latency.total.count, environment.target.devices[].name; a key
matched by a pattern is <PATTERN> (runs[].latency.total.<^p[0-9]+...>)
and any key of a free-form object <*> (runs[].params.<*>).

    python3 tests/lib/schemalib.py FILE...   validate results: exit 0, 1
"""

import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.dirname(os.path.dirname(HERE))
SCHEMA_PATH = os.path.join(TOP_SRCDIR, "doc", "result-schema.json")
EXIT_SKIP = 77


def load_schema(path=SCHEMA_PATH):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def validator(schema=None, skip=True):
    """A draft 2020-12 validator of schema (the result schema by default),
    the schema itself checked first.  Without python3-jsonschema the
    calling test is skipped (exit 77) unless skip is False."""
    try:
        import jsonschema
    except ImportError:
        if not skip:
            raise
        print(f"SKIP: python3-jsonschema is not installed for {sys.executable} "
              "(apt-get install python3-jsonschema; configure with PYTHON=/usr/bin/python3)")
        sys.exit(EXIT_SKIP)
    schema = load_schema() if schema is None else schema
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors(check, doc):
    """Every way doc breaks the schema: 'JSON/path: message', sorted."""
    found = []
    for err in check.iter_errors(doc):
        # a oneOf's own message is the whole value: the deepest error of
        # its alternatives says what is wrong, and where
        while err.context:
            err = max(err.context, key=lambda e: len(e.absolute_path))
        path = "/".join(str(p) for p in err.absolute_path) or "(top)"
        found.append(f"{path}: {err.message[:300]}")
    return sorted(found)


def relaxed(schema):
    """The schema with nothing required and any schema_version: what every
    release's files (the fixtures of schema 1 too) still hold to: no key
    the schema does not know, every value of its type."""
    loose = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            node.pop("required", None)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(loose)
    loose["properties"]["schema_version"] = {"type": "integer", "minimum": 1}
    return loose


def deref(schema, ref):
    """The node a local $ref (#/$defs/NAME) points to."""
    node = schema
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def join(prefix, key):
    return f"{prefix}.{key}" if prefix else key


def property_nodes(schema, node=None, prefix="", out=None):
    """{property path: [its schema nodes]} of every property the schema
    allows, through $ref, oneOf/anyOf and arrays."""
    out = {} if out is None else out
    node = schema if node is None else node
    if "$ref" in node:
        property_nodes(schema, deref(schema, node["$ref"]), prefix, out)
    for key in ("oneOf", "anyOf", "allOf"):
        for alternative in node.get(key, []):
            property_nodes(schema, alternative, prefix, out)
    items = node.get("items")
    if isinstance(items, dict):
        property_nodes(schema, items, prefix + "[]", out)
    subs = list(node.get("properties", {}).items())
    subs += [(f"<{p}>", sub) for p, sub in node.get("patternProperties", {}).items()]
    if isinstance(node.get("additionalProperties"), dict):
        subs.append(("<*>", node["additionalProperties"]))
    for key, sub in subs:
        path = join(prefix, key)
        out.setdefault(path, []).append(sub)
        property_nodes(schema, sub, path, out)
    return out


def property_paths(schema):
    """Every property path the schema allows."""
    return set(property_nodes(schema))


def description(schema, node):
    """A property's description: its own, or that of the definition it
    refers to."""
    if "description" in node:
        return node["description"]
    if "$ref" in node:
        return description(schema, deref(schema, node["$ref"]))
    return None


def main(paths):
    check = validator()
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            found = errors(check, json.load(f))
        for line in found:
            print(f"{path}: {line}")
        bad += bool(found)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
