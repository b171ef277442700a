# SPDX-License-Identifier: MIT
"""diskio-pgphases' command line: the options, the run from setup to
results, and the signals.  SIGINT, SIGTERM and SIGHUP end a run with
130, 143 and 129, after the server is stopped, the cluster removed and
the partial results (marked incomplete) written; a bad option or
environment is 2, a failed run 1.  Everything an option can be wrong
about is checked before anything is created."""

import argparse
import atexit
import datetime
import math
import re
import signal

from .. import __version__
from ..cli import run_command
from ..errors import EXIT_INTERRUPTED, EXIT_OK, ToolError, UsageError
from ..outputs import open_output_dir
from ..textsafe import shown
from . import PROG, RunError, progress, results, rounds
from .cluster import Cluster
from .workload import Workload

WAL_SYNC_METHODS = ["fdatasync", "fsync", "open_datasync", "open_sync",
                    "fsync_writethrough"]
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
SIGNAL_STATUS = {signal.SIGINT: EXIT_INTERRUPTED, signal.SIGTERM: 143,
                 signal.SIGHUP: 129}
SF_MIN = 0.001
# The generator's part and customer keys are 32-bit integers: 200000 x SF
# parts must stay below 2^31.
SF_MAX = 10000


class Interrupted(BaseException):
    """Raised from the signal handler in the main thread."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


class Parser(argparse.ArgumentParser):
    """argparse's own usage and error lines (not cli.QuietParser's): the
    command's messages stay what they were before it became a package;
    what they quote is shown by the escape rule."""

    def error(self, message):
        super().error(shown(message))


def parse_args(argv):
    p = Parser(
        prog=PROG,
        description="Run a DBT-3-style workload (load, power, throughput) on a "
                    "throw-away PostgreSQL cluster created in a new subdirectory "
                    "of DIRECTORY, the storage under test. Not a TPC-H or DBT-3 "
                    "result.")
    add_workload_options(p)
    add_probe_options(p)
    add_server_options(p)
    p.add_argument("--version", action="version", version="%s %s" % (PROG, __version__))
    a = p.parse_args(argv)
    check_workload_options(p, a)
    check_probe_options(p, a)
    return a


def add_workload_options(p):
    """Where the cluster goes, the results, and the workload's size."""
    p.add_argument("directory", metavar="DIRECTORY",
                   help="storage under test; the cluster is created in a new "
                        "subdirectory and removed at the end")
    p.add_argument("-o", "--output", metavar="DIR", required=True,
                   help="result directory (created; existing result files are "
                        "never overwritten)")
    p.add_argument("--sf", type=float, default=0.01,
                   help="scale factor, %g to %d (default 0.01)" % (SF_MIN, SF_MAX))
    p.add_argument("--streams", type=int, default=2,
                   help="query streams in the throughput phase (default 2)")
    p.add_argument("--refresh-size", type=int, default=None,
                   help="orders each RF1 and RF2 inserts or deletes (default "
                        "SF x 1500, 0.1%% of the orders, as in the kit)")
    p.add_argument("--commit-every", type=int, default=None, metavar="N",
                   help="commit RF1 and RF2 every N orders: the commit-heavy "
                        "variant, not the kit's behaviour (default: one "
                        "transaction per RF1 and per RF2, as in the kit)")
    p.add_argument("--rounds", type=int, default=3, metavar="N",
                   help="run the workload N times, each on a new cluster; the "
                        "result files give each task's median and its spread "
                        "(rounds.csv: every round) (default 3)")


def add_probe_options(p):
    """The commit probe."""
    p.add_argument("--commit-probe", type=int, default=0, metavar="N",
                   help="after the load, N small-insert commits per session "
                        "by 1 and by 4 sessions (tasks COMMIT.C1, COMMIT.C4): "
                        "PostgreSQL's own time per WAL sync to hold against "
                        "diskio --pattern wal (default 0: none)")
    p.add_argument("--probe-committers", default="1,4", metavar="N[,N...]",
                   help="the commit probe's session counts (default 1,4)")


def add_server_options(p):
    """The PostgreSQL server: its settings, binaries, user and preload."""
    p.add_argument("--wal-sync-method", default="fdatasync", choices=WAL_SYNC_METHODS,
                   help="PostgreSQL wal_sync_method (default fdatasync)")
    p.add_argument("--shared-buffers", default="128MB",
                   help="PostgreSQL shared_buffers (default 128MB)")
    p.add_argument("--pg-bindir", metavar="DIR",
                   help="PostgreSQL binaries (default: pg_config --bindir, "
                        "then /usr/lib/postgresql/*/bin)")
    p.add_argument("--run-as", metavar="USER",
                   help="user to run the server as when started as root "
                        "(default nobody)")
    p.add_argument("--preload", metavar="LIB",
                   help="run the server (never initdb) with LD_PRELOAD=LIB, "
                        "e.g. libdiskio-delay.so")
    p.add_argument("--delay-us", type=int, metavar="N",
                   help="DISKIO_DELAY_US for the server (with --preload)")


def check_workload_options(p, a):
    """The workload's numbers in range (p.error, exit 2, if not)."""
    if not a.sf > 0 or a.sf < SF_MIN:
        p.error("--sf must be at least %g" % SF_MIN)
    if not math.isfinite(a.sf):
        p.error("--sf must be a finite number such as 0.01 or 1")
    if a.sf > SF_MAX:
        p.error("--sf must be at most %d: the generator's part and customer "
                "keys are 32-bit integers" % SF_MAX)
    if a.streams < 1:
        p.error("--streams must be at least 1")
    if a.refresh_size is not None and a.refresh_size < 1:
        p.error("--refresh-size must be at least 1")
    if a.commit_every is not None and a.commit_every < 1:
        p.error("--commit-every must be at least 1")
    if a.delay_us is not None and a.delay_us < 0:
        p.error("--delay-us must not be negative")
    if a.rounds < 1:
        p.error("--rounds must be at least 1")


def check_probe_options(p, a):
    """The commit probe's numbers, and the shared_buffers size (p.error,
    exit 2, if not); probe_committers made a list of counts."""
    if a.commit_probe < 0:
        p.error("--commit-probe must not be negative")
    try:
        a.probe_committers = [int(n) for n in a.probe_committers.split(",")]
    except ValueError:
        a.probe_committers = []
    if not a.probe_committers or min(a.probe_committers) < 1 or \
            max(a.probe_committers) > 64 or \
            len(set(a.probe_committers)) != len(a.probe_committers):
        p.error("--probe-committers: want distinct counts from 1 to 64, e.g. 1,4")
    if not re.fullmatch(r"\d+\s*(kB|MB|GB|TB)?", a.shared_buffers):
        p.error("--shared-buffers: want a size such as 128MB")


class Run:
    """One run: the workload on its cluster, and how it ended."""

    def __init__(self, args):
        self.args = args
        self.start_time = datetime.datetime.now()
        self.error = None
        self.interrupted_by = None
        # In this order, so that the first bad option is the one reported.
        self.workload = Workload(args)
        self.cluster = Cluster(args)
        self.round_no = 1
        self.outdir = None      # the output directory, once made (OutputDir)
        self.finished = []      # the workloads of the rounds that completed
        self.rounds_done = 0
        self.round_spread = None

    def run_all(self):
        """Every round, each on a new cluster (the last one's is cleaned
        up by cleanup())."""
        for round_no in range(1, self.args.rounds + 1):
            if round_no > 1:
                self.cleanup()
                self.workload = Workload(self.args)
                self.cluster = Cluster(self.args)
                self.round_no = round_no
                progress("round %d of %d" % (round_no, self.args.rounds))
            self.cluster.setup()
            self.workload.run(self.cluster)
            self.finished.append(self.workload)
        if len(self.finished) > 1:
            spread = rounds.spread([w.tasks for w in self.finished])
            for name, _, _, _ in self.finished[0].tasks:
                if rounds.shown(name):
                    progress("rounds: " + rounds.spread_line(name, spread[name]))

    def cleanup(self):
        name = results.log_name(self.round_no)
        self.cluster.cleanup(
            failed=bool(self.interrupted_by or self.error),
            save_log=lambda log: results.copy_log(log, self.outdir, name))

    def write_results(self, complete):
        """The rounds that completed (their medians), else what the one
        that did not got to."""
        done = [w for w in self.finished]
        if done:
            tasks = rounds.median_tasks([w.tasks for w in done])
            walrows = rounds.median_walrows([w.walrows for w in done])
            self.rounds_done = len(done)
            self.round_spread = rounds.spread([w.tasks for w in done])
            round_rows = rounds.round_rows([w.tasks for w in done])
            ifrrows = [(name, dict(f, round=r)) for r, w in enumerate(done, start=1)
                       for name, f in w.ifrrows]
        else:
            tasks, walrows, round_rows = self.workload.tasks, self.workload.walrows, None
            ifrrows = self.workload.ifrrows
        results.write(self.outdir, tasks, walrows,
                      results.settings(self, complete), ifrrows, round_rows)


def check_output(out, nrounds=1):
    """Refuse an --output that cannot be used, before anything is made:
    one reached through a link another user could have planted (as
    every command's output directory is reached, outdir.py), one that
    is not a directory, or one holding results already."""
    found = open_output_dir(out, "--output", status=UsageError.exit_status,
                            create=False)
    if found is None:
        return
    with found:
        existing = results.existing(found, nrounds)
    if existing:
        raise UsageError("refusing to overwrite %s in %s; choose another --output"
                         % (", ".join(existing), out))


def execute(argv):
    """The run; its exit status."""
    args = parse_args(argv)
    out = args.output
    check_output(out, args.rounds)
    run = Run(args)
    run.cluster.check_target()
    # created the way every analysis command creates its output directory,
    # once nothing is left to refuse, and held open: every result is
    # written by its descriptor
    run.outdir = open_output_dir(out, "--output", status=UsageError.exit_status)
    catch_signals(run)
    atexit.register(run.cleanup)

    status = EXIT_OK
    finished = False    # complete means the workload ran to its end: not
    try:                # an exception that escaped, whatever status says
        run.run_all()
        finished = True
    except Interrupted as e:
        name = signal.Signals(e.signum).name
        run.error = "interrupted by %s" % name
        progress("interrupted by %s: stopping the server and removing the cluster" % name)
        status = SIGNAL_STATUS.get(e.signum, RunError.exit_status)
    except UsageError as e:
        run.error = str(e)
        progress(str(e))
        status = e.exit_status
    except (RunError, OSError) as e:
        run.error = str(e)
        progress("run failed: %s" % e)
        status = RunError.exit_status
    finally:
        status, written = finish(run, finished, status)
    if written is None:     # else the message above said what there is
        progress(("results in %s" if status == EXIT_OK else
                  "partial results (marked incomplete) in %s") % out)
    return status


def catch_signals(run):
    """SIGNALS interrupt the run (Interrupted) once, and not while its
    cluster is being removed."""
    def on_signal(signum, frame):
        if run.interrupted_by is None and not run.cluster.cleaned:
            run.interrupted_by = signum
            raise Interrupted(signum)

    for sig in SIGNALS:
        signal.signal(sig, on_signal)


def finish(run, finished, status):
    """After the run, however it ended: the cluster removed and the
    results written (complete when finished with status EXIT_OK).  The
    status (RunError's when the results could not be written) and the
    files written when not all were (None when they were)."""
    out = run.args.output
    # No more interruptions while cleaning up.
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    if not finished and run.error is None:
        run.error = "stopped by an unforeseen error (see the message that follows)"
    run.cleanup()
    written = None      # the files written, when not all were
    try:
        run.write_results(finished and status == EXIT_OK)
    except results.NotWritten as e:
        written = e.written
        progress("cannot write results to %s: %s; %s" % (
            out, e, "written: " + ", ".join(written) if written
            else "nothing written"))
        if status == EXIT_OK:
            status = RunError.exit_status
    except OSError as e:    # the output directory itself
        written = []
        progress("cannot write results to %s: %s" % (out, e.strerror))
        if status == EXIT_OK:
            status = RunError.exit_status
    run.outdir.close()
    return status, written


def main(argv=None):
    """The command: execute() inside the package's outermost handler, so
    that an unforeseen error is one line and status 1, never a
    traceback."""
    status = []

    def body(argv):
        try:
            status.append(execute(argv))
        except ToolError as e:
            # said here, line by line (a relayed server or psql message
            # keeps its lines), each shown safely; cli.report would show
            # the whole message as one line
            progress(str(e))
            status.append(e.exit_status)
    handled = run_command(PROG, body, argv, internal_status=RunError.exit_status)
    return status[0] if status else handled
