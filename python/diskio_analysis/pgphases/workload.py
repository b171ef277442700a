# SPDX-License-Identifier: MIT
"""The DBT-3-style workload: the load phase, the power phase (22 queries,
RF1, RF2), the throughput phase (query streams beside a refresh stream),
and their timing.  Every phase appends its q_time.csv rows to tasks and
its counters to walrows, in the order the result files list them."""

import datetime
import random
import threading
import time

from ..errors import UsageError
from . import RunError, progress, sql, stats


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


def refresh_script(name, first, count):
    """RF1 or RF2 (name) for count orders from first on, one transaction
    (one commit) per order."""
    return sql.script(sql.load("quiet"), *(sql.load(name, orderkey=k)
                                           for k in range(first, first + count)))


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
        self.next_rf1 = 0
        self.next_rf2 = 0
        self.sf = args.sf
        self.norders = max(150, int(1500000 * self.sf))
        self.refresh = (args.refresh_size if args.refresh_size is not None
                        else max(1, int(round(self.norders * 0.01))))
        if self.refresh * (args.streams + 1) > self.norders:
            raise UsageError("--refresh-size %d x (streams %d + 1) is more than "
                             "the %d orders loaded" % (self.refresh, args.streams,
                                                       self.norders))

    def run(self, cluster):
        """The three phases on a started cluster."""
        self.cluster = cluster
        s = self.phase_load()
        s = self.phase_power(s)
        self.phase_throughput(s)

    def psql(self, script, what, capture=False):
        return self.cluster.psql(script, what, capture)

    def snapshot(self):
        return stats.snapshot(self.cluster)

    def add_wal(self, name, before, after):
        d = stats.delta(before, after)
        self.walrows.append((name, d))
        return d

    def add_task(self, name, t0, t1, seconds=None):
        self.tasks.append((name, t0, t1, (t1 - t0).total_seconds()
                           if seconds is None else seconds))

    def timed(self, name, fn):
        t0 = datetime.datetime.now()
        m0 = time.monotonic()
        fn()
        m1 = time.monotonic()
        t1 = datetime.datetime.now()
        self.add_task(name, t0, t1, m1 - m0)
        return t0, t1, m1 - m0

    def run_stream(self, prefix, order, qs):
        """Run a query stream in one psql session; one row per query from
        the server-side time stamps."""
        return stream_rows(prefix, self.psql(stream_script(qs, order), prefix,
                                             capture=True))

    def rf1(self):
        first = self.norders + self.next_rf1 * self.refresh + 1
        self.next_rf1 += 1
        self.psql(refresh_script("rf1", first, self.refresh), "RF1")

    def rf2(self):
        first = self.next_rf2 * self.refresh + 1
        self.next_rf2 += 1
        self.psql(refresh_script("rf2", first, self.refresh), "RF2")

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
        qs = queries(self.sf)
        progress("PERF.POWER: 22 queries, then RF1 and RF2 (%d commits each)" % self.refresh)
        rows = []
        t0, _, sec_q = self.timed("PERF.POWER.QUERIES", lambda: rows.extend(
            self.run_stream("PERF.POWER", list(range(1, 23)), qs)))
        self.tasks.pop()   # the query block is reported per query only
        self.tasks.extend(rows)
        s1 = self.snapshot()
        _, _, sec_rf1 = self.timed("PERF.POWER.RF1", self.rf1)
        s2 = self.snapshot()
        d1 = self.add_wal("PERF.POWER.RF1", s1, s2)
        _, t1, sec_rf2 = self.timed("PERF.POWER.RF2", self.rf2)
        s3 = self.snapshot()
        d2 = self.add_wal("PERF.POWER.RF2", s2, s3)
        total = sec_q + sec_rf1 + sec_rf2
        self.add_task("PERF.POWER", t0, t1, total)
        self.add_wal("PERF.POWER", s0, s3)
        # keep the order of rows: PERF.POWER first among its rows in wal.csv
        self.walrows.insert(len(self.walrows) - 3, self.walrows.pop())
        progress("PERF.POWER done in %.3f s (queries %.3f s, RF1 %.3f s with %d "
                 "wal_sync, RF2 %.3f s with %d wal_sync)"
                 % (total, sec_q, sec_rf1, d1["wal_sync"], sec_rf2, d2["wal_sync"]))
        return s3

    def phase_throughput(self, s0):
        qs = queries(self.sf)
        S = self.args.streams
        progress("PERF.THRUPUT: %d query streams and a refresh stream (%d x RF1+RF2)"
                 % (S, S))
        results = {}
        errors = []

        def stream(s):
            try:
                order = list(range(1, 23))
                random.Random(1000 + s).shuffle(order)
                name = "PERF.THRUPUT.QS%d" % s
                t0 = datetime.datetime.now()
                m0 = time.monotonic()
                rows = self.run_stream(name, order, qs)
                m1 = time.monotonic()
                t1 = datetime.datetime.now()
                results[s] = [(name + ".ALL", t0, t1, m1 - m0)] + rows
            except BaseException as e:   # reported by the main thread
                errors.append(e)

        def refresh():
            try:
                t0 = datetime.datetime.now()
                m0 = time.monotonic()
                for _ in range(S):
                    self.rf1()
                    self.rf2()
                m1 = time.monotonic()
                t1 = datetime.datetime.now()
                results["rf"] = [("PERF.THRUPUT.RFST", t0, t1, m1 - m0)]
            except BaseException as e:
                errors.append(e)

        threads = [threading.Thread(target=stream, args=(s,), daemon=True)
                   for s in range(1, S + 1)]
        threads.append(threading.Thread(target=refresh, daemon=True))
        t0 = datetime.datetime.now()
        m0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.2)
                if errors:
                    break
            if errors:
                break
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
        last = max(((r[0][0], r[0][3]) for r in results.values()), key=lambda x: x[1])
        progress("PERF.THRUPUT done in %.3f s (refresh stream %.3f s, wal_sync %d; "
                 "longest: %s)" % (m1 - m0, results["rf"][0][3], d["wal_sync"], last[0]))
        return s1
