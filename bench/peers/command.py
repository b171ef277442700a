# SPDX-License-Identifier: MIT
"""compare-peers' options and main: the temporary directory (and private
tmpfs) made and removed on every exit path, the tools found, the rounds,
memory and record groups run, the result printed and written, and the
exit status: 0 every available tool ran and parsed, 1 a run failed, 2 bad
usage, 77 (smoke only) no diskio, 130 interrupted."""

import datetime
import os
import shutil
import signal
import subprocess
import tempfile
import time

from diskio_analysis.cli import QuietParser, run_command
from diskio_analysis.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, UsageError

from .common import DEFAULT_GROUPS, GROUPS, PROG, SRCDIR, Fail, Interrupted, log, warn
from .machine import dir_info, machine
from .memory import run_memory
from .plan import TOOL_ORDER, plan
from .record import run_record
from .report import print_tables, write_files
from .rounds import run_rounds
from .runner import Env
from .summary import summarize, targets
from .tools import build_diskio, find_diskio, probe_tools

EXIT_NO_DISKIO = 77


def parse_args(argv):
    ap = QuietParser(
        prog=PROG,
        description="Benchmark diskio against a bare C loop, fio, ioping, sysbench fileio "
                    "and pg_test_fsync, interleaved round by round.")
    ap.add_argument("--diskio", metavar="PATH", help="the diskio binary (default: ./diskio, "
                    "the build dir next to bench/, then PATH; else build one)")
    ap.add_argument("--rounds", type=int, default=None, help="rounds (default 5; --quick 3)")
    ap.add_argument("--count", type=int, default=None,
                    help="ops per durable-mode run (default 10000; --quick 2500); the buffered "
                         "runs do 100x (512 B) and 30x (8 KiB), aio qd1 2x and qd32 10x that")
    ap.add_argument("--dir", default=None, help="where to make the temporary directory "
                    "(default: the current directory); its file system is the one measured")
    ap.add_argument("--quick", action="store_true", help="3 rounds, a quarter of the ops")
    ap.add_argument("--smoke", action="store_true",
                    help="each tool once with tiny counts (< 20 s): proves the script works")
    ap.add_argument("--json", metavar="FILE", help="write the result as JSON "
                    "(default compare-peers-DATE.json; none with --smoke)")
    ap.add_argument("--markdown", metavar="FILE", help="write the tables as Markdown "
                    "(default compare-peers-DATE.md; none with --smoke)")
    ap.add_argument("--only", metavar="GROUP[,GROUP]", default=None,
                    help="overhead, accuracy, bare, qd, read, crystal, memory, record "
                         "(default: all but bare)")
    ap.add_argument("--busy-threshold", type=float, default=0.15, metavar="SHARE",
                    help="discard a round when other processes used more than this share "
                         "of all CPUs, or steal exceeded it (default 0.15)")
    ap.add_argument("--budget", type=float, default=13.0, metavar="MIN",
                    help="stop adding replacement rounds for busy ones after this many "
                         "minutes (default 13)")
    a = ap.parse_args(argv)
    if a.only:
        a.only = [g.strip() for g in a.only.split(",") if g.strip()]
        bad = [g for g in a.only if g not in GROUPS]
        if bad:
            ap.error("unknown group %s (choose from %s)" % (", ".join(bad), ", ".join(GROUPS)))
    else:
        a.only = list(DEFAULT_GROUPS)
    if a.rounds is None:
        a.rounds = 1 if a.smoke else (3 if a.quick else 5)
    if a.count is None:
        a.count = 2500 if a.quick else 10000
    if a.rounds < 1 or a.count < 1:
        ap.error("--rounds and --count must be at least 1")
    return a


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def mount_tmpfs(env, work):
    """Mount a private tmpfs inside work (root only); True if mounted."""
    tdir = os.path.join(work, "tmpfs")
    os.mkdir(tdir)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512m,mode=0700",
                        PROG, tdir], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        env.note("tmpfs rows skipped: mount -t tmpfs failed: " + r.stdout.strip())
        return False
    env.tmpfs = tdir
    return True


def umount_tmpfs(path):
    for attempt in range(3):
        r = subprocess.run(["umount", path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode == 0:
            return
        time.sleep(0.5)
    subprocess.run(["umount", "-l", path])


def locate_diskio(env, args):
    """(binary, shown path) of diskio, found or built; env gets its
    environment and build dir.  (None, None) when there is none."""
    real, denv, build, shown = find_diskio(args)
    if not real:
        built = build_diskio(env)
        if built:
            args.diskio = built
            real, denv, build, shown = find_diskio(args)
    env.diskio_env = denv
    env.diskio_build = build
    return real, shown


def run_groups(env, args, cases, t_start):
    """The rounds, then memory and record: (rounds, used, noisy, memory,
    record, failures)."""
    rounds, used, noisy = run_rounds(env, cases, args, t_start)
    memory = None
    record = None
    failures = [r for rnd in rounds for r in rnd["runs"] if r["error"]]
    if "memory" in args.only:
        memory = run_memory(env, args)
        failures.extend({"error": e} for e in memory["errors"])
    if "record" in args.only:
        try:
            record = run_record(env, args)
        except Fail as e:
            warn("record: %s" % e)
            record = {"available": False, "error": str(e)}
            failures.append({"error": str(e)})
    return rounds, used, noisy, memory, record, failures


def final_status(env, args, cases, rounds, failures, t_start):
    """1 when a run failed or an available tool never produced a result."""
    status = 0
    if failures:
        warn("%d run(s) failed" % len(failures))
        status = 1
    # every available tool must have run at least once and parsed
    ran = {r["tool"] for rnd in rounds for r in rnd["runs"] if r["metrics"]}
    for tool in TOOL_ORDER:
        wanted = any(tool in tools for _, tools in cases)
        if wanted and env.have(tool) and tool not in ran:
            warn("%s never produced a result" % tool)
            status = 1
    if args.smoke:
        skipped = [k for k in ("fio", "ioping", "sysbench", "pg_test_fsync", "valgrind")
                   if not env.have(k)]
        log("smoke: %s; skipped (not installed): %s; %.1f s" % (
            "ok" if status == 0 else "FAILED", ", ".join(skipped) or "none",
            time.monotonic() - t_start))
    return status


def measure(env, args, argv, work, t_start):
    """Everything inside the temporary directory; the exit status."""
    real, shown = locate_diskio(env, args)
    if not real:
        warn("no diskio found (./diskio, %s, PATH) and none could be built; "
             "give --diskio PATH" % os.path.join(SRCDIR, "diskio"))
        return EXIT_NO_DISKIO if args.smoke else EXIT_BAD_INPUT
    if os.geteuid() == 0:
        mount_tmpfs(env, work)
    elif any(g in args.only for g in ("overhead", "bare", "memory")):
        env.note("tmpfs rows skipped: mounting a private tmpfs needs root")
    probe_tools(env, real)
    if not env.have("diskio"):
        warn("%s does not run" % shown)
        return EXIT_BAD_INPUT
    if not env.have("bare"):
        env.note("bare loop skipped: " + env.tools["bare"]["reason"])

    cases = plan(args, env)
    dinfo = dir_info(work)
    log("compare-peers: diskio %s (%s); temp dir %s (%s)%s" % (
        env.tools["diskio"]["version"], shown, work, dinfo["fstype"],
        "; tmpfs " + env.tmpfs if env.tmpfs else ""))
    rounds, used, noisy, memory, record, failures = run_groups(env, args, cases, t_start)
    doc = {
        "schema": "diskio-compare-peers", "schema_version": 1,
        "date": now_utc(),
        "command": "bench/compare-peers" + "".join(" " + a for a in argv),
        "machine": machine(),
        "dir": dinfo, "tmpfs": bool(env.tmpfs),
        "options": {"rounds": args.rounds, "count": args.count, "quick": args.quick,
                    "smoke": args.smoke, "only": args.only,
                    "busy_threshold": args.busy_threshold},
        "tools": {k: v for k, v in env.tools.items() if isinstance(v, dict)},
        "uring": env.tools.get("uring"),
        "rounds": rounds, "used_rounds": used, "noisy": noisy,
        "summary": summarize(rounds, used), "targets": targets(rounds, used, memory, record),
        "memory": memory, "record": record,
        "notes": env.notes,
        "elapsed_s": round(time.monotonic() - t_start, 1),
    }
    print_tables(doc)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    write_files(doc, args.json or (None if args.smoke else "compare-peers-%s.json" % stamp),
                args.markdown or (None if args.smoke else "compare-peers-%s.md" % stamp))
    return final_status(env, args, cases, rounds, failures, t_start)


def harness(argv):
    """The whole run; its exit status."""
    args = parse_args(argv)
    t_start = time.monotonic()
    base = os.path.abspath(args.dir or os.getcwd())
    if not os.path.isdir(base):
        raise UsageError("--dir %s: not a directory" % base)
    work = tempfile.mkdtemp(prefix=PROG + ".", dir=base)
    env = Env(args, work)

    def on_signal(signum, frame):
        raise Interrupted(signal.Signals(signum).name)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    try:
        return measure(env, args, argv, work, t_start)
    except Interrupted as e:
        warn("interrupted (%s); cleaning up" % e)
        return EXIT_INTERRUPTED
    finally:
        env.runner.kill()
        if env.tmpfs:
            umount_tmpfs(env.tmpfs)
        shutil.rmtree(work, ignore_errors=True)


def main(argv=None):
    """The exit status of compare-peers with argv: the harness's own, or
    run_command's for what escapes it (a usage error: 2; a bad --diskio or
    any other failure: 1, in one line, never a traceback)."""
    got = {}

    def body(args):
        got["status"] = harness(args)
    status = run_command(PROG, body, argv, internal_status=EXIT_BAD_INPUT)
    return got.get("status", status)
