# SPDX-License-Identifier: MIT
"""What the result is about: the machine (host, kernel, CPU, memory) and
the mount that holds the measured directory."""

import os
import platform
import socket


def mountinfo_for(path, mountinfo="/proc/self/mountinfo"):
    """(fstype, source, mount point, options) of the mount holding path."""
    path = os.path.realpath(path)
    best = None
    try:
        with open(mountinfo) as f:
            for line in f:
                left, _, right = line.partition(" - ")
                lf, rf = left.split(), right.split()
                mp = lf[4].replace("\\040", " ")
                if path == mp or path.startswith(mp.rstrip("/") + "/") or mp == "/":
                    if best is None or len(mp) >= len(best[2]):
                        best = (rf[0], rf[1] if len(rf) > 1 else "", mp, lf[5])
    except OSError:
        pass
    return best or ("unknown", "", "", "")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine():
    return {"hostname": socket.gethostname(), "kernel": platform.release(),
            "cpu_model": cpu_model(), "cpus": os.cpu_count(),
            "memory_bytes": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")}


def dir_info(work):
    """The "dir" entry of the result: the temp dir and its mount."""
    fstype, source, mount_point, options = mountinfo_for(work)
    return {"path": work, "fstype": fstype, "source": source,
            "mount_point": mount_point, "options": options}
