#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write _result_types.py, the result schema's objects as field tables,
from doc/result-schema.json, the one source of the format; and
_result_keys.py, the annotations of their keys for mypy.

    make-result-types.py SCHEMA > python/diskio_analysis/_result_types.py
    make-result-types.py --keys SCHEMA MODULE.py... > .../_result_keys.py

Each object of the schema (each of its $defs that is an object, the
document itself as "result", and an object written inline in another as
"OUTER.KEY": "environment.kernel") becomes a row of OBJECTS: the object
it extends ($ref beside its own properties: "hist" extends
"summary_figures") and each of its properties, in the schema's order, as
(key, kind, nullable, minimum, choices, nonempty, most).  A kind is
"bool", "int", "float", "str", "object:NAME", "list:KIND", "dict:KIND"
or "any"; a $def that only names another ("summary" is
"summary_figures") is that other.  resulttypes.py builds the reader's
dataclasses from these tables when the package is imported, so a key
added to the schema is a field of the reader with no edit of the
package.

mypy cannot run that: for it, _result_keys.py declares, for each class
the MODULEs declare for an object (@schema_object, found in their
source, never run), a class <Class>Keys with an annotation for each key,
typed as resulttypes.py types it (Optional unless the class's read()
gives a default), which the class extends (object when the code runs).

Run when diskio is built (Makefile.am), as make-modes is;
tests/python/test_result_types.py runs it on the schema and on a copy
of it with a key added."""

import ast
import json
import os
import pprint
import re
import sys

HEADER = '''\
# SPDX-License-Identifier: MIT
"""The result schema's objects (doc/result-schema.json), made from it by
python/make-result-types.py when diskio is built: do not edit.

OBJECTS: name -> (the object it extends or None, its keys), each key
(key, kind, nullable, minimum, choices, nonempty, most)."""

from typing import Dict, Optional, Tuple

Key = Tuple[str, str, bool, Optional[float], Tuple[str, ...], bool, Optional[int]]

'''
KEYS_HEADER = '''\
# SPDX-License-Identifier: MIT
"""The keys of each class the package declares for an object of the
result schema (doc/result-schema.json), as annotations of a class it
extends, for mypy; object when the code runs.  Made by
python/make-result-types.py when diskio is built: do not edit."""

from typing import TYPE_CHECKING, TYPING
'''


def ref_name(schema, ref):
    """The $def a local $ref names, followed through $defs that only name
    another (summary -> summary_figures)."""
    prefix = "#/$defs/"
    if not ref.startswith(prefix):
        raise ValueError(f"not a local $ref: {ref}")
    name = ref[len(prefix):]
    node = schema["$defs"][name]
    if "$ref" in node and "properties" not in node:
        return ref_name(schema, node["$ref"])
    return name


def alternatives(node):
    """A node's alternatives other than null, and whether null is one."""
    nodes = node.get("oneOf") or node.get("anyOf") or [node]
    nullable = any(n.get("type") == "null" for n in nodes)
    return [n for n in nodes if n.get("type") != "null"], nullable


def json_types(node):
    """The JSON types a node names (type, enum, const), null aside, and
    whether null is one of them."""
    declared = node.get("type", [])
    types = [declared] if isinstance(declared, str) else list(declared)
    values = node.get("enum", []) + ([node["const"]] if "const" in node else [])
    for value in values:
        types.append({bool: "boolean", int: "integer", float: "number", str: "string",
                      type(None): "null"}[type(value)])
    nullable = "null" in types
    return [t for t in dict.fromkeys(types) if t != "null"], nullable


def kind_of(schema, node, path, objects):
    """The kind of the value node describes at path, and whether it may be
    null; an inline object is added to objects as path."""
    nodes, nullable = alternatives(node)
    if len(nodes) != 1:
        raise ValueError(f"{path}: {len(nodes)} alternatives besides null")
    (node,) = nodes
    if "$ref" in node:
        return "object:" + ref_name(schema, node["$ref"]), nullable
    types, null_type = json_types(node)
    nullable = nullable or null_type
    if types == ["object"] and "properties" in node:
        add_object(schema, path, node, objects)
        return "object:" + path, nullable
    if types == ["object"]:
        items = node.get("additionalProperties")
        inner = kind_of(schema, items, path, objects)[0] if isinstance(items, dict) else "any"
        return "dict:" + inner, nullable
    if types == ["array"]:
        items = node.get("items")
        inner = kind_of(schema, items, path, objects)[0] if isinstance(items, dict) else "any"
        return "list:" + inner, nullable
    scalar = {("boolean",): "bool", ("integer",): "int", ("number",): "float",
              ("integer", "number"): "float", ("number", "integer"): "float",
              ("string",): "str"}
    return scalar.get(tuple(types), "any"), nullable


def key_row(schema, outer, key, node, objects):
    """One key's row: (key, kind, nullable, minimum, choices, nonempty,
    most)."""
    kind, nullable = kind_of(schema, node, f"{outer}.{key}", objects)
    nodes, _ = alternatives(node)
    facts = nodes[0]
    minimum = facts.get("minimum", facts.get("exclusiveMinimum"))
    choices = tuple(v for v in facts.get("enum", []) if isinstance(v, str))
    return (key, kind, nullable, minimum, choices, facts.get("minLength", 0) > 0,
            facts.get("maxItems"))


def add_object(schema, name, node, objects):
    """The object node as objects[name] (and the objects inline in it)."""
    base = ref_name(schema, node["$ref"]) if "$ref" in node else None
    objects[name] = None    # its place: an object before those inline in it
    rows = [key_row(schema, name, key, value, objects)
            for key, value in node.get("properties", {}).items()]
    objects[name] = (base, tuple(rows))


def result_objects(schema):
    """Every object of the schema: name -> (base, rows)."""
    objects = {}
    add_object(schema, "result", schema, objects)
    for name, node in schema["$defs"].items():
        if "properties" in node:
            add_object(schema, name, node, objects)
    return objects


def declared_classes(paths):
    """{object: (class, module, {key: read()'s facts}, {keys the class
    reads itself})} of the classes schema_object() declares in the
    modules at paths, from their source (never run)."""
    found = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        module = os.path.splitext(os.path.basename(path))[0]
        for node in tree.body:
            for decorator in getattr(node, "decorator_list", []):
                if (isinstance(decorator, ast.Call)
                        and getattr(decorator.func, "id", None) == "schema_object"):
                    reads, owns = class_body(node)
                    found[decorator.args[0].value] = (node.name, module, reads, owns)
    return found


def class_body(node):
    """A declared class's read()s ({key: (a default given, number=True)})
    and the keys its own fields (and any field it annotates) stand for."""
    reads, owns = {}, set()
    for stmt in node.body:
        call = getattr(stmt, "value", None)
        name = getattr(call, "func", None) if isinstance(call, ast.Call) else None
        if isinstance(stmt, ast.Assign) and getattr(name, "id", None) == "read":
            default = call.args[0] if call.args else None
            given = not (default is None or isinstance(default, ast.Constant)
                         and default.value is None)
            number = any(k.arg == "number" and getattr(k.value, "value", False)
                         for k in call.keywords)
            reads[stmt.targets[0].id] = (given, number)
        elif isinstance(stmt, ast.AnnAssign):
            key = stmt.target.id
            if getattr(name, "id", None) == "own" and call.args:
                key = call.args[0].value.split(".")[0]
            owns.add(key)
    return reads, owns


def annotation(kind, classes):
    """The Python type of a kind, as the declared classes' names."""
    if kind.startswith("object:"):
        declared = classes.get(kind[len("object:"):])
        return declared[0] if declared else "Any"
    for prefix, generic in (("list:", "List[{}]"), ("dict:", "Dict[str, {}]")):
        if kind.startswith(prefix):
            return generic.format(annotation(kind[len(prefix):], classes))
    return {"bool": "bool", "int": "int", "float": "float", "str": "str"}.get(kind, "Any")


def key_lines(rows, declared, classes):
    """The annotations of a declared class's keys, as the reader reads
    them (the runtime's, resulttypes.py: Optional unless a default is
    given)."""
    _, _, reads, owns = declared
    lines = []
    for key, kind, nullable, *_ in rows:
        if key in owns:
            continue
        given, number = reads.get(key, (False, False))
        hint = annotation("float" if number else kind, classes)
        if not (given or kind.startswith(("list:", "dict:")) and not nullable):
            hint = f"Optional[{hint}]"
        lines.append(f"        {key}: {hint}")
    return lines or ["        pass"]


def keys_text(objects, classes):
    """The text of _result_keys.py: for mypy, each declared class's keys
    as the annotations of a class it extends (<Class>Keys)."""
    missing = sorted(set(classes) - set(objects))
    if missing:
        raise ValueError(f"classes declared for no object of the schema: {missing}")
    bodies, rest = [], ["else:"]
    for name, declared in classes.items():
        bodies += ["", f"    class {declared[0]}Keys:"]
        bodies += key_lines(objects[name][1], declared, classes)
        rest.append(f"    {declared[0]}Keys = object")
    used = set(re.findall(r"\w+", " ".join(line.split(":", 1)[-1] for line in bodies)))
    lines = [""]
    for module in sorted({module for _, module, _, _ in classes.values()}):
        names = sorted(c for c, m, _, _ in classes.values() if m == module and c in used)
        if names:
            lines += wrapped(f"    from .{module} import (", names, ")")
    typing_names = ", ".join(n for n in ("Any", "Dict", "List", "Optional") if n in used)
    header = KEYS_HEADER.replace("TYPING", typing_names) + "\nif TYPE_CHECKING:"
    return header + "\n".join(lines + bodies + rest + [""])


def wrapped(first, names, last):
    """first, names joined by commas, last, in lines of at most 96."""
    lines, line = [], first
    for i, name in enumerate(names):
        piece = name + (", " if i + 1 < len(names) else last)
        if len(line) + len(piece.rstrip()) > 96:
            lines.append(line.rstrip())
            line = " " * len(first)
        line += piece
    return lines + [line]


def row_text(row):
    """A key's row, wrapped to 100 columns."""
    text = pprint.pformat(row, width=90)
    return [" " * 8 + line for line in (text + ",").split("\n")]


def module_text(schema):
    """The text of _result_types.py for schema."""
    lines = ["OBJECTS: Dict[str, Tuple[Optional[str], Tuple[Key, ...]]] = {"]
    for name, (base, rows) in result_objects(schema).items():
        lines.append(f"    {name!r}: ({base!r}, (")
        for row in rows:
            lines += row_text(row)
        lines.append("    )),")
    return HEADER + "\n".join(lines + ["}", ""])


def main(argv):
    keys = argv[1:2] == ["--keys"]
    args = argv[2:] if keys else argv[1:]
    if len(args) < 1 or (len(args) > 1) != keys:
        print("usage: make-result-types.py SCHEMA\n"
              "       make-result-types.py --keys SCHEMA MODULE.py...", file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        schema = json.load(f)
    if keys:
        sys.stdout.write(keys_text(result_objects(schema), declared_classes(args[1:])))
    else:
        sys.stdout.write(module_text(schema))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
