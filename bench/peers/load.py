# SPDX-License-Identifier: MIT
"""How busy the machine was: the busy CPU share of everything but this
process and its children (from /proc/stat and os.times), the hypervisor's
steal, the load average; whether that is too busy; and the wait for a
quiet machine before a replacement round."""

import os
import time

from .common import log


def read_cpu():
    """(busy ticks, total ticks, steal ticks) from /proc/stat."""
    with open("/proc/stat") as f:
        return cpu_ticks(f.readline())


def cpu_ticks(line):
    """(busy, total, steal) ticks of /proc/stat's "cpu" line."""
    v = [int(x) for x in line.split()[1:]]
    v += [0] * (10 - len(v))
    user, nice, system, idle, iowait, irq, softirq, steal = v[:8]
    busy = user + nice + system + irq + softirq  # guest time is inside user
    total = busy + idle + iowait + steal
    return busy, total, steal


def own_cpu_s():
    """The CPU time of this process and of all its descendants: the ones
    reaped (os.times) and the ones still running, such as a database
    server the harness started (/proc: utime, stime, and the cutime and
    cstime of the children they reaped)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system + live_descendants_cpu_s()


def live_descendants_cpu_s():
    parent, ticks = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue    # gone meanwhile
        # the command (field 2) may hold spaces and parentheses
        fields = stat[stat.rindex(")") + 2:].split()
        parent[int(name)] = int(fields[1])
        ticks[int(name)] = sum(int(x) for x in fields[11:15])
    me, total = os.getpid(), 0
    for pid in ticks:
        p = parent.get(pid)
        while p and p != me:
            p = parent.get(p)
        if p == me:
            total += ticks[pid]
    return total / os.sysconf("SC_CLK_TCK")


class LoadMeter:
    """Busy CPU share of everything but this script and its children."""

    HZ = os.sysconf("SC_CLK_TCK")
    NCPU = os.cpu_count() or 1

    def __init__(self):
        self.busy, self.total, self.steal = read_cpu()
        self.own = own_cpu_s()
        self.t = time.monotonic()

    def stop(self):
        busy, total, steal = read_cpu()
        own = own_cpu_s()
        wall = time.monotonic() - self.t
        dtot = max(total - self.total, 1)
        other_s = max(0.0, (busy - self.busy) / self.HZ - (own - self.own))
        cap = max(dtot / self.HZ, 1e-9)
        with open("/proc/loadavg") as f:
            load1 = float(f.read().split()[0])
        return {
            "wall_s": round(wall, 3),
            "other_busy": round(min(1.0, other_s / cap), 4),
            "own_busy": round(min(1.0, (own - self.own) / cap), 4),
            "steal": round((steal - self.steal) / dtot, 4),
            "loadavg1": load1,
        }


def is_busy(load, threshold):
    return load["other_busy"] > threshold or load["steal"] > threshold


def wait_quiet(threshold, deadline):
    """Sample the load in 3 s windows until other processes are below the
    threshold (True) or the deadline (monotonic) passes (False)."""
    said = False
    while time.monotonic() + 3 < deadline:
        m = LoadMeter()
        time.sleep(3)
        load = m.stop()
        if not is_busy(load, threshold):
            return True
        if not said:
            log("  waiting for the machine to quiet down (other processes %.0f%% of the CPUs)"
                % (load["other_busy"] * 100))
            said = True
    return False
