#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: doc/result-schema.md shows every key of doc/result-schema.json, and none the schema lacks.

doc/result-schema.md explains the format doc/result-schema.json defines,
with a commented JSON example of each object.  Every ```json block of the
page opens with a marker naming the schema's definitions it shows
(<!-- schema: run parameters rate ... -->; # is the top level), and:
every key a block shows (a "key": anywhere in it, its comments too) is a
key of the definitions it names (their own keys and those of the objects
written inside them), a percentile key of their pattern, an example key
of a free-form object of theirs, or the key under which one of them
stands; every key of every definition is shown by a block that names
it; and every definition with keys of its own is named by a block."""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import schemalib  # noqa: E402

SRC = schemalib.TOP_SRCDIR
DOC = os.path.join(SRC, "doc", "result-schema.md")
BLOCK = re.compile(r"^```json\n(.*?)^```", re.M | re.S)
MARKER = re.compile(r"<!-- schema: ([^>]*?) -->\s*$")
KEY = re.compile(r'"([^"\s]+)"\s*:')
failures = []


def check(cond, what, detail=""):
    print(("ok   " if cond else "FAIL ") + what + (f": {detail}" if detail and not cond else ""))
    if not cond:
        failures.append(what)


def own_keys(node, found):
    """found gets the keys a definition holds itself: its properties and
    those of the objects written inside it (not behind a $ref), with the
    patterns of its keys and its examples' keys."""
    for key in ("oneOf", "anyOf", "allOf"):
        for alternative in node.get(key, []):
            own_keys(alternative, found)
    if isinstance(node.get("items"), dict):
        own_keys(node["items"], found)
    for name, sub in node.get("properties", {}).items():
        found["keys"].add(name)
        own_keys(sub, found)
        for example in sub.get("examples", []):
            found["examples"].update(example)
    found["patterns"].update(re.compile(p) for p in node.get("patternProperties", {}))
    found["keys"].update(k for k in node.get("required", [])
                         if k not in node.get("properties", {}))   # pattern keys
    return found


def new_found():
    return {"keys": set(), "patterns": set(), "examples": set()}


def defs_and_names(schema):
    """{definition: what it holds itself}, # the top level, and
    {definition: the keys under which it stands}."""
    held = {"#": own_keys(schema, new_found())}
    for name, node in schema["$defs"].items():
        held[name] = own_keys(node, new_found())
    stands = {}

    def walk(node, key=None):
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/") and key:
                stands.setdefault(ref[len("#/$defs/"):], set()).add(key)
            for k, v in node.items():
                if k == "properties":
                    for name, sub in v.items():
                        walk(sub, name)
                else:
                    walk(v, key if k in ("oneOf", "anyOf", "items", "allOf") or
                         isinstance(v, list) else None)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
    walk(schema)
    return held, stands


def main():
    schema = schemalib.load_schema()
    held, stands = defs_and_names(schema)
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    shown = {}                       # definition: the keys its block shows
    for match in BLOCK.finditer(text):
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        line = text.count("\n", 0, match.start()) + 1
        marker = MARKER.search(before)
        check(marker is not None, f"result-schema.md:{line}: the block names its definitions",
              f"no <!-- schema: ... --> on the line before it: {before!r}")
        if marker is None:
            continue
        names = marker.group(1).split()
        unknown = [n for n in names if n not in held]
        check(not unknown, f"result-schema.md:{line}: its definitions are the schema's",
              f"{unknown} not in doc/result-schema.json's $defs")
        names = [n for n in names if n in held]
        keys = set(KEY.findall(match.group(1)))
        allowed = set().union(*(held[n]["keys"] | held[n]["examples"] |
                                stands.get(n, set()) for n in names))
        patterns = set().union(*(held[n]["patterns"] for n in names))
        extra = sorted(k for k in keys - allowed if not any(p.match(k) for p in patterns))
        check(not extra, f"result-schema.md:{line} ({' '.join(names)}): "
              "every key shown is the schema's", f"not in the schema: {extra}")
        for name in names:
            check(name not in shown, f"{name}: shown by one block only")
            shown[name] = keys
    for name, found in held.items():
        if not found["keys"]:
            continue
        check(name in shown, f"{name}: a block of result-schema.md shows it",
              "no block names it in its <!-- schema: --> marker")
        missing = sorted(found["keys"] - shown.get(name, set()))
        check(not missing, f"{name}: every key is shown", f"not in its block: {missing}")
    if failures:
        print(f"{len(failures)} check(s) failed: doc/result-schema.md and "
              "doc/result-schema.json disagree")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
