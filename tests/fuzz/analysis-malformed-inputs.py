#!/usr/bin/env python3
"""Description: hundreds of malformed inputs never crash diskio-correlate or diskio-plot.

Randomized malformed-input test for diskio-correlate and diskio-plot.

From the fixtures in tests/scripts/fixtures, generate a few hundred
deterministic (seeded) mutations of every input kind the scripts read
(diskio result JSON, fio JSON, q_time.csv, phases.csv, metrics.csv,
wal.csv, per-op trace CSV, diskio-correlate JSON report): truncation,
byte flips, deleted/duplicated/swapped lines, swapped columns, bad cell
values (non-numeric, negative, zero, huge, NaN, inf), wrong JSON types,
keys given twice, unknown schema versions, empty files, binary garbage,
deep nesting...

Each mutated file goes into a temporary environment directory beside a
valid baseline environment; diskio-correlate runs on the pair, and
diskio-plot on the mutated JSON/trace file (skipped without gnuplot).
Every run must:
  - finish (within 120 s: a hang, not a speed),
  - exit with a documented status (correlate: 0, 1, 2; plot: 0-4;
    correlate 3 and plot 5 are "internal error" and count as failures),
  - print no Python traceback,
  - say something on stderr when the status is non-zero,
  - print nothing on stdout when the status is 1 (bad input).

Environment: MALFORMED_SEED (default 20261122), MALFORMED_CASES (number
of mutations, default 320), MALFORMED_JOBS (parallel runs, default the
CPU count, at least 2), MALFORMED_KEEP=DIR (copy every failing input
there; default ./malformed-inputs.failures when something fails),
GNUPLOT (as for diskio-plot).  Exit 0 pass, 1 fail, 77 skip.
"""

import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import CORRELATE, EXIT_SKIP, FIXTURES, PLOT  # noqa: E402

SEED = int(os.environ.get("MALFORMED_SEED", "20261122"))
NCASES = int(os.environ.get("MALFORMED_CASES", "320"))
JOBS = int(os.environ.get("MALFORMED_JOBS", "0")) or max(2, os.cpu_count() or 2)
TIMEOUT = 120  # a hang, not a slow machine: a run takes about a second
CORRELATE_OK = {0, 1, 2}
PLOT_OK = {0, 1, 2, 3, 4}

BAD_CELLS = ["", " ", "abc", "-1", "-0", "0", "0.0", "-1e-300", "1e-320",
             "1e308", "1e309", "-1e309", "nan", "NaN", "-nan", "inf", "-inf",
             "Infinity", "99999999999999999999999999999999999999",
             "1" * 5000, "0x1f", "1_000", "1,5", "12abc", "\u00e9t\u00e9",
             "\x00", '"', '""', "'", "1 2", "+5", "5.", ".5", "1e", "--",
             "\ufeff42", "\t7\t"]

BAD_JSON_VALUES = ["abc", "12", "", [], {}, None, True, False, -1, 0, -0.0,
                   1e308, 1e-320, float("nan"), float("inf"), float("-inf"),
                   2 ** 64, -(2 ** 63), [None], [[]], {"": None}, [1, "x"],
                   {"mode": None}, "NaN"]

# Raw JSON tokens put in by text substitution (json.dumps cannot make them).
RAW_TOKENS = ["1" * 5000, "-" + "9" * 400, "1e999", "-1e999", "1e-999",
              "[" * 50000 + "]" * 50000, "{\"a\":" * 3000 + "1" + "}" * 3000,
              "[" * 500 + "]" * 500]

PLACEHOLDER = "__malformed_inputs_placeholder__"


# ---------------------------------------------------------------- mutators

def lines_of(data):
    return data.split(b"\n")


def m_truncate(rng, data):
    n = rng.randrange(len(data)) if data else 0
    return data[:n], f"truncated at byte {n}"


def m_flip(rng, data):
    if not data:
        return data, "flip on empty"
    buf = bytearray(data)
    k = rng.choice((1, 1, 2, 5, 20))
    where = sorted(rng.randrange(len(buf)) for _ in range(k))
    for i in where:
        buf[i] ^= rng.randrange(1, 256)
    return bytes(buf), f"{k} byte(s) flipped at {where[:5]}"


def m_empty(rng, data):
    return b"", "empty file"


def m_blank(rng, data):
    return rng.choice((b"\n", b"\n\n\n", b"   \n\t\n", b"\r\n")), "blank lines only"


def m_garbage(rng, data):
    n = rng.choice((1, 16, 512, 4096))
    return rng.randbytes(n), f"{n} bytes of binary garbage"


def m_insert_garbage(rng, data):
    pos = rng.randrange(len(data) + 1)
    junk = rng.choice((b"\x00", b"\xff\xfe", b"\x80\x81", b"\x1b[2J", b"\r"))
    return data[:pos] + junk + data[pos:], f"{junk!r} inserted at byte {pos}"


def m_bom_crlf(rng, data):
    if rng.random() < 0.5:
        return b"\xef\xbb\xbf" + data, "UTF-8 BOM prefixed"
    return data.replace(b"\n", b"\r\n"), "CRLF line ends"


def m_delete_lines(rng, data):
    lines = lines_of(data)
    k = rng.choice((1, 1, 2, 3))
    gone = sorted({rng.randrange(len(lines)) for _ in range(k)})
    return b"\n".join(l for i, l in enumerate(lines) if i not in gone), \
        f"lines {[g + 1 for g in gone]} deleted"


def m_duplicate_line(rng, data):
    lines = lines_of(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines), f"line {i + 1} duplicated"


def m_swap_lines(rng, data):
    lines = lines_of(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines), f"lines {i + 1} and {j + 1} swapped"


def m_huge_line(rng, data):
    lines = lines_of(data)
    i = rng.randrange(len(lines) + 1)
    lines.insert(i, b"x" * 300000 if rng.random() < 0.5 else b"1," * 100000)
    return b"\n".join(lines), f"300 kB line inserted at line {i + 1}"


def m_repeat(rng, data):
    return data * 2, "content repeated twice"


BYTE_MUTATORS = [m_truncate, m_truncate, m_flip, m_flip, m_empty, m_blank,
                 m_garbage, m_insert_garbage, m_bom_crlf, m_delete_lines,
                 m_duplicate_line, m_swap_lines, m_huge_line, m_repeat]


def csv_rows(data):
    return [l.split(b",") for l in lines_of(data)]


def csv_join(rows):
    return b"\n".join(b",".join(r) for r in rows)


def data_rows(rows):
    """Indexes of rows that are data (not header, comment or blank)."""
    return [i for i, r in enumerate(rows)
            if i > 0 and r != [b""] and not r[0].startswith(b"#")] or [0]


def m_csv_swap_columns(rng, data):
    rows = csv_rows(data)
    width = max(len(r) for r in rows)
    if width < 2:
        return m_csv_bad_cell(rng, data)
    a, b = rng.sample(range(width), 2)
    header_only = rng.random() < 0.3
    for i, r in enumerate(rows):
        if (header_only and i > 0) or max(a, b) >= len(r):
            continue
        r[a], r[b] = r[b], r[a]
    return csv_join(rows), f"columns {a} and {b} swapped" + \
        (" in the header only" if header_only else "")


def m_csv_bad_cell(rng, data):
    rows = csv_rows(data)
    i = rng.choice(data_rows(rows))
    j = rng.randrange(len(rows[i]))
    bad = rng.choice(BAD_CELLS)
    rows[i][j] = bad.encode("utf-8")
    return csv_join(rows), f"row {i + 1} column {j} = {bad[:40]!r}"


def m_csv_bad_column(rng, data):
    rows = csv_rows(data)
    j = rng.randrange(max(len(r) for r in rows))
    bad = rng.choice(BAD_CELLS)
    for i in data_rows(rows):
        if j < len(rows[i]):
            rows[i][j] = bad.encode("utf-8")
    return csv_join(rows), f"every value of column {j} = {bad[:40]!r}"


def m_csv_drop_column(rng, data):
    rows = csv_rows(data)
    j = rng.randrange(max(len(r) for r in rows))
    where = rng.choice(("all", "header", "data"))
    for i, r in enumerate(rows):
        if j < len(r) and (where == "all" or (where == "header") == (i == 0)):
            del r[j]
    return csv_join(rows), f"column {j} dropped ({where} rows)"


def m_csv_extra_column(rng, data):
    rows = csv_rows(data)
    where = rng.choice(("all", "header", "data"))
    for i, r in enumerate(rows):
        if where == "all" or (where == "header") == (i == 0):
            r.append(b"extra" if i == 0 else b"1")
    return csv_join(rows), f"extra column ({where} rows)"


def m_csv_header_only(rng, data):
    return lines_of(data)[0] + b"\n", "header only"


def m_csv_no_header(rng, data):
    return b"\n".join(lines_of(data)[1:]), "header removed"


def m_csv_quotes(rng, data):
    rows = csv_rows(data)
    i = rng.randrange(len(rows))
    j = rng.randrange(len(rows[i]))
    rows[i][j] = rng.choice((b'"' + rows[i][j], b'"a\nb"', b'"x""y"', b'"unterminated'))
    return csv_join(rows), f"quoting damage at row {i + 1} column {j}"


def m_csv_duplicate_key(rng, data):
    rows = csv_rows(data)
    idx = data_rows(rows)
    i = rng.choice(idx)
    rows.insert(i + 1, list(rows[i]))
    return csv_join(rows), f"row {i + 1} duplicated (same key twice)"


CSV_MUTATORS = [m_csv_swap_columns, m_csv_swap_columns, m_csv_bad_cell,
                m_csv_bad_cell, m_csv_bad_cell, m_csv_bad_column,
                m_csv_bad_column, m_csv_drop_column, m_csv_extra_column,
                m_csv_header_only, m_csv_no_header, m_csv_quotes,
                m_csv_duplicate_key]


def json_paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from json_paths(v, path + (i,))


def json_set(doc, path, value):
    if not path:
        return value
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return doc


def json_dump(doc, raw=None):
    text = json.dumps(doc, indent=1)
    if raw is not None:
        text = text.replace(json.dumps(PLACEHOLDER), raw, 1)
    return text.encode("utf-8")


def pick_path(rng, doc):
    paths = list(json_paths(doc))
    # Favour the interesting upper levels: half the time a path of depth <= 3.
    if rng.random() < 0.5:
        short = [p for p in paths if len(p) <= 3]
        if short:
            return rng.choice(short)
    return rng.choice(paths)


def fmt_path(path):
    return "/" + "/".join(str(p) for p in path)


def m_json_bad_value(rng, doc):
    path = pick_path(rng, doc)
    value = rng.choice(BAD_JSON_VALUES)
    return json_dump(json_set(doc, path, value)), f"{fmt_path(path)} = {value!r}"


def m_json_raw_token(rng, doc):
    path = pick_path(rng, doc)
    raw = rng.choice(RAW_TOKENS)
    return json_dump(json_set(doc, path, PLACEHOLDER), raw), \
        f"{fmt_path(path)} = raw token {raw[:20]}... ({len(raw)} chars)"


def m_json_delete(rng, doc):
    paths = [p for p in json_paths(doc) if p]
    path = rng.choice(paths)
    node = doc
    for p in path[:-1]:
        node = node[p]
    del node[path[-1]]
    return json_dump(doc), f"{fmt_path(path)} deleted"


def m_json_empty_container(rng, doc):
    paths = [p for p in json_paths(doc) if isinstance(json_get(doc, p), (dict, list))]
    path = rng.choice(paths)
    node = json_get(doc, path)
    node.clear()
    return json_dump(doc), f"{fmt_path(path)} emptied"


def json_get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def json_map_leaves(node, fn):
    if isinstance(node, dict):
        return {k: json_map_leaves(v, fn) for k, v in node.items()}
    if isinstance(node, list):
        return [json_map_leaves(v, fn) for v in node]
    return fn(node)


def m_json_null_everywhere(rng, doc):
    keep = rng.random() < 0.5
    def fn(v):
        if keep and isinstance(v, str):
            return v   # keep schema/mode names so that parsing goes deeper
        return None
    return json_dump(json_map_leaves(doc, fn)), \
        "every leaf null" + (" except strings" if keep else "")


def m_json_numbers_as_strings(rng, doc):
    def fn(v):
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return str(v)
        return v
    return json_dump(json_map_leaves(doc, fn)), "every number a string"


def m_json_negate(rng, doc):
    factor = rng.choice((-1, 0, 1e300, 1e-300))
    def fn(v):
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return v * factor
        return v
    return json_dump(json_map_leaves(doc, fn)), f"every number times {factor}"


def m_json_lists_for_objects(rng, doc):
    paths = [p for p in json_paths(doc) if isinstance(json_get(doc, p), dict)]
    path = rng.choice(paths)
    node = json_get(doc, path)
    value = list(node.values()) if rng.random() < 0.5 else [node]
    return json_dump(json_set(doc, path, value)), f"{fmt_path(path)} object -> list"


def m_json_schema_version(rng, doc):
    if not isinstance(doc, dict):
        return m_json_bad_value(rng, doc)
    key = "schema_version" if "schema_version" in doc else rng.choice(list(doc))
    value = rng.choice((2, 0, -1, "1", 1.0, 1.5, None, True, [1], {"v": 1},
                       99999999999999999999))
    doc[key] = value
    return json_dump(doc), f"/{key} = {value!r}"


def m_json_schema_name(rng, doc):
    if not isinstance(doc, dict):
        return m_json_bad_value(rng, doc)
    value = rng.choice(("diskio-resul", "", None, 1, "diskio-correlate",
                        "diskio-result", ["diskio-result"]))
    key = "schema" if "schema" in doc else "fio version"
    doc[key] = value
    return json_dump(doc), f"/{key} = {value!r}"


def m_json_wrap(rng, doc):
    kind = rng.choice(("list", "string", "number", "null", "true", "object"))
    value = {"list": [doc], "string": "diskio", "number": 42, "null": None,
             "true": True, "object": {"data": doc}}[kind]
    return json_dump(value), f"top level is a {kind}"


def m_json_deep(rng, doc):
    depth = rng.choice((900, 5000, 200000))
    text = "[" * depth + "]" * depth if rng.random() < 0.5 else \
        '{"a":' * depth + "1" + "}" * depth
    return text.encode(), f"nesting {depth} deep at the top level"


def m_json_duplicate_runs(rng, doc):
    if isinstance(doc, dict):
        for key in ("runs", "jobs", "phases", "metrics"):
            if isinstance(doc.get(key), list) and doc[key]:
                doc[key] = doc[key] + doc[key]
                return json_dump(doc), f"/{key} entries duplicated"
    return m_json_delete(rng, doc)


def m_json_repeated_key(rng, doc):
    """A key of an object given twice, the second time with another value
    (json.dumps cannot write it: the object is written raw)."""
    paths = [p for p in json_paths(doc) if isinstance(json_get(doc, p), dict)
             and json_get(doc, p)]
    if not paths:
        return m_json_bad_value(rng, doc)
    path = rng.choice(paths)
    node = json_get(doc, path)
    key = rng.choice(list(node))
    pairs = list(node.items()) + [(key, rng.choice(BAD_JSON_VALUES[:12]))]
    raw = "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pairs) + "}"
    return json_dump(json_set(doc, path, PLACEHOLDER), raw), \
        f"{fmt_path(path)}/{key} given twice"


JSON_MUTATORS = [m_json_bad_value, m_json_bad_value, m_json_bad_value,
                 m_json_bad_value, m_json_raw_token, m_json_delete, m_json_repeated_key,
                 m_json_delete, m_json_empty_container, m_json_null_everywhere,
                 m_json_numbers_as_strings, m_json_negate,
                 m_json_lists_for_objects, m_json_lists_for_objects,
                 m_json_schema_version, m_json_schema_name, m_json_wrap,
                 m_json_deep, m_json_duplicate_runs]


def mutate(rng, data, kind):
    """One mutation of data (bytes); returns (bytes, description)."""
    r = rng.random()
    if r < 0.3:
        fn = rng.choice(BYTE_MUTATORS)
        return fn(rng, data), fn.__name__
    if kind == "json":
        fn = rng.choice(JSON_MUTATORS)
        return fn(rng, json.loads(data)), fn.__name__
    fn = rng.choice(CSV_MUTATORS)
    return fn(rng, data), fn.__name__


# ---------------------------------------------------------------- cases

# (name, fixture dir, file, baseline dir, kind, correlate?, plot?)
SOURCES = [
    ("diskio-json", "env-b", "result.json", "env-a", "json", True, True),
    ("fio-json", "fio", "fio.json", "env-c", "json", True, False),
    ("q_time", "env-b", "q_time.csv", "env-a", "csv", True, False),
    ("metrics", "env-b", "metrics.csv", "env-a", "csv", True, False),
    ("metrics-comment", "env-c", "metrics.csv", "fio", "csv", True, False),
    ("wal", "env-b", "wal.csv", "env-a", "csv", True, False),
    ("phases", "env-c", "phases.csv", "fio", "csv", True, False),
    ("plot-sweep", "plot", "sweep.json", None, "json", False, True),
    ("plot-trace", "plot", "fsync-trace.csv", None, "csv", False, True),
    ("plot-report", None, "report.json", None, "json", False, True),
]
WEIGHTS = [4, 2, 2, 1, 1, 2, 1, 1, 2, 1]


def run(cmd, timeout=TIMEOUT):
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        return proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired as err:
        return None, err.stdout or b"", err.stderr or b"", time.monotonic() - start


def judge(tool, allowed, result):
    status, out, err, _ = result
    problems = []
    if status is None:
        problems.append(f"timed out after {TIMEOUT} s")
    elif status not in allowed:
        problems.append(f"exit status {status} not in {sorted(allowed)}")
    if b"Traceback" in err:
        problems.append("traceback on stderr")
    if status not in (None, 0) and not err.strip():
        problems.append(f"exit status {status} with empty stderr")
    if status == 1 and out:
        problems.append("stdout not empty on exit status 1")
    return problems


def main():
    if not os.path.isdir(FIXTURES):
        print(f"SKIP: no fixtures at {FIXTURES}")
        return EXIT_SKIP
    gnuplot = os.environ.get("GNUPLOT") or shutil.which("gnuplot")
    have_gnuplot = bool(gnuplot and shutil.which(gnuplot))
    if not have_gnuplot:
        print("note: gnuplot not found; the diskio-plot cases are skipped")

    started = time.monotonic()
    rng = random.Random(SEED)
    tmp = tempfile.mkdtemp(prefix="diskio-malformed.")
    try:
        # A correlate report, the fourth kind of plot input.
        report = os.path.join(tmp, "report.json")
        status, out, err, _ = run([sys.executable, CORRELATE, "--format", "json",
                                   os.path.join(FIXTURES, "env-a"),
                                   os.path.join(FIXTURES, "env-b")])
        if status != 0:
            print("FAIL the baseline correlation does not run:\n" + err.decode(errors="replace"))
            return 1
        with open(report, "wb") as handle:
            handle.write(out)
        originals = {}
        for name, fdir, fname, *_ in SOURCES:
            path = report if fdir is None else os.path.join(FIXTURES, fdir, fname)
            with open(path, "rb") as handle:
                originals[name] = handle.read()

        jobs = []   # (case id, tool, allowed, cmd, description, input path)
        for case in range(NCASES):
            src = rng.choices(SOURCES, WEIGHTS)[0]
            name, fdir, fname, base, kind, do_corr, do_plot = src
            data, how = mutate(rng, originals[name], kind)
            data, detail = data
            desc = f"case {case}: {name} {fname}: {how}: {detail}"
            cdir = os.path.join(tmp, f"case{case:04d}")
            envdir = os.path.join(cdir, "env")
            if fdir is not None and do_corr:
                shutil.copytree(os.path.join(FIXTURES, fdir), envdir)
            else:
                os.makedirs(envdir)
            target = os.path.join(envdir, fname)
            with open(target, "wb") as handle:
                handle.write(data)
            if do_corr:
                cmd = [sys.executable, CORRELATE, os.path.join(FIXTURES, base), envdir]
                if case % 3 == 1:
                    cmd[2:2] = ["--format", "json"]
                jobs.append((case, "diskio-correlate", CORRELATE_OK, cmd, desc, target))
            if do_plot and have_gnuplot:
                outdir = os.path.join(cdir, "out")
                os.makedirs(outdir)
                cmd = [sys.executable, PLOT, "--outdir", outdir, target]
                jobs.append((case, "diskio-plot", PLOT_OK, cmd, desc, target))

        statuses = {}
        failures = []
        with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
            futures = {pool.submit(run, job[3]): job for job in jobs}
            for fut in concurrent.futures.as_completed(futures):
                case, tool, allowed, cmd, desc, target = futures[fut]
                result = fut.result()
                key = f"{tool}:{result[0]}"
                statuses[key] = statuses.get(key, 0) + 1
                problems = judge(tool, allowed, result)
                if problems:
                    failures.append((case, tool, problems, desc, target, result))

        failures.sort(key=lambda f: (f[0], f[1]))
        keep = os.environ.get("MALFORMED_KEEP") or os.path.abspath(
            "malformed-inputs.failures")
        for case, tool, problems, desc, target, result in failures:
            print(f"FAIL {tool} on {desc}")
            print(f"     {'; '.join(problems)}")
            err = result[2].decode("utf-8", "replace").strip().splitlines()
            for line in err[-6:]:
                print(f"     | {line[:300]}")
            saved = os.path.join(keep, f"case{case:04d}", os.path.basename(target))
            os.makedirs(os.path.dirname(saved), exist_ok=True)
            shutil.copyfile(target, saved)
            print(f"     input kept as {saved}")
        elapsed = time.monotonic() - started
        ncorr = sum(1 for j in jobs if j[1] == "diskio-correlate")
        summary = ", ".join(f"{k} x{v}" for k, v in sorted(statuses.items()))
        print(f"malformed-inputs: seed {SEED}, {NCASES} mutations, {len(jobs)} runs "
              f"({ncorr} correlate, {len(jobs) - ncorr} plot), "
              f"{len(failures)} failing, {elapsed:.1f} s; statuses: {summary}")
        return 1 if failures else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
