#!/usr/bin/env python3
"""Description: diskio-correlate on bad input exits 1 or 2 naming the file, with no traceback.

diskio-correlate on bad input: each case exits with the documented
status (1 bad data, 2 usage), names the file (and the line for CSV and
malformed JSON) on stderr, prints nothing on stdout and no traceback."""

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import CORRELATE, FIXTURES, check, finish, run  # noqa: E402

A = os.path.join(FIXTURES, "env-a")
work = tempfile.mkdtemp(prefix="diskio-correlate-test.")


def make_env(name, phases=None, q_time=None, result=True, extra=None,
             schema_version=1):
    """An environment directory: env-c's result (label null) and phases."""
    path = os.path.join(work, name)
    os.makedirs(path)
    if result:
        with open(os.path.join(FIXTURES, "env-c", "result.json"),
                  encoding="utf-8") as src:
            text = src.read()
        text = text.replace('"schema_version": 1',
                            f'"schema_version": {schema_version}')
        with open(os.path.join(path, "result.json"), "w",
                  encoding="utf-8") as dst:
            dst.write(text)
    if phases is None and q_time is None:
        shutil.copy(os.path.join(FIXTURES, "env-c", "phases.csv"), path)
    if phases is not None:
        write(path, "phases.csv", phases)
    if q_time is not None:
        write(path, "q_time.csv", q_time)
    for filename, text in (extra or {}).items():
        write(path, filename, text)
    return path


def write(directory, filename, text):
    with open(os.path.join(directory, filename), "w", encoding="utf-8") as out:
        out.write(text)


def expect(what, args, status, where):
    code, out, err = run(CORRELATE, *args)
    check(code == status and out == "" and where in err
          and err.startswith("diskio-correlate: ") and "Traceback" not in err,
          f"{what}: exit {status}, names {os.path.relpath(where, work) if where.startswith(work) else where}, "
          "empty stdout", f"status {code}, stdout {len(out)} bytes, "
          f"stderr: {err.strip()}")


GOOD_PHASES = open(os.path.join(FIXTURES, "env-c", "phases.csv"),
                   encoding="utf-8").read()
Q_HEADER = "task_name,s_time,e_time,diff_time,seconds\n"

try:
    missing = os.path.join(work, "no-such-dir")
    expect("missing directory", [A, missing], 1, missing)

    d = make_env("nophases", phases="")
    os.unlink(os.path.join(d, "phases.csv"))
    expect("no phases in an environment", [A, d], 1, d + ": no phase timings")

    d = make_env("nometrics", result=False)
    expect("no disk metrics", [A, d], 1, d + ": no disk metrics")

    d = make_env("mismatch", phases="phase,seconds\nload,1\npower,2\n")
    expect("mismatched phase sets", [A, d], 1,
           os.path.join(d, "phases.csv") + ": phases differ from baseline A")

    d = make_env("badnumber", phases=GOOD_PHASES.replace("power,150",
                                                         "power,fast"))
    expect("non-numeric seconds", [A, d], 1,
           os.path.join(d, "phases.csv") + ":3:")

    d = make_env("zero", phases=GOOD_PHASES.replace("power,150", "power,0"))
    expect("zero time", [A, d], 1, os.path.join(d, "phases.csv") + ":3:")

    d = make_env("negative", phases=GOOD_PHASES.replace("load,1200",
                                                        "load,-5"))
    expect("negative time", [A, d], 1, os.path.join(d, "phases.csv") + ":2:")

    d = make_env("qfields", q_time=Q_HEADER + "LOAD,a,b,c,1\nPERF.POWER,a,b\n")
    expect("q_time.csv row with missing fields", [A, d], 1,
           os.path.join(d, "q_time.csv") + ":3:")

    d = make_env("qheader", q_time="name,seconds\nLOAD,1\n")
    expect("q_time.csv without task_name", [A, d], 1,
           os.path.join(d, "q_time.csv") + ":1:")

    d = make_env("qquote", q_time=Q_HEADER + 'LOAD,"a,b,c,1\n')
    code, out, err = run(CORRELATE, A, d)
    check(code == 1 and out == "" and "q_time.csv" in err
          and "Traceback" not in err, "unterminated quote in q_time.csv",
          err)

    d = make_env("badmetric", extra={"metrics.csv": "metric,value\nx_us,\n"})
    expect("metrics.csv without a value", [A, d], 1,
           os.path.join(d, "metrics.csv") + ":2:")

    d = make_env("badwal", extra={"wal.csv": open(os.path.join(
        A, "wal.csv"), encoding="utf-8").read().replace("200,180", "200,x")})
    expect("wal.csv with a non-numeric counter", [A, d], 1,
           os.path.join(d, "wal.csv") + ":3:")

    d = make_env("walphase", extra={"wal.csv": open(os.path.join(
        A, "wal.csv"), encoding="utf-8").read().replace("power,", "powr,")})
    expect("wal.csv phase without a timing", [A, d], 1,
           os.path.join(d, "wal.csv") + ":3:")

    d = make_env("badjson")
    with open(os.path.join(d, "result.json"), "r+", encoding="utf-8") as f:
        text = f.read()
        f.seek(0)
        f.truncate()
        f.write(text[:3000])
    expect("truncated JSON", [A, d], 1, os.path.join(d, "result.json") + ":")

    d = make_env("schema3", schema_version=3)
    expect("unknown schema_version", [A, d], 1,
           os.path.join(d, "result.json") + ":3: unknown diskio result "
           "schema_version 3")

    d = make_env("badrun")
    path = os.path.join(d, "result.json")
    text = open(path, encoding="utf-8").read().replace('"mean": 6000.0',
                                                       '"mean": "fast"', 1)
    write(d, "result.json", text)
    expect("result with a non-numeric mean", [A, d], 1,
           path + ": runs[0].latency.total.mean")

    expect("one ENVDIR is a usage error", [A], 2, "need at least two")
    expect("unknown --format", ["--format", "xml", A, A], 2, "--format")
    expect("unknown --baseline", ["--baseline", "nope", A,
                                  os.path.join(FIXTURES, "env-b")], 2,
           "--baseline nope")
    expect("two environments with one name", [A, A], 1, "environment name 'A'")
finally:
    shutil.rmtree(work, ignore_errors=True)
finish()
