# SPDX-License-Identifier: MIT
"""pgwal: PostgreSQL's WAL and diskio's --pattern wal side by side.

What bench/real-envs and bench/wal-sync-anatomy share: the loop-mounted
environments (ENVIRONMENTS, Filesystems), a commit probe on a running
cluster (duel_pg: PostgreSQL's own time per WAL sync from pg_stat_wal)
and diskio --pattern wal with as many committers and the pause the probe
had (duel_diskio).  Root only: losetup, mkfs, mount."""

import os
import signal
import subprocess
import time

# name -> (mkfs command, mount options, what makes it differ)
ENVIRONMENTS = {
    "ext4": (["mkfs.ext4", "-q", "-F"], None,
             "ext4 as mkfs makes it: ordered data, cache flushes on"),
    "ext4-nobarrier": (["mkfs.ext4", "-q", "-F"], "nobarrier",
                       "ext4 that never flushes the device's write cache"),
    "ext4-journal": (["mkfs.ext4", "-q", "-F"], "data=journal",
                     "ext4 journalling data too: every write goes twice"),
    "xfs": (["mkfs.xfs", "-q", "-f"], None, "XFS as mkfs makes it"),
    "btrfs": (["mkfs.btrfs", "-q", "-f"], None,
              "btrfs as mkfs makes it: copy-on-write, checksums"),
}
METHOD = "fdatasync"


class Interrupted(Exception):
    pass


def on_signal(signum, frame):
    """The handler for SIGINT, SIGTERM and SIGHUP while a bench runs: it
    unwinds to the cleanup (servers, mounts, loop devices)."""
    raise Interrupted(signal.Signals(signum).name)


def log(text):
    print(text, flush=True)


def run(cmd, **kw):
    """Run cmd; on failure its output (and its stderr, where that was kept
    apart) goes to the log, and CalledProcessError is raised."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.STDOUT)
    p = subprocess.run(cmd, text=True, **kw)
    if p.returncode != 0:
        log(f"$ {' '.join(cmd)}\n{p.stdout or ''}{p.stderr or ''}")
        raise subprocess.CalledProcessError(p.returncode, cmd, p.stdout)
    return p.stdout


class Filesystems:
    """Loop-mounted filesystems under top, made by make() and all removed
    by close(), whatever happened in between."""

    def __init__(self, top, image_size):
        self.top = top
        self.image_size = image_size
        self.mounted = []       # mount points, to unmount
        self.loops = []         # loop devices, to detach
        self.devices = {}       # environment -> its loop device

    def make(self, name):
        mkfs, options, _ = ENVIRONMENTS[name]
        image = os.path.join(self.top, name + ".img")
        with open(image, "wb") as f:
            f.truncate(self.image_size)
        loop = run(["losetup", "--find", "--show", image]).strip()
        self.loops.append(loop)
        self.devices[name] = loop
        run(mkfs + [loop])
        mnt = os.path.join(self.top, name)
        os.mkdir(mnt)
        run(["mount"] + (["-o", options] if options else []) + [loop, mnt])
        self.mounted.append(mnt)
        # the server runs as nobody: it must reach its cluster directory
        os.chmod(mnt, 0o755)
        return mnt

    def close(self):
        for mnt in reversed(self.mounted):
            subprocess.run(["umount", mnt], stderr=subprocess.DEVNULL)
        for loop in reversed(self.loops):
            subprocess.run(["losetup", "--detach", loop],
                           stderr=subprocess.DEVNULL)
        self.mounted, self.loops = [], []


def duel_pg(cluster, script, committers, commits, client_threads=None):
    """One commit probe on a running cluster: committers pgbench sessions
    of commits small-insert commits each.  PostgreSQL's own time per WAL
    sync (us), its syncs per commit, and the pause between one
    committer's commits (ns, as the WAL model reckons it).  pgbench runs
    client_threads threads (default: as diskio-pgphases' probe does)."""
    from diskio_analysis.correlate.walmodel import commit_pause_ns
    from diskio_analysis.pgphases import stats
    from diskio_analysis.pgphases.cluster import DBNAME, DBUSER, PORT
    from diskio_analysis.pgphases.workload import PROBE_CLIENT_THREADS
    s0 = stats.snapshot(cluster)
    t0 = time.monotonic()
    threads = min(committers, client_threads or PROBE_CLIENT_THREADS)
    cluster.run([os.path.join(cluster.bindir, "pgbench"), "-n", "-c", str(committers),
                 "-j", str(threads), "-t", str(commits), "-f", script,
                 "-h", cluster.sock_dir, "-p", str(PORT), "-U", DBUSER, DBNAME],
                env=dict(cluster.base_env(), HOME=cluster.work_dir), what="pgbench")
    elapsed = time.monotonic() - t0
    d = stats.delta(s0, stats.snapshot(cluster))
    syncs, done = d["wal_sync"], d["xact_commit"]
    wal_ms = d["wal_sync_time_ms"] + d["wal_write_time_ms"]
    flushes = min(syncs, done)
    gap_ns = commit_pause_ns(elapsed * committers / done, committers, flushes / done,
                             wal_ms / 1000.0 / flushes)
    return {"us": 1000.0 * d["wal_sync_time_ms"] / syncs, "syncs_per_commit": syncs / done,
            "gap_ns": int(round(gap_ns / 1e4)) * 10000, "commits": done}


def duel_diskio(args, target, committers, commits, gap_ns):
    """diskio --pattern wal with committers and the pause gap_ns: its mean
    time per sync (us), syncs per commit and the measured commits' device
    counts ({device: {"writes", "kib", "flushes"}} per sync, with the
    device's "depth" and its own mean time per write and flush request,
    "write_us" and "flush_us", None where unknown)."""
    out = run([args.diskio, "--quiet", "--pattern", "wal", "--mode", METHOD, "--jobs",
               str(committers), "--count", str(max(1, commits)), "--wal-gap",
               f"{gap_ns / 1e6}ms", "--format", "json", target], stderr=subprocess.PIPE)
    from diskio_analysis.result import result_from_text
    r = result_from_text("diskio's output", out).runs[0]
    syncs = r.wal.syncs if r.wal else None
    return {"us": r.need_part("sync").need("mean") / 1000.0,
            "syncs_per_commit": r.wal.syncs_per_commit if r.wal else None, "gap_ns": gap_ns,
            "device": {d.name: {"writes": d.writes / syncs, "kib": d.write_sectors / 2.0 / syncs,
                                "flushes": d.flushes / syncs if d.flushes is not None else None,
                                "depth": d.depth, "write_us": d.us_per_write,
                                "flush_us": d.us_per_flush}
                       for d in r.devices} if syncs else {}}
