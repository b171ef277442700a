# SPDX-License-Identifier: MIT
"""What else the machine did during each phase, read as diskio reads it
for its repetitions (src/lib/interference.c, with the same thresholds):
other processes' CPU time (the CPUs' busy time from /proc/stat minus the
server's processes' and this runner's own, with its psql children),
steal, CPU and memory pressure (/proc/pressure, where the kernel has it),
dirty and writeback pages when the phase began (/proc/meminfo), and the
bytes the cluster's block devices (the data directory's, a loop device's
backing disk too) read and wrote.  The server's own device I/O cannot be
told from another program's here (its backends come and go), so the
device figures are recorded, not judged; so is the data directory's own
device's mean time per write and per flush request (what PostgreSQL's
syncs waited for on it, beside diskio's us_per_write and us_per_flush).
A phase beyond a threshold is "disturbed"; interference.csv holds every
phase's figures and reasons, and the progress line says it beside the
phase's time."""

import os

# src/lib/interference.c's thresholds (doc/verdicts.md)
OTHER_CPUS_SPARE = 0.3
STEAL_SHARE_MAX = 0.05
CPU_PRESSURE_MAX = 0.6
MEMORY_PRESSURE_MAX = 0.01
DIRTY_MIB_MAX = 256.0
# The kernel shows each device's time in requests in whole milliseconds:
# under this many the mean is not given (diskio's REQUEST_MS_MIN)
REQUEST_MS_MIN = 20

# round: which of the run's rounds (--rounds; rounds.csv) the phase was
# measured in, from 1; server_cpus, client_cpus: the CPUs the server's
# processes and this runner with its psql or pgbench children used, on
# average over the phase (what tells a phase that took longer on the CPU
# from one that waited); device_us_per_write, device_us_per_flush: the
# data directory's device's mean time per request, from its start to its
# completion (empty under 20 ms of such requests)
HEADER = ["phase", "wall_s", "other_cpus", "steal_share", "cpu_pressure",
          "io_pressure", "memory_pressure", "dirty_mib", "device_read_mib",
          "device_written_mib", "disturbed", "reasons", "round",
          "server_cpus", "client_cpus", "device_us_per_write",
          "device_us_per_flush"]
PSI = ("cpu", "io", "memory")


def read(path):
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def parse_stat(text):
    """(busy ticks, steal ticks, cpus) of /proc/stat, or None."""
    busy = steal = None
    cpus = 0
    for line in (text or "").splitlines():
        if line.startswith("cpu "):
            v = [int(x) for x in line.split()[1:9]]
            if len(v) < 8:
                return None
            busy = v[0] + v[1] + v[2] + v[5] + v[6]
            steal = v[7]
        elif line.startswith("cpu") and line[3:4].isdigit():
            cpus += 1
    return None if busy is None or not cpus else (busy, steal, cpus)


def parse_psi(text):
    """The some line's total= (microseconds) of a pressure file, or None."""
    for line in (text or "").splitlines():
        if line.startswith("some "):
            for field in line.split():
                if field.startswith("total="):
                    return int(field[6:])
    return None


def parse_meminfo(text):
    """Dirty + Writeback in KiB, or None."""
    found = {}
    for line in (text or "").splitlines():
        key, _, rest = line.partition(":")
        if key in ("Dirty", "Writeback"):
            found[key] = int(rest.split()[0])
    return found["Dirty"] + found["Writeback"] if len(found) == 2 else None


def proc_cpu_ticks(pid, children=False):
    """utime + stime (and cutime + cstime) of a process, in ticks."""
    text = read(f"/proc/{pid}/stat")
    if not text:
        return 0
    fields = text[text.rindex(")") + 2:].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks


def mount_source_device(path, mountinfo=None):
    """The block device a path's filesystem was mounted from, as
    /proc/self/mountinfo names it ("loop3" for /dev/loop3), or None: for
    a filesystem whose files carry an anonymous device number (btrfs)."""
    if mountinfo is None:
        mountinfo = read("/proc/self/mountinfo") or ""
    real = os.path.realpath(path)
    best, source = "", None
    for line in mountinfo.splitlines():
        fields = line.split()
        if " - " not in line or len(fields) < 5:
            continue
        point = fields[4].replace("\\040", " ")
        after = line.split(" - ", 1)[1].split()
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best) and len(after) >= 2:
            best, source = point, after[1]
    if source and source.startswith("/dev/"):
        return os.path.basename(os.path.realpath(source))
    return None


def devices_of(path):
    """The kernel names of the block devices under path: its filesystem's
    disk (a partition counts as its disk; for btrfs, whose files carry an
    anonymous device number, the device it was mounted from) and, below a
    loop device, its backing file's disk too."""
    names = []
    for _ in range(4):
        try:
            dev = os.stat(path).st_dev
        except OSError:
            break
        sys = os.path.realpath(f"/sys/dev/block/{os.major(dev)}:{os.minor(dev)}")
        if not os.path.isdir(sys) and os.major(dev) == 0:
            source = mount_source_device(path)
            sys = os.path.realpath(f"/sys/class/block/{source}") if source else sys
        if not os.path.isdir(sys):
            break
        if os.path.exists(os.path.join(sys, "partition")):
            sys = os.path.dirname(sys)
        name = os.path.basename(sys)
        if name in names:
            break
        names.append(name)
        backing = read(f"/sys/block/{name}/loop/backing_file")
        if not backing:
            break
        path = backing.strip()
    return names


def device_sectors(names):
    """{name: (read sectors, written sectors, writes, ms writing, flushes,
    ms flushing)} from /sys/block/NAME/stat, in the order of names; the
    flushes None before Linux 5.5."""
    out = {}
    for name in names:
        v = (read(f"/sys/block/{name}/stat") or "").split()
        if len(v) >= 8:
            flushes = (int(v[15]), int(v[16])) if len(v) >= 17 else (None, None)
            out[name] = (int(v[2]), int(v[6]), int(v[4]), int(v[7])) + flushes
    return out


def request_us(before, after, count_at):
    """The mean time (us) of a device's requests between two readings:
    count_at indexes the request count, the milliseconds follow it; None
    without requests or under REQUEST_MS_MIN of them."""
    if len(before) <= count_at + 1 or len(after) <= count_at + 1 or \
            None in (before[count_at], after[count_at]):
        return None
    requests = after[count_at] - before[count_at]
    ms = after[count_at + 1] - before[count_at + 1]
    return 1000.0 * ms / requests if requests > 0 and ms >= REQUEST_MS_MIN else None


def snapshot(server_pids=(), postmaster=None, devices=()):
    """Every counter now.  server_pids: the server's live processes;
    postmaster: its pid (its reaped children's time is in its cutime)."""
    times = os.times()
    own_s = times.user + times.system + times.children_user + \
        times.children_system
    hz = os.sysconf("SC_CLK_TCK")
    server = sum(proc_cpu_ticks(pid, children=pid == postmaster)
                 for pid in server_pids)
    return {"elapsed": times.elapsed, "own_s": own_s + server / hz,
            "server_s": server / hz, "client_s": own_s,
            "stat": parse_stat(read("/proc/stat")), "hz": hz,
            "psi": {k: parse_psi(read(f"/proc/pressure/{k}")) for k in PSI},
            "dirty_kib": parse_meminfo(read("/proc/meminfo")),
            "devices": device_sectors(devices)}


def figures(before, after):
    """The phase's figures and the reasons it was disturbed."""
    wall = after["elapsed"] - before["elapsed"]
    f = {"wall_s": wall, "other_cpus": None, "steal_share": None,
         "cpu_pressure": None, "io_pressure": None, "memory_pressure": None,
         "dirty_mib": None, "device_read_mib": None,
         "device_written_mib": None, "server_cpus": None,
         "client_cpus": None, "device_us_per_write": None,
         "device_us_per_flush": None, "reasons": []}
    if wall <= 0:
        return f
    for key in ("server", "client"):
        if f"{key}_s" in before and f"{key}_s" in after:
            f[f"{key}_cpus"] = max(0.0, after[f"{key}_s"] - before[f"{key}_s"]) / wall
    if before["stat"] and after["stat"]:
        machine_cpu_figures(f, before, after, wall)
    for key in PSI:
        b, a = before["psi"][key], after["psi"][key]
        if b is not None and a is not None and a >= b:
            f[f"{key}_pressure"] = min(1.0, (a - b) / 1e6 / wall)
    if (f["cpu_pressure"] or 0) > CPU_PRESSURE_MAX:
        f["reasons"].append(f"tasks waited for a CPU {f['cpu_pressure']:.0%} "
                            f"of the time (threshold {CPU_PRESSURE_MAX:.0%})")
    if (f["memory_pressure"] or 0) > MEMORY_PRESSURE_MAX:
        f["reasons"].append(f"tasks stalled on memory "
                            f"{f['memory_pressure']:.1%} of the time "
                            f"(threshold {MEMORY_PRESSURE_MAX:.1%})")
    if before["dirty_kib"] is not None:
        f["dirty_mib"] = before["dirty_kib"] / 1024
        if f["dirty_mib"] > DIRTY_MIB_MAX:
            f["reasons"].append(f"{f['dirty_mib']:.0f} MiB of dirty pages "
                                "waited for writeback (threshold "
                                f"{DIRTY_MIB_MAX:.0f} MiB)")
    device_figures(f, before, after)
    return f


def machine_cpu_figures(f, before, after, wall):
    """Into figures f: the CPUs other processes used and the share the
    hypervisor stole over the phase (wall seconds, /proc/stat's counts
    before and after), and the reasons either disturbed it."""
    busy = (after["stat"][0] - before["stat"][0]) / after["hz"]
    other = max(0.0, busy - (after["own_s"] - before["own_s"]))
    f["other_cpus"] = other / wall
    f["steal_share"] = (after["stat"][1] - before["stat"][1]) / \
        after["hz"] / (wall * after["stat"][2])
    spare = after["stat"][2] - OTHER_CPUS_SPARE if after["stat"][2] > 1 \
        else 0.7
    if f["other_cpus"] > spare:
        f["reasons"].append(f"other processes used {f['other_cpus']:.2f} "
                            f"CPUs (threshold {spare:.2f})")
    if f["steal_share"] > STEAL_SHARE_MAX:
        f["reasons"].append(f"the hypervisor stole "
                            f"{f['steal_share']:.0%} of the CPU time "
                            f"(threshold {STEAL_SHARE_MAX:.0%})")


def device_figures(f, before, after):
    """Into figures f: what the devices under the data directory read and
    wrote over the phase, and its own device's time per write and per
    flush (None where a device was not counted both times)."""
    common = [n for n in after["devices"] if n in before["devices"]]
    if common:
        f["device_read_mib"] = sum(after["devices"][n][0] - before["devices"][n][0]
                                   for n in common) * 512 / 2 ** 20
        f["device_written_mib"] = sum(after["devices"][n][1] -
                                      before["devices"][n][1]
                                      for n in common) * 512 / 2 ** 20
        # the data directory's own device: the first (the others are under it)
        top = next(iter(after["devices"]))
        if top in before["devices"]:
            f["device_us_per_write"] = request_us(before["devices"][top],
                                                  after["devices"][top], 2)
            f["device_us_per_flush"] = request_us(before["devices"][top],
                                                  after["devices"][top], 4)


def csv_row(name, f):
    def num(v, fmt):
        return "" if v is None else fmt % v
    return [name, num(f["wall_s"], "%.3f"), num(f["other_cpus"], "%.3f"),
            num(f["steal_share"], "%.4f"), num(f["cpu_pressure"], "%.4f"),
            num(f["io_pressure"], "%.4f"), num(f["memory_pressure"], "%.4f"),
            num(f["dirty_mib"], "%.1f"), num(f["device_read_mib"], "%.1f"),
            num(f["device_written_mib"], "%.1f"),
            "true" if f["reasons"] else "false", "; ".join(f["reasons"]),
            str(f.get("round", 1)), num(f["server_cpus"], "%.3f"),
            num(f["client_cpus"], "%.3f"), num(f["device_us_per_write"], "%.1f"),
            num(f["device_us_per_flush"], "%.1f")]
