#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Description: the column table's JSON keys are the schema's, its CSV columns doc/result-schema.md's.

The figures every output prints are one table (src/lib/columns.def),
which tests/column-table prints a line a column (its scope, CSV header,
JSON key and the JSON type of its value).  Every column with a JSON key
is a property of the schema's object for its scope (a run's figure of
the run object, a part's of the HIST, a percentile one of the HIST's
percentile pattern) whose type admits the value's; every key of the HIST
but its buckets' (max_trackable_ns, sub_buckets, buckets) is a column's,
so that a figure added to the schema without a column fails here; and
the CSV header the library writes is doc/result-schema.md's, the key
columns of its table followed by the columns of its code block, so that
a column added to the table without its line in the page fails here."""

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import schemalib  # noqa: E402

TOP_BUILDDIR = os.path.abspath(os.environ.get("top_builddir") or schemalib.TOP_SRCDIR)
DOC = os.path.join(schemalib.TOP_SRCDIR, "doc", "result-schema.md")
# a HIST's keys that describe its buckets, not a figure of the part
BUCKET_KEYS = {"max_trackable_ns", "sub_buckets", "buckets"}
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def types_of(prop):
    """The JSON types a schema property admits (its oneOf's too)."""
    found = set()
    kind = prop.get("type")
    found.update([kind] if isinstance(kind, str) else kind or [])
    for alt in prop.get("oneOf", []) + prop.get("anyOf", []):
        found.update(types_of(alt))
    if "enum" in prop:
        found.update({"string"} if any(isinstance(v, str) for v in prop["enum"]) else set())
    return found


def admits(prop, kind):
    types = types_of(prop)
    return kind in types or (kind == "integer" and "number" in types)


def object_keys(defs, name):
    """A definition's properties, those of the definition it $refs too,
    and its pattern properties."""
    node = defs[name]
    props = dict(node.get("properties", {}))
    patterns = dict(node.get("patternProperties", {}))
    ref = node.get("$ref")
    if ref:
        base = defs[ref.rsplit("/", 1)[1]]
        props.update(base.get("properties", {}))
        patterns.update(base.get("patternProperties", {}))
    return props, patterns


def table():
    program = os.path.join(TOP_BUILDDIR, "tests", "column-table")
    if not os.access(program, os.X_OK):
        print(f"FAIL: {program} is missing, yet make check builds it: this build is broken")
        sys.exit(1)
    out = subprocess.run([program], check=True, capture_output=True, text=True).stdout
    rows = [line.split() for line in out.splitlines()]
    header = subprocess.run([program, "csv-header"], check=True, capture_output=True,
                            text=True).stdout
    return rows, header


def check_json(rows, defs):
    objects = {"run": object_keys(defs, "run"), "part": object_keys(defs, "hist")}
    seen = set()
    for ident, scope, _csv, key, kind in rows:
        if key == "-":
            continue
        props, patterns = objects[scope]
        if "%s" in key:
            example = key.replace("%s", "p99_9")
            key = key.replace("%s", "pN")
            prop = next((p for pat, p in patterns.items() if re.fullmatch(pat, example)), None)
            seen.add("<percentiles>")
        else:
            prop = props.get(key)
            seen.add(key)
        where = "run" if scope == "run" else "hist"
        check(prop is not None, f"column {ident}: {key} is a key of the schema's {where}")
        if prop is not None:
            check(admits(prop, kind), f"column {ident}: the schema's {where}.{key} admits {kind}")
    hist_props, hist_patterns = objects["part"]
    for key in sorted(set(hist_props) - BUCKET_KEYS):
        check(key in seen, f"the HIST's {key} is a column of the table")
    check(not hist_patterns or "<percentiles>" in seen, "the HIST's percentiles are a column")


def documented_csv():
    """doc/result-schema.md's CSV header: its key table's first column,
    then its code block after the keys, as one line."""
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    at = text.index("## The CSV")
    part = text[at:text.index("\n## ", at + 1)]
    keys = re.findall(r"^\| `([a-z_0-9]+)` \|", part, re.M)
    block = re.search(r"After the keys:\n\n```\n(.*?)^```", part, re.M | re.S)
    figures = block.group(1).replace("\n", "") if block else ""
    return keys + figures.split(",")


def main():
    rows, header = table()
    check(len(rows) > 10 and all(len(r) == 5 for r in rows),
          "tests/column-table prints a line of five fields per column")
    defs = schemalib.load_schema()["$defs"]
    check_json(rows, defs)
    written = header.rstrip("\n").split(",")
    documented = documented_csv()
    for name in written:
        check(name in documented, f"doc/result-schema.md's CSV section lists {name}")
    check(written == documented,
          "doc/result-schema.md's CSV columns are the library's, in its order")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
