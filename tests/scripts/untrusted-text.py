#!/usr/bin/env python3
"""Description: nothing read is ever run by the analysis commands, and nothing read reaches a terminal raw.

nothing read is ever run, and nothing read reaches a
terminal raw.  Every byte 0x01-0x7f, some non-ASCII, C1 and bidi
characters and payloads that would run a command in a shell or in
gnuplot (`touch S`, $(touch S), a name starting '<' or '|', a quote that
ends gnuplot's string then system("touch S"), a newline then
!touch S, an @macro, a format) go through every name the analysis
commands read: result labels, mode and custom-run names, trace file
names, environment directory names, phase and metric names, a
diskio-correlate report's environment, phase and metric names, and what
a diskio-fleet host sends back (its result's label, its stderr).  Every
command runs on them (diskio-compare in each format, diskio-correlate
in each format and with --details, diskio-plot on results, traces, the
report and diskio-compare's JSON, diskio-fleet through an ssh stand-in),
and then:
  - no sentinel file exists anywhere under the test's directory (the
    commands' working directory, TMPDIR, where gnuplot ran: --keep-temp
    keeps it);
  - stdout and stderr are UTF-8 with no C0 control but the newline, no
    DEL, C1, U+2028/2029 or bidi formatting character;
  - the exit status is a documented one, never an internal error.
Exit 0 pass, 1 fail, 77 skip (no gnuplot)."""

import csv
import io
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from scriptlib import (CORRELATE, EXIT_SKIP, FIXTURES, PLOT,  # noqa: E402
                       TOP_BUILDDIR, check, finish, run_forked)

COMPARE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-compare")
FLEET = os.path.join(TOP_BUILDDIR, "scripts", "diskio-fleet")
SENTINEL = "SENTINEL"

if shutil.which(os.environ.get("GNUPLOT", "gnuplot")) is None:
    print("SKIP: gnuplot not found (apt-get install gnuplot-nox)")
    sys.exit(EXIT_SKIP)

root = os.path.realpath(tempfile.mkdtemp(prefix="diskio-untrusted."))
CWD, TMP = os.path.join(root, "cwd"), os.path.join(root, "tmp")
os.mkdir(CWD)
os.mkdir(TMP)
ABS = os.path.join(root, SENTINEL)


def payloads(target):
    """Texts that run `touch target` wherever a string is run: a shell,
    gnuplot's backquotes, system(), its '<' and '|' file names, a macro,
    a newline that ends a command, a quote that ends a string."""
    cmd = f"touch {target}"
    return [f"`{cmd}`", f"$({cmd})", f"<{cmd}", f"|{cmd}",
            f'system("{cmd}")', f"'.system('{cmd}').'",
            f'".system("{cmd}")."', f"x\n!{cmd}\n", f"x\nsystem('{cmd}')\n",
            f"x'\n!{cmd}\nprint '", f"x\"\n!{cmd}\nprint \"",
            f"\\'`{cmd}`\\'", f"c = '`{cmd}`'\n@c", f"@c `{cmd}`",
            f"%s%n%x%%`{cmd}`"]


# Non-ASCII text a terminal acts on or that reorders what follows, and
# text that is fine: all of it goes through as a name.
NON_ASCII = ["\u0085", "\u009b2J", "\x1b]0;TITLE\x07\x1b[2J",
             "\u202eevil\u202c", "\u2066iso\u2069", "\u061c\u200e\u200f",
             "line\u2028sep\u2029", "µs × ±", "日本", "\U0001f600"]
EVERY_BYTE = "".join(chr(b) for b in range(1, 0x80))
NAMES = payloads(ABS) + NON_ASCII + [EVERY_BYTE]
# for file names: no '/', no NUL; relative sentinel
FILE_NAMES = [n for n in payloads(SENTINEL) + NON_ASCII
              + [EVERY_BYTE.replace("/", "")] if "/" not in n]

FORBIDDEN = set(range(0x00, 0x20)) - {0x0a} | set(range(0x7f, 0xa0)) | {
    0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c,
    0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069}
FORBIDDEN_RE = re.compile("[" + "".join(re.escape(chr(c))
                                        for c in sorted(FORBIDDEN)) + "]")


def sentinels():
    found = []
    for directory, _, files in os.walk(root):
        found += [os.path.join(directory, f) for f in files
                  if f == SENTINEL]
    return found


def raw_controls(data):
    """The forbidden characters in an output, or the reason it is not
    UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        return [f"not UTF-8: {err}"]
    return sorted({f"U+{ord(c):04X}" for c in FORBIDDEN_RE.findall(text)})


def run(what, argv, ok=(0,), env=None):
    """Run a command on the hostile inputs (in a process of its own, forked
    from this one: see scriptlib.run_forked) and check the three promises;
    returns its stdout."""
    status, stdout, stderr = run_forked(argv[0], *argv[1:], cwd=CWD,
                                        env={"TMPDIR": TMP, **(env or {})})
    planted = sentinels()
    check(not planted, f"{what}: nothing ran", planted)
    for path in planted:        # so that the next command is judged alone
        os.unlink(path)
    for name, data in (("stdout", stdout), ("stderr", stderr)):
        bad = raw_controls(data)
        check(not bad, f"{what}: no raw control character on {name}",
              f"{bad}\n{data[-600:]!r}")
    check(status in ok, f"{what}: exit {status} (expected one of {ok})",
          stderr.decode("utf-8", "replace")[-2000:])
    check(b"Traceback" not in stderr and
          b"internal error" not in stderr, f"{what}: no internal error",
          stderr.decode("utf-8", "replace")[-2000:])
    return stdout


def write_json(path, doc):
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(doc))      # (json.dump encodes in Python)
    return path


def copied(doc):
    """A deep copy of a JSON document (as copy.deepcopy, in C)."""
    return json.loads(json.dumps(doc))


with open(os.path.join(FIXTURES, "env-a", "result.json"),
          encoding="utf-8") as handle:
    TEMPLATE = json.load(handle)
RUN = TEMPLATE["runs"][1]          # fsync, with buckets


def result(label, modes, custom=None):
    doc = copied(TEMPLATE)
    doc["label"] = label
    doc["runs"] = []
    for mode in modes:
        run_doc = copied(RUN)
        run_doc["mode"] = mode
        doc["runs"].append(run_doc)
    if custom is not None:
        run_doc = copied(RUN)
        run_doc.update(mode=custom, parameters=None, params={custom: custom})
        doc["runs"].append(run_doc)
    return doc


try:
    results = os.path.join(root, "results")
    os.mkdir(results)
    # one result per byte (a label each), all of mode fsync
    byte_files = [write_json(os.path.join(results, f"byte-{b:02x}.json"),
                             result(f"L{b:02x}{chr(b)}x", ["fsync"]))
                  for b in range(1, 0x80)]
    # a result per hostile name (its label) with a custom run of that
    # name; the first two (the baseline and an environment compared with
    # it) also have a run of every hostile mode name, so that each is a
    # compared row (the other files would only repeat those rows)
    name_files = [write_json(os.path.join(results, f"name-{i}.json"),
                             result(name, ["fsync"] + (NAMES if i < 2 else []),
                                    custom=name))
                  for i, name in enumerate(NAMES)]

    # ------------------------------------------------------ diskio-compare
    for fmt in ("text", "markdown", "csv", "json"):
        run(f"diskio-compare --format {fmt}, a label per byte",
            [COMPARE, "--format", fmt, *byte_files])
        run(f"diskio-compare --format {fmt}, hostile labels and modes",
            [COMPARE, "--format", fmt, "--metrics", "all", *name_files])
    for name in NAMES[:6] + [EVERY_BYTE.replace("/", "")]:
        run("diskio-compare, a hostile path that does not exist",
            [COMPARE, os.path.join(root, "none", name), byte_files[0]],
            ok=(1,))
    run("diskio-compare, a hostile --baseline",
        [COMPARE, "--baseline", EVERY_BYTE, *byte_files[:2]], ok=(2,))

    # ------------------------------------------------------ diskio-plot
    outdir = os.path.join(root, "img")
    run("diskio-plot, a label per byte",
        [PLOT, "--keep-temp", "--format", "svg", "--outdir",
         os.path.join(outdir, "bytes"), *byte_files])
    run("diskio-plot, hostile labels and modes",
        [PLOT, "--keep-temp", "--format", "svg", "--outdir",
         os.path.join(outdir, "names"), *name_files[:4], name_files[-1]])
    traces = os.path.join(root, "traces")
    os.mkdir(traces)
    with open(os.path.join(FIXTURES, "plot", "fsync-trace.csv"), "rb") as t:
        trace = t.read()
    for name in FILE_NAMES + [os.fsdecode(b"x\xff\xfe")]:
        with open(os.path.join(traces, f"{name}.csv"), "wb") as out:
            out.write(trace)
    run("diskio-plot, traces named by hostile names",
        [PLOT, "--keep-temp", "--format", "svg", "--outdir",
         os.path.join(outdir, "traces"), traces])

    # ------------------------------------------------------ diskio-correlate
    lab = os.path.join(root, "lab")
    os.mkdir(lab)
    envdirs = []
    # (a metric name has no spaces; both are stripped of white space)
    phases = [f"p{n}" for n in NAMES]
    metric_names = [f"m{n}".replace(" ", "_") for n in NAMES]
    for i, name in enumerate(FILE_NAMES[:8] + [os.fsdecode(b"e\xff")]):
        envdir = os.path.join(lab, f"e{i}{name}")
        os.mkdir(envdir)
        doc = result(None, ["fsync"] + NAMES[:5])
        doc["runs"][1]["ops"] = 0      # a run that recorded no ops: a note
        doc["runs"][1]["latency"]["total"]["count"] = 0
        write_json(os.path.join(envdir, "result.json"), doc)
        for rows, file in ((phases, "phases.csv"),
                           (metric_names, "metrics.csv")):
            text = io.StringIO()
            writer = csv.writer(text, lineterminator="\n")
            for k, row in enumerate(rows):
                writer.writerow([row, 10 + k + i])
            with open(os.path.join(envdir, file), "w",
                      encoding="utf-8") as out:
                out.write(text.getvalue())
        envdirs.append(envdir)
    for fmt in ("text", "markdown", "csv", "json"):
        for details in ([], ["--details"]):
            run(f"diskio-correlate --format {fmt} {' '.join(details)}",
                [CORRELATE, "--format", fmt, "--phases", "all", "--metrics",
                 "all", *details, *envdirs])
    report = run("diskio-correlate --format json for the plot",
                 [CORRELATE, "--format", "json", "--phases", "all",
                  "--metrics", "all", *envdirs[:4]])
    report_path = os.path.join(root, "report.json")
    with open(report_path, "wb") as out:
        out.write(report)
    # the report's names made hostile by hand too (a report is an input)
    doc = json.loads(report)
    doc["baseline"] = NAMES[0]
    doc["wal_model"] = {"sync_method": NAMES[1], "environments": {
        name: {"phases": {phase: {"share": 0.1, "checkpoint_share": 0.1}
                          for phase in NAMES[:6]}} for name in NAMES[:4]}}
    for comparison, name in zip(doc["comparisons"], NAMES):
        comparison["environment"] = name
    write_json(os.path.join(root, "report-edited.json"), doc)
    run("diskio-plot, a diskio-correlate report of hostile names",
        [PLOT, "--keep-temp", "--format", "svg", "--phases", "all",
         "--metrics", "all", "--outdir", os.path.join(outdir, "report"),
         report_path, os.path.join(root, "report-edited.json")])

    # the charts of a diskio-compare comparison of hostile names, and of
    # one whose names were made hostile by hand (a comparison is an input)
    comparison = run("diskio-compare --format json for the plot",
                     [COMPARE, "--format", "json", "--metrics", "all",
                      *name_files])
    comparison_path = os.path.join(root, "compare.json")
    with open(comparison_path, "wb") as out:
        out.write(comparison)
    doc = json.loads(comparison)
    doc["baseline"] = NAMES[0]
    for row, name in zip(doc["comparisons"], NAMES * 8):
        row.update(environment=name, run_label=name, verdict=name,
                   metric=name)
    write_json(os.path.join(root, "compare-edited.json"), doc)
    run("diskio-plot, a diskio-compare comparison of hostile names",
        [PLOT, "--keep-temp", "--format", "svg", "--outdir",
         os.path.join(outdir, "compare"), comparison_path,
         os.path.join(root, "compare-edited.json")])

    # ------------------------------------------------------ diskio-fleet
    bin_dir = os.path.join(root, "bin")
    os.mkdir(bin_dir)
    reply = json.dumps(result(EVERY_BYTE, ["fsync"]))
    with open(os.path.join(bin_dir, "ssh"), "w", encoding="utf-8") as out:
        out.write(f"""#!{sys.executable}
# ssh's stand-in: every host answers with a result of a hostile label
# and hostile lines on stderr; db3 with one that is not a result
import sys
host = sys.argv[-2]
reply = {reply!r} if host != "db3" else "[1,2,3]"
sys.stdout.write("diskio-fleet-begin\\n" + reply + "\\n\\n"
                 "diskio-fleet-status: " + ("0" if host == "db1" else "1")
                 + "\\n")
sys.stderr.write({json.dumps(chr(27) + "]0;TITLE" + chr(7))} + "\\n"
                 + {json.dumps(EVERY_BYTE.replace(chr(10), ""))} + "\\n")
""")
    os.chmod(os.path.join(bin_dir, "ssh"), 0o755)
    run("diskio-fleet, hosts that answer with hostile text",
        [FLEET, "-w", "db[1-3]", "--lab", os.path.join(root, "fleet"),
         "--transport", "ssh", "--", "-m", "fsync", "/srv"], ok=(1,),
        env={"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")})
finally:
    shutil.rmtree(root, ignore_errors=True)
finish()
