# SPDX-License-Identifier: MIT
"""The DBT-3-style workload, in the order and with the task names of the
DBT-3 kit (osdldbt/dbt3: scripts/dbt3-power-test.in,
dbt3-throughput-stream.in, dbt3-throughput-stream-wrapper.in): the load
phase; the power phase (RF1, the 22 queries in stream 0's order, RF2);
the throughput phase (query streams 1..S in their own orders beside a
refresh stream of S RF1+RF2 pairs); and their timing.  Every phase
appends its q_time.csv rows to tasks and its counters to walrows, in the
order the result files list them."""

import datetime
import os
import threading
import time

from ..errors import UsageError
from . import RunError, progress, sql, stats
from . import interference
from .cluster import DBNAME, DBUSER, PORT


# The order of the 22 queries in each query stream: TPC-H specification
# Appendix A, the table qgen reads (dbgen permute.h; qgen -p STREAM gives
# query number SEQUENCE(STREAM, i) = row STREAM % 41, column i - 1, for the
# i-th query of the stream).  The kit runs its power test as stream 0 and
# its throughput stream s as stream s.
PERMUTATIONS = (
    (14, 2, 9, 20, 6, 17, 18, 8, 21, 13, 3, 22, 16, 4, 11, 15, 1, 10, 19, 5, 7, 12),
    (21, 3, 18, 5, 11, 7, 6, 20, 17, 12, 16, 15, 13, 10, 2, 8, 14, 19, 9, 22, 1, 4),
    (6, 17, 14, 16, 19, 10, 9, 2, 15, 8, 5, 22, 12, 7, 13, 18, 1, 4, 20, 3, 11, 21),
    (8, 5, 4, 6, 17, 7, 1, 18, 22, 14, 9, 10, 15, 11, 20, 2, 21, 19, 13, 16, 12, 3),
    (5, 21, 14, 19, 15, 17, 12, 6, 4, 9, 8, 16, 11, 2, 10, 18, 1, 13, 7, 22, 3, 20),
    (21, 15, 4, 6, 7, 16, 19, 18, 14, 22, 11, 13, 3, 1, 2, 5, 8, 20, 12, 17, 10, 9),
    (10, 3, 15, 13, 6, 8, 9, 7, 4, 11, 22, 18, 12, 1, 5, 16, 2, 14, 19, 20, 17, 21),
    (18, 8, 20, 21, 2, 4, 22, 17, 1, 11, 9, 19, 3, 13, 5, 7, 10, 16, 6, 14, 15, 12),
    (19, 1, 15, 17, 5, 8, 9, 12, 14, 7, 4, 3, 20, 16, 6, 22, 10, 13, 2, 21, 18, 11),
    (8, 13, 2, 20, 17, 3, 6, 21, 18, 11, 19, 10, 15, 4, 22, 1, 7, 12, 9, 14, 5, 16),
    (6, 15, 18, 17, 12, 1, 7, 2, 22, 13, 21, 10, 14, 9, 3, 16, 20, 19, 11, 4, 8, 5),
    (15, 14, 18, 17, 10, 20, 16, 11, 1, 8, 4, 22, 5, 12, 3, 9, 21, 2, 13, 6, 19, 7),
    (1, 7, 16, 17, 18, 22, 12, 6, 8, 9, 11, 4, 2, 5, 20, 21, 13, 10, 19, 3, 14, 15),
    (21, 17, 7, 3, 1, 10, 12, 22, 9, 16, 6, 11, 2, 4, 5, 14, 8, 20, 13, 18, 15, 19),
    (2, 9, 5, 4, 18, 1, 20, 15, 16, 17, 7, 21, 13, 14, 19, 8, 22, 11, 10, 3, 12, 6),
    (16, 9, 17, 8, 14, 11, 10, 12, 6, 21, 7, 3, 15, 5, 22, 20, 1, 13, 19, 2, 4, 18),
    (1, 3, 6, 5, 2, 16, 14, 22, 17, 20, 4, 9, 10, 11, 15, 8, 12, 19, 18, 13, 7, 21),
    (3, 16, 5, 11, 21, 9, 2, 15, 10, 18, 17, 7, 8, 19, 14, 13, 1, 4, 22, 20, 6, 12),
    (14, 4, 13, 5, 21, 11, 8, 6, 3, 17, 2, 20, 1, 19, 10, 9, 12, 18, 15, 7, 22, 16),
    (4, 12, 22, 14, 5, 15, 16, 2, 8, 10, 17, 9, 21, 7, 3, 6, 13, 18, 11, 20, 19, 1),
    (16, 15, 14, 13, 4, 22, 18, 19, 7, 1, 12, 17, 5, 10, 20, 3, 9, 21, 11, 2, 6, 8),
    (20, 14, 21, 12, 15, 17, 4, 19, 13, 10, 11, 1, 16, 5, 18, 7, 8, 22, 9, 6, 3, 2),
    (16, 14, 13, 2, 21, 10, 11, 4, 1, 22, 18, 12, 19, 5, 7, 8, 6, 3, 15, 20, 9, 17),
    (18, 15, 9, 14, 12, 2, 8, 11, 22, 21, 16, 1, 6, 17, 5, 10, 19, 4, 20, 13, 3, 7),
    (7, 3, 10, 14, 13, 21, 18, 6, 20, 4, 9, 8, 22, 15, 2, 1, 5, 12, 19, 17, 11, 16),
    (18, 1, 13, 7, 16, 10, 14, 2, 19, 5, 21, 11, 22, 15, 8, 17, 20, 3, 4, 12, 6, 9),
    (13, 2, 22, 5, 11, 21, 20, 14, 7, 10, 4, 9, 19, 18, 6, 3, 1, 8, 15, 12, 17, 16),
    (14, 17, 21, 8, 2, 9, 6, 4, 5, 13, 22, 7, 15, 3, 1, 18, 16, 11, 10, 12, 20, 19),
    (10, 22, 1, 12, 13, 18, 21, 20, 2, 14, 16, 7, 15, 3, 4, 17, 5, 19, 6, 8, 9, 11),
    (10, 8, 9, 18, 12, 6, 1, 5, 20, 11, 17, 22, 16, 3, 13, 2, 15, 21, 14, 19, 7, 4),
    (7, 17, 22, 5, 3, 10, 13, 18, 9, 1, 14, 15, 21, 19, 16, 12, 8, 6, 11, 20, 4, 2),
    (2, 9, 21, 3, 4, 7, 1, 11, 16, 5, 20, 19, 18, 8, 17, 13, 10, 12, 15, 6, 14, 22),
    (15, 12, 8, 4, 22, 13, 16, 17, 18, 3, 7, 5, 6, 1, 9, 11, 21, 10, 14, 20, 19, 2),
    (15, 16, 2, 11, 17, 7, 5, 14, 20, 4, 21, 3, 10, 9, 12, 8, 13, 6, 18, 19, 22, 1),
    (1, 13, 11, 3, 4, 21, 6, 14, 15, 22, 18, 9, 7, 5, 10, 20, 12, 16, 17, 8, 19, 2),
    (14, 17, 22, 20, 8, 16, 5, 10, 1, 13, 2, 21, 12, 9, 4, 18, 3, 7, 6, 19, 15, 11),
    (9, 17, 7, 4, 5, 13, 21, 18, 11, 3, 22, 1, 6, 16, 20, 14, 15, 10, 8, 2, 12, 19),
    (13, 14, 5, 22, 19, 11, 9, 6, 18, 15, 8, 10, 7, 4, 17, 16, 3, 1, 12, 2, 21, 20),
    (20, 5, 4, 14, 11, 1, 6, 16, 8, 22, 7, 3, 2, 12, 21, 19, 17, 13, 10, 15, 18, 9),
    (3, 7, 14, 15, 6, 5, 21, 20, 18, 10, 4, 16, 19, 1, 13, 9, 8, 17, 11, 12, 22, 2),
    (13, 15, 17, 1, 22, 11, 3, 4, 7, 20, 14, 21, 9, 8, 2, 18, 16, 6, 10, 12, 5, 19),
)


def stream_order(stream):
    """The query numbers of query stream `stream` (0: the power test), in
    the order the kit runs them."""
    return list(PERMUTATIONS[stream % len(PERMUTATIONS)])


def refresh_orders(norders):
    """The orders each refresh function inserts or deletes by default:
    SF x 1500, 0.1% of the orders loaded (the TPC-H specification's RF1
    and RF2; dbgen -U writes update sets of this size), at least 1."""
    return max(1, norders // 1000)


# The commit-heavy variant's default: enough commits that a refresh
# function lasts seconds (on ext4 over a loop device here RF1 3.9 s and
# RF2 2.5 s; without cache flushes 1.7 s and 1.1 s), within the orders the
# load makes room for (refresh x (streams + 1): 5000 at SF 0.01).
COMMIT_HEAVY_REFRESH_COMMITS = 4000
# The commit probe's pgbench drives all its sessions from one thread: the
# probe measures the server's WAL, and every client thread is one more
# runnable task competing with the backends (and with the kernel threads
# completing their I/O) for the CPUs.  With a thread per session, on 2
# CPUs at 4 sessions, PostgreSQL's own time per WAL sync was longer in 22
# of 31 paired rounds, by 0-10% in the median per filesystem and 13-19%
# in one run (bench/wal-sync-anatomy --client-threads 1,4); the syncs per
# commit stayed the same.
PROBE_CLIENT_THREADS = 1


def commit_heavy_refresh(norders, streams, commit_every):
    """--commit-every without --refresh-size: COMMIT_HEAVY_REFRESH_COMMITS
    commits per refresh function, at most what the orders allow."""
    return max(1, min(COMMIT_HEAVY_REFRESH_COMMITS * commit_every,
                      norders // (streams + 1)))


def probe_task(committers):
    """The q_time.csv task of the commit probe with that many sessions."""
    return "COMMIT.C%d" % committers


def timed_row(name, fn):
    """fn() timed: its q_time row (name, start, end, seconds)."""
    t0 = datetime.datetime.now()
    m0 = time.monotonic()
    fn()
    m1 = time.monotonic()
    return (name, t0, datetime.datetime.now(), m1 - m0)


def join_until_error(threads, errors):
    """Start threads and wait until every one has ended, or until one
    has put an exception in errors (the others are daemons, left
    running)."""
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(0.2)
            if errors:
                break
        if errors:
            break


def scale(sf):
    """The row counts of the scale factor that the SQL needs."""
    return {"nsupp": max(10, int(10000 * sf)), "npart": max(20, int(200000 * sf)),
            "ncust": max(15, int(150000 * sf))}


def schema_script(sf):
    return sql.script(sql.load("quiet"),
                      sql.load("schema", sf=repr(float(sf)), **scale(sf)))


def load_script(sf, norders, nnew):
    return sql.script(sql.load("quiet"),
                      sql.load("load", norders=norders, nnew=nnew, **scale(sf)))


def queries(sf):
    """Queries 1-22 written after the TPC-H query definitions, with the
    specification's validation parameters."""
    qs = {n: sql.load("q%02d" % n) for n in range(1, 23) if n != 11}
    qs[11] = sql.load("q11", fraction="%.10f" % (0.0001 / sf))
    return qs


def stream_script(qs, order):
    """One query stream: each query between two server-side time stamps."""
    lines = [sql.load("quiet")]
    for n in order:
        lines += [sql.load("query_begin", query=n), qs[n], sql.load("query_end", query=n)]
    return sql.script(*lines)


def refresh_script(name, first, count, every=None):
    """RF1 or RF2 (name) for count orders from first on: one transaction
    (one commit), as the kit's, or with every, one per that many orders
    (the commit-heavy variant, --commit-every)."""
    every = every or count
    end = first + count
    return sql.script(sql.load("quiet"), *(
        sql.load(name, first=lo, last=min(lo + every, end) - 1)
        for lo in range(first, end, every)))


def commits(count, every=None):
    """The transactions of one refresh function of count orders."""
    return -(-count // every) if every else 1


def stream_rows(prefix, output):
    """One q_time row per query from a stream's psql output (the @@B and
    @@E lines of query_begin.sql and query_end.sql)."""
    starts = {}
    rows = []
    for line in output.splitlines():
        if line.startswith("@@B|") or line.startswith("@@E|"):
            tag, n, ts = line.split("|")
            dt = datetime.datetime.fromtimestamp(float(ts))
            if tag == "@@B":
                starts[int(n)] = (dt, float(ts))
            else:
                b = starts[int(n)]
                rows.append(("%s.Q%d" % (prefix, int(n)), b[0], dt, float(ts) - b[1]))
    return rows


class Workload:
    def __init__(self, args):
        self.args = args
        self.cluster = None
        self.tasks = []          # q_time rows: (name, start_dt, end_dt, seconds)
        self.walrows = []        # (name, delta dict)
        self.ifrrows = []        # (name, interference.figures dict)
        self.devices = None      # the cluster's block devices
        self.next_rf1 = 0
        self.next_rf2 = 0
        self.sf = args.sf
        self.norders = max(150, int(1500000 * self.sf))
        self.commit_every = args.commit_every
        self.refresh = (args.refresh_size if args.refresh_size is not None
                        else commit_heavy_refresh(self.norders, args.streams,
                                                  self.commit_every)
                        if self.commit_every else refresh_orders(self.norders))
        # the commit probe: commits per session, and the session counts
        self.probe = getattr(args, "commit_probe", 0) or 0
        self.probe_committers = getattr(args, "probe_committers", None) or [1, 4]
        # how many sessions commit in each task: one everywhere but the
        # probe (the throughput phase's query streams commit nothing)
        self.committers = {}
        self.commits = commits(self.refresh, self.commit_every)
        if self.refresh * (args.streams + 1) > self.norders:
            raise UsageError("--refresh-size %d x (streams %d + 1) is more than "
                             "the %d orders loaded" % (self.refresh, args.streams,
                                                       self.norders))

    def run(self, cluster):
        """The three phases on a started cluster, and the commit probe
        between the load and the power phase when asked for."""
        self.cluster = cluster
        s = self.phase_load()
        if self.probe:
            s = self.phase_commit_probe(s)
        s = self.phase_power(s)
        self.phase_throughput(s)
        for name, _, _, _ in self.tasks:
            self.committers.setdefault(name, 1)

    def phase_commit_probe(self, s0):
        """COMMIT.C<n> for each n of the probe's session counts: n pgbench
        clients commit small inserts (sql/probe_insert.sql), --commit-probe
        each: PostgreSQL's own time per WAL sync and syncs per commit at n
        committers, against diskio --pattern wal --jobs n (not a DBT-3
        phase)."""
        self.psql(sql.script(sql.load("quiet"), sql.load("probe_schema")),
                  "commit probe table")
        script = os.path.join(self.cluster.work_dir, "probe_insert.sql")
        with open(script, "w") as f:
            f.write(sql.load("probe_insert") + "\n")
        pgbench = os.path.join(self.cluster.bindir, "pgbench")
        for n in self.probe_committers:
            name = probe_task(n)
            progress("%s: %d sessions, %d small-insert commits each"
                     % (name, n, self.probe))
            self.timed(name, lambda: self.cluster.run(
                [pgbench, "-n", "-c", str(n), "-j", str(PROBE_CLIENT_THREADS),
                 "-t", str(self.probe),
                 "-f", script, "-h", self.cluster.sock_dir, "-p", str(PORT),
                 "-U", DBUSER, DBNAME],
                env=dict(self.cluster.base_env(), HOME=self.cluster.work_dir),
                what="pgbench (%s)" % name))
            s1 = self.snapshot()
            d = self.add_wal(name, s0, s1)
            self.committers[name] = n
            progress("%s done in %.3f s (%d commits, %d wal_sync, %.1f us per sync)"
                     % (name, self.tasks[-1][3], d["xact_commit"], d["wal_sync"],
                        1000.0 * d["wal_sync_time_ms"] / d["wal_sync"]
                        if d["wal_sync"] else float("nan")))
            s0 = s1
        return s0

    def psql(self, script, what, capture=False):
        return self.cluster.psql(script, what, capture)

    def snapshot(self):
        """The server's counters between two phases, and the machine's
        before and after reading them: reading them takes the statistics
        pause and a psql, which are neither phase's, so a phase's
        interference runs from the end of the snapshot before it to the
        start of the one after (its wall_s is then the phase's time)."""
        at_start = self.interference_snapshot()
        snap = stats.snapshot(self.cluster)
        snap["_ifr"] = (at_start, self.interference_snapshot())
        return snap

    def interference_snapshot(self):
        """What else the machine did, counted now (interference.py)."""
        cluster = self.cluster
        data_dir = getattr(cluster, "data_dir", None)
        if self.devices is None:
            self.devices = interference.devices_of(data_dir) if data_dir else []
        postmaster = None
        pids = ()
        try:
            postmaster = cluster.postmaster_pid()
            from .cluster import server_processes
            pids = server_processes(data_dir, postmaster)
        except (AttributeError, OSError, ValueError, TypeError):
            pass
        return interference.snapshot(pids, postmaster, self.devices)

    def add_wal(self, name, before, after):
        d = stats.delta(before, after)
        self.walrows.append((name, d))
        if "_ifr" in before and "_ifr" in after:
            f = interference.figures(before["_ifr"][1], after["_ifr"][0])
            self.ifrrows.append((name, f))
            if f["reasons"]:
                progress("%s was disturbed: %s" % (name, "; ".join(f["reasons"])))
        return d

    def add_task(self, name, t0, t1, seconds=None):
        self.tasks.append((name, t0, t1, (t1 - t0).total_seconds()
                           if seconds is None else seconds))

    def timed(self, name, fn):
        row = timed_row(name, fn)
        self.tasks.append(row)
        return row[1], row[2], row[3]

    def run_stream(self, prefix, order, qs):
        """Run a query stream in one psql session; one row per query from
        the server-side time stamps."""
        return stream_rows(prefix, self.psql(stream_script(qs, order), prefix,
                                             capture=True))

    def rf1(self):
        first = self.norders + self.next_rf1 * self.refresh + 1
        self.next_rf1 += 1
        self.psql(refresh_script("rf1", first, self.refresh, self.commit_every), "RF1")

    def rf2(self):
        first = self.next_rf2 * self.refresh + 1
        self.next_rf2 += 1
        self.psql(refresh_script("rf2", first, self.refresh, self.commit_every), "RF2")

    def refresh_words(self):
        """How the refresh functions commit, for the progress lines."""
        if self.commits == 1:
            return "%d orders each, one transaction" % self.refresh
        return "%d orders each, %d commits (--commit-every %d)" % (
            self.refresh, self.commits, self.commit_every)

    def phase_load(self):
        progress("LOAD: generating SF %g (%d orders), indexes, VACUUM ANALYZE, CHECKPOINT"
                 % (self.sf, self.norders))
        s0 = self.snapshot()
        t0, _, sec_data = self.timed("LOAD.DATA", lambda: (
            self.psql(schema_script(self.sf), "schema"),
            self.psql(load_script(self.sf, self.norders,
                                  self.refresh * (self.args.streams + 1)), "load")))
        s1 = self.snapshot()
        _, t1, sec_ckp = self.timed("LOAD.CHECKPOINT", lambda: self.psql(
            sql.script(sql.load("checkpoint")), "checkpoint"))
        s2 = self.snapshot()
        self.add_task("LOAD", t0, t1, sec_data + sec_ckp)
        self.tasks.insert(len(self.tasks) - 3, self.tasks.pop())
        d = self.add_wal("LOAD", s0, s2)
        self.add_wal("LOAD.DATA", s0, s1)
        self.add_wal("LOAD.CHECKPOINT", s1, s2)
        progress("LOAD done in %.3f s (data %.3f s, checkpoint %.3f s; wal_sync %d, "
                 "checkpoint sync %.0f ms)" % (sec_data + sec_ckp, sec_data, sec_ckp,
                                               d["wal_sync"], d["checkpoint_sync_time_ms"]))
        return s2

    def phase_power(self, s0):
        """The kit's power test: RF1, the queries in stream 0's order, RF2.
        q_time.csv lists PERF.POWER first, then its parts as they ran."""
        qs = queries(self.sf)
        order = stream_order(0)
        progress("PERF.POWER: RF1, 22 queries in stream 0's order (Q%d first), RF2 "
                 "(%s)" % (order[0], self.refresh_words()))
        first = len(self.tasks)
        t0, _, sec_rf1 = self.timed("PERF.POWER.RF1", self.rf1)
        s1 = self.snapshot()
        d1 = self.add_wal("PERF.POWER.RF1", s0, s1)
        rows = []
        _, _, sec_q = self.timed("PERF.POWER.QUERIES", lambda: rows.extend(
            self.run_stream("PERF.POWER", order, qs)))
        self.tasks.pop()   # the query block is reported per query only
        self.tasks.extend(rows)
        s2 = self.snapshot()
        _, t1, sec_rf2 = self.timed("PERF.POWER.RF2", self.rf2)
        s3 = self.snapshot()
        d2 = self.add_wal("PERF.POWER.RF2", s2, s3)
        total = sec_rf1 + sec_q + sec_rf2
        self.tasks.insert(first, ("PERF.POWER", t0, t1, total))
        self.add_wal("PERF.POWER", s0, s3)
        # PERF.POWER first among its rows in wal.csv too
        self.walrows.insert(len(self.walrows) - 3, self.walrows.pop())
        progress("PERF.POWER done in %.3f s (RF1 %.3f s with %d wal_sync, queries "
                 "%.3f s, RF2 %.3f s with %d wal_sync)"
                 % (total, sec_rf1, d1["wal_sync"], sec_q, sec_rf2, d2["wal_sync"]))
        return s3

    def refresh_stream(self, S):
        """The throughput test's refresh stream: RF1 and RF2 S times, its
        rows (PERF.THRUPUT.RFST<n>, then its .RF1 and .RF2)."""
        rows = []
        for n in range(1, S + 1):
            name = "PERF.THRUPUT.RFST%d" % n
            parts = []
            rfst = timed_row(name, lambda: parts.extend((
                timed_row(name + ".RF1", self.rf1),
                timed_row(name + ".RF2", self.rf2))))
            rows += [rfst] + parts
        return rows

    def phase_throughput(self, s0):
        """The kit's throughput test: query streams 1..S, each in its own
        order, beside one refresh stream that runs RF1 and RF2 once per
        query stream (PERF.THRUPUT.RFST<n>, .RF1, .RF2)."""
        qs = queries(self.sf)
        S = self.args.streams
        progress("PERF.THRUPUT: %d query streams and a refresh stream (%d x RF1+RF2, %s)"
                 % (S, S, self.refresh_words()))
        results = {}
        errors = []

        def stream(s):
            try:
                name = "PERF.THRUPUT.QS%d" % s
                rows = []
                all_ = timed_row(name + ".ALL", lambda: rows.extend(
                    self.run_stream(name, stream_order(s), qs)))
                results[s] = [all_] + rows
            except BaseException as e:   # reported by the main thread
                errors.append(e)

        def refresh():
            try:
                results["rf"] = self.refresh_stream(S)
            except BaseException as e:
                errors.append(e)

        threads = [threading.Thread(target=stream, args=(s,), daemon=True)
                   for s in range(1, S + 1)]
        threads.append(threading.Thread(target=refresh, daemon=True))
        t0 = datetime.datetime.now()
        m0 = time.monotonic()
        join_until_error(threads, errors)
        m1 = time.monotonic()
        t1 = datetime.datetime.now()
        if errors:
            e = errors[0]
            raise e if isinstance(e, RunError) else RunError("throughput: %s" % e)
        s1 = self.snapshot()
        self.add_task("PERF.THRUPUT", t0, t1, m1 - m0)
        for s in range(1, S + 1):
            self.tasks.extend(results[s])
        self.tasks.extend(results["rf"])
        d = self.add_wal("PERF.THRUPUT", s0, s1)
        refresh_s = sum(r[3] for r in results["rf"] if r[0].count(".") == 2)
        last = max(((r[0][0], r[0][3]) for k, r in results.items() if k != "rf"),
                   key=lambda x: x[1])
        progress("PERF.THRUPUT done in %.3f s (refresh stream %.3f s, wal_sync %d; "
                 "longest query stream: %s %.3f s)"
                 % (m1 - m0, refresh_s, d["wal_sync"], last[0], last[1]))
        return s1
