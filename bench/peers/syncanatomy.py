# SPDX-License-Identifier: MIT
"""syncanatomy: where the time of each sync system call goes, from the
scheduler's own events.

`perf record -a` of the sync calls' entries and exits and of
sched_switch / sched_wakeup gives, for every call, its duration as the
kernel saw it and how the calling task spent it:

- asleep: switched out sleeping until something woke it (the I/O, the
  journal commit it waits for, a lock);
- cpu_wait: runnable but not running - from a wake-up, or from being
  preempted, until it ran again (the run queue: other tasks had the CPUs);
- on_cpu: the rest, the kernel's own work for the call (and the
  interrupts it took meanwhile);

and how its sleeps ended: how many without a recorded wake-up (the CPU
left idle for the task: on a VM whose idle vCPUs halt, a wake-up through
the hypervisor, bench/wake-cost.c) and how many on another CPU than the
one the task slept on.

Beside that, the run-queue wait of the kernel's helpers (the loop
device's and the filesystem's workers) over the whole recording.  The
parsing is pure (anatomy() takes perf script's text), so it is tested on
recorded lines; record() runs perf around a callable."""

import collections
import os
import re
import signal
import subprocess
import time

SYNC_CALLS = ("fdatasync", "fsync")
FIELDS = "comm,tid,cpu,time,event,trace"
# perf script -F comm,tid,cpu,time,event,trace --ns
LINE = re.compile(r"^\s*(?P<comm>.+?)\s+(?P<tid>\d+)\s+\[(?P<cpu>\d+)\]\s+"
                  r"(?P<time>\d+\.\d+):\s+(?P<event>\S+):\s*(?P<rest>.*)$")
SWITCH = re.compile(r"prev_comm=(?P<prev_comm>.*?) prev_pid=(?P<prev>\d+) .*?"
                    r"prev_state=(?P<state>\S+) ==> next_comm=(?P<next_comm>.*?) "
                    r"next_pid=(?P<next>\d+)")
WAKEUP = re.compile(r"comm=(?P<comm>.*?) pid=(?P<pid>\d+)")
# kernel threads named like kworker/1:1H-kblockd or jbd2/loop0-8: the family
FAMILY = re.compile(r"^([^/ ]+?)(?:/.*)?$")


class Call:
    """One sync call: its duration and how the caller spent it (ns)."""
    __slots__ = ("comm", "total", "asleep", "cpu_wait", "sleeps", "idle_wakes", "migrations")

    def __init__(self, comm):
        self.comm, self.total, self.asleep, self.cpu_wait, self.sleeps = comm, 0, 0, 0, 0
        self.idle_wakes = 0     # sleeps that ended with no wake-up recorded
        self.migrations = 0     # times off the CPU that ended on another CPU

    @property
    def on_cpu(self):
        return self.total - self.asleep - self.cpu_wait


def family(comm):
    m = FAMILY.match(comm)
    return m.group(1) if m else comm


def anatomy(text, calls=SYNC_CALLS):
    """Parse perf script's text.  Returns (the calls, as Call objects in
    the order they ended; {task family: [run-queue wait ns, times]} over
    the whole recording).

    A task runs again at its switch-in or at the first event it is the
    current task of, whichever comes first: on some kernels (this VM's
    among them) a CPU leaving idle for the task it woke records neither
    the wake-up nor the switch.  Time off the CPU after a sleep is split
    at the wake-up where one was recorded; where none was, all of it is
    counted asleep (a wake-up out of idle has no run queue to wait in)."""
    enter = {"syscalls:sys_enter_" + c for c in calls}
    leave = {"syscalls:sys_exit_" + c for c in calls}
    open_calls = {}     # tid -> (entry ns, Call)
    off = {}            # tid -> [switched out at, woken at or None, preempted, CPU]
    done = []
    helpers = collections.defaultdict(lambda: [0, 0])

    def runs_again(tid, comm, t, cpu):
        since = off.pop(tid, None)
        if since is None:
            return
        out_at, woken_at, preempted, out_cpu = since
        ready_at = out_at if preempted else woken_at
        asleep = 0 if preempted else (woken_at if woken_at is not None else t) - out_at
        waited = t - ready_at if ready_at is not None else 0
        if tid in open_calls:
            call = open_calls[tid][1]
            call.asleep += asleep
            call.cpu_wait += waited
            call.sleeps += not preempted
            call.idle_wakes += not preempted and woken_at is None
            call.migrations += cpu != out_cpu
        if ready_at is not None:
            h = helpers[family(comm)]
            h[0] += waited
            h[1] += 1

    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        event = m.group("event")
        tid, cpu = int(m.group("tid")), int(m.group("cpu"))
        sec, frac = m.group("time").split(".")
        t = int(sec) * 1000000000 + int(frac.ljust(9, "0")[:9])
        if tid:
            runs_again(tid, m.group("comm"), t, cpu)    # it is the current task
        if event in enter:
            open_calls[tid] = (t, Call(m.group("comm")))
        elif event in leave:
            if tid in open_calls:
                start, call = open_calls.pop(tid)
                call.total = t - start
                done.append(call)
        elif event == "sched:sched_wakeup":
            w = WAKEUP.search(m.group("rest"))
            if w and int(w.group("pid")) in off:
                since = off[int(w.group("pid"))]
                if not since[2] and since[1] is None:
                    since[1] = t
        elif event == "sched:sched_switch":
            s = SWITCH.search(m.group("rest"))
            if not s:
                continue
            prev, nxt = int(s.group("prev")), int(s.group("next"))
            if prev:
                off[prev] = [t, None, s.group("state").startswith("R"), cpu]
            if nxt:
                runs_again(nxt, s.group("next_comm"), t, cpu)
    return done, dict(helpers)


def record(work, fn, calls=SYNC_CALLS):
    """Run fn() under `perf record -a` of the calls and the scheduler's
    switches and wake-ups; returns (fn's result, anatomy of the
    recording).  The recording is removed."""
    data = os.path.join(work, "sync-anatomy.data")
    events = ["sched:sched_switch", "sched:sched_wakeup"]
    for c in calls:
        events += [f"syscalls:sys_enter_{c}", f"syscalls:sys_exit_{c}"]
    perf = subprocess.Popen(["perf", "record", "-q", "-a", "-e", ",".join(events), "-o", data],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(0.5)     # perf has no ready signal; its start-up is ~0.1 s
        if perf.poll() is not None:
            raise RuntimeError(f"perf record failed: {perf.stderr.read().strip()}")
        result = fn()
    finally:
        if perf.poll() is None:
            perf.send_signal(signal.SIGINT)
        perf.wait()
    try:
        text = subprocess.run(["perf", "script", "--ns", "-i", data, "-F", FIELDS],
                              check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(data)
    return result, anatomy(text, calls)


def summarise(calls, helpers, comm):
    """Means per call of comm's calls (us) and the helpers' run-queue wait
    per call (us, by family), or None without calls."""
    mine = [c for c in calls if c.comm == comm]
    if not mine:
        return None
    n = len(mine)

    def mean_us(attr):
        return sum(getattr(c, attr) for c in mine) / n / 1000.0
    return {"calls": n, "total_us": mean_us("total"), "asleep_us": mean_us("asleep"),
            "cpu_wait_us": mean_us("cpu_wait"), "on_cpu_us": mean_us("on_cpu"),
            "sleeps": sum(c.sleeps for c in mine) / n,
            "idle_wakes": sum(c.idle_wakes for c in mine) / n,
            "migrations": sum(c.migrations for c in mine) / n,
            "helpers_wait_us": {k: v[0] / n / 1000.0 for k, v in helpers.items()
                                if k not in (comm, "swapper")}}
