# SPDX-License-Identifier: MIT
"""The reader of fio's JSON output (fio --output-format=json): each job
that wrote becomes the metrics of the diskio mode it measured, named like
diskio's (fsync.mean_us, direct@8k.p99_us), in the environment it is
read into."""

import re

from .errors import InputError
from .jsonfile import (MAX_JSON_INT, JsonFile, json_kind, json_path,
                       json_value_text)
from .metrics import SYNC_PART_NAMES, unique_run_names
from .modes import syncs
from .plainnumber import plain_number

FIO_TODO = "produce it with fio --output-format=json"

# fio percentile keys ("99.900000") -> our statistic suffix.
FIO_PERCENTILES = (("50.000000", "p50"), ("90.000000", "p90"),
                   ("99.000000", "p99"), ("99.900000", "p99_9"))


def is_fio_output(doc):
    """Whether a parsed JSON document is fio's output."""
    return isinstance(doc, dict) and "fio version" in doc


# fio's tables of the options a job was given: fio writes an option given
# twice (--filename twice, an option in a job file and on the command
# line) twice in them, and runs with the last, as JSON readers read it.
FIO_OPTION_TABLES = ("global options", "job options")


def fio_repeated_option(doc, keys):
    """read_json's repeated_ok for fio output: a key given twice in one of
    its option tables (JSON path keys) is fio's way, not a contradiction."""
    return is_fio_output(doc) and bool(keys) and keys[-1] in FIO_OPTION_TABLES


class FioOptions:
    """A job's options (its global options overlaid by its job options) as
    stripped text, remembering the JSON path each came from."""

    def __init__(self, src, global_options, job_options, where):
        self.src, self.values, self.paths = src, {}, {}
        for table_where, table in (("global options", global_options),
                                   (json_path(where, "job options"),
                                    job_options)):
            for key, value in table.items():
                path = json_path(table_where, key)
                if isinstance(value, bool) or \
                        not isinstance(value, (str, int, float)):
                    src.fail(path, f"{json_kind(value)}, expected a string")
                if isinstance(value, str):
                    src.as_string(value, path)
                self.values[key] = str(value).strip()
                self.paths[key] = path

    def text(self, key, default):
        return self.values.get(key, default)

    def truthy(self, key, default):
        return self.text(key, default).lower() in ("1", "true", "yes", "on")

    def integer(self, key):
        """An integer option; 0 when absent or not a plain integer."""
        text = self.values.get(key) or "0"
        value = plain_number(text, integer=True)
        if value is None:
            return 0
        if abs(value) > MAX_JSON_INT:
            self.src.fail(self.paths[key], f"'{text}' is out of range")
        return value

    def size(self, key, default):
        """A block size option in bytes: '8k', '4096', '1m', or fio's
        read,write[,trim] form, of which the write size counts.  fio's
        default kb_base is 1024."""
        text = self.values.get(key, default)
        parts = text.split(",")
        size = parse_fio_size(parts[1] if len(parts) > 1 and parts[1].strip()
                              else parts[0])
        if size is None or not 0 < size <= MAX_JSON_INT:
            self.src.fail(self.paths.get(key, key),
                          f"'{text[:40]}' is not a block size")
        return size


def parse_fio_size(text):
    """fio sizes ('8k', '4096', '1m'); fio's default kb_base is 1024."""
    match = re.fullmatch(r"\s*([0-9]{1,20})\s*([kmgt]?)i?b?\s*", str(text),
                         re.I | re.ASCII)
    if not match:
        return None
    scale = {"": 0, "k": 10, "m": 20, "g": 30, "t": 40}[match.group(2).lower()]
    return int(match.group(1)) << scale


# fio's direct=1 with sync=1 opens O_DIRECT|O_SYNC, which no diskio mode
# does (as PostgreSQL's open_sync at wal_level minimal: diskio(1), "The
# wal pattern"): it is compared as the nearest, direct-dsync, and says so.
DIRECT_SYNC_NOTE = (
    "direct=1 with sync=1 writes O_DIRECT|O_SYNC, which no diskio mode does; "
    "it is compared as direct-dsync (O_DIRECT|O_DSYNC), the nearest, which "
    "may be faster: O_SYNC also makes the modification time durable (a "
    "journal commit per write) and keeps a FUA write from standing for the "
    "cache flush; give the job sync=dsync to measure what direct-dsync does")


def fio_job_mode(options):
    """The diskio mode a fio job measures, from its job options: (mode,
    writes per sync, a note when the mode is only the nearest, or
    None)."""
    engine = options.text("ioengine", "psync").lower()
    direct = options.truthy("direct", "0") or options.text("buffered", "1") == "0"
    sync = options.text("sync", "0").lower()
    if options.integer("fsync") > 0:
        return "fsync", options.integer("fsync"), None
    if options.integer("fdatasync") > 0:
        return "fdatasync", options.integer("fdatasync"), None
    if engine in ("libaio", "io_uring", "posixaio"):
        # diskio's aio mode is O_DIRECT + libaio; others keep their own name.
        return ("aio" if engine == "libaio" and direct else f"fio-{engine}"), 1, None
    if sync in ("1", "sync"):
        return ("direct-dsync", 1, DIRECT_SYNC_NOTE) if direct else ("osync", 1, None)
    if sync == "dsync":
        return ("direct-dsync" if direct else "odsync"), 1, None
    return ("direct" if direct else "async"), 1, None


def fio_percentiles(src, part, where):
    """Percentiles fio reported for one direction: lat_ns when the job set
    lat_percentiles=1, else clat_ns (completion latency).  Returns (kind,
    table, table's JSON path)."""
    for key in ("lat_ns", "clat_ns"):
        lat = src.get_object(part, where, key, optional=True) or {}
        lat_where = json_path(where, key)
        table = src.get_object(lat, lat_where, "percentile", optional=True)
        if table:
            return key, table, json_path(lat_where, "percentile")
    return None, {}, None


def fio_percentile(src, table, where, key):
    """Percentile key of a fio table (ns), or None when fio left it out."""
    if key not in table:
        return None
    return src.get_number(table, where, key, minimum=0)


def load_fio_result(env, path, doc):
    """Read fio output doc (from path) into env: its metrics, runs and
    notes."""
    src = JsonFile(path, FIO_TODO)
    jobs = doc.get("jobs")
    if not isinstance(jobs, list):
        raise InputError(path, None, "fio output without a 'jobs' list",
                         "produce it with fio --output-format=json")
    global_options = src.get_object(doc, "", "global options",
                                    optional=True) or {}
    usable, descriptors = [], []
    for index, job in enumerate(jobs):
        where = f"jobs[{index}]"
        name = job.get("jobname") if isinstance(job, dict) else None
        name = src.as_string(name, json_path(where, "jobname")) \
            if isinstance(name, str) and name else where
        if not isinstance(job, dict) or not isinstance(job.get("write"), dict):
            raise InputError(path, None, f"fio job {name}: no 'write' section",
                             "produce it with fio --output-format=json")
        if job.get("error"):
            env.notes.append(f"{path}: fio job {name} failed (error "
                             f"{json_value_text(job['error'])}); skipped")
            continue
        options = FioOptions(src, global_options,
                             src.get_object(job, where, "job options",
                                            optional=True) or {}, where)
        write_where = json_path(where, "write")
        write_lat = src.get_object(job["write"], write_where, "lat_ns",
                                   optional=True) or {}
        if not src.get_number(write_lat, json_path(write_where, "lat_ns"),
                              "N", optional=True, minimum=0):
            env.notes.append(f"{path}: fio job {name} did no writes; skipped")
            continue
        mode, sync_interval, mode_note = fio_job_mode(options)
        if mode_note:
            env.notes.append(f"{path}: fio job {name}: {mode_note}")
        if options.integer("numjobs") > 1:
            env.notes.append(f"{path}: fio job {name} ran "
                             f"{options.integer('numjobs')} clones at once "
                             "(numjobs): its latencies are under that "
                             "concurrency, unlike diskio's single writer")
        usable.append((job, where, name, mode, sync_interval))
        descriptors.append({"mode": mode,
                            "block_size": options.size("bs", "4k"),
                            "pattern": "rand" if "rand" in
                            options.text("rw", "write") else "seq",
                            "iodepth": options.integer("iodepth") or 1,
                            "sync_every": sync_interval})
    check_distinct_jobs(path, usable, descriptors)
    prefixes = unique_run_names(path, descriptors)
    for prefix, job_info, desc in zip(prefixes, usable, descriptors):
        add_fio_job_metrics(env, src, prefix, job_info, desc)


def check_distinct_jobs(path, usable, descriptors):
    """Two jobs that measured the same thing cannot both be a metric.
    Clones of one job (numjobs=N) share its name: fio reports each clone
    apart unless told to report the group as one."""
    seen = {}
    for (_, where, name, _, _), desc in zip(usable, descriptors):
        key = tuple(sorted(desc.items()))
        if key not in seen:
            seen[key] = (where, name)
            continue
        first_where, first_name = seen[key]
        if name == first_name:
            raise InputError(path, None,
                             f"fio job {name} is reported once per clone "
                             f"({first_where} and {where}: numjobs without "
                             "group_reporting)",
                             "rerun fio with --group_reporting (or "
                             "group_reporting=1 in the job file) so that the "
                             "clones are reported as one job")
        raise InputError(path, None,
                         f"fio jobs {first_name} ({first_where}) and {name} "
                         f"({where}) measure the same {desc['mode']} writes "
                         "(block size, pattern, iodepth, sync interval)",
                         "give one of them other options, report them as one "
                         "with --group_reporting, or put each job's output "
                         "in its own environment directory")


def fio_sync_count(src, sync, where):
    """fio 3.33 leaves sync.total_ios at 0 for fdatasync jobs while
    sync.lat_ns.N holds the real count."""
    total = src.get_number(sync, where, "total_ios", optional=True,
                           minimum=0) or 0
    if total:
        return total
    lat = src.get_object(sync, where, "lat_ns", optional=True) or {}
    return src.get_number(lat, json_path(where, "lat_ns"), "N", optional=True,
                          minimum=0) or 0


def add_fio_sync_metrics(env, src, prefix, job_info, sync):
    """The sync part of a fio job that synced (sync, its "sync" object):
    its mean and percentiles as metrics, and a note of what the job's
    mean is made of.  What the syncs add to each write's mean (ns)."""
    path = src.path
    _, where, name, _, sync_interval = job_info
    sync_where = json_path(where, "sync")
    sync_lat = src.get_object(sync, sync_where, "lat_ns")
    sync_lat_where = json_path(sync_where, "lat_ns")
    sync_mean = src.get_number(sync_lat, sync_lat_where, "mean")
    env.add_metric(f"{prefix}.sync_mean_us", sync_mean / 1000.0, path)
    table = src.get_object(sync_lat, sync_lat_where, "percentile",
                           optional=True) or {}
    table_where = json_path(sync_lat_where, "percentile")
    for key, stat in FIO_PERCENTILES:
        value = fio_percentile(src, table, table_where, key)
        if f"sync_{stat}_us" in SYNC_PART_NAMES and value is not None:
            env.add_metric(f"{prefix}.sync_{stat}_us",
                           value / 1000.0, path)
    env.notes.append(f"{path}: fio job {name}: "
                     f"{prefix}.mean_us = write mean + sync mean"
                     + (f" / {sync_interval}" if sync_interval > 1
                        else "")
                     + "; fio percentiles are of the sync part only "
                     f"({prefix}.sync_p50_us, {prefix}.sync_p99_us); "
                     f"no {prefix}.p50_us/p99_us from fio")
    return sync_mean / sync_interval


def add_fio_job_metrics(env, src, prefix, job_info, desc):
    path = src.path
    job, where, name, mode, sync_interval = job_info
    write, write_where = job["write"], json_path(where, "write")
    write_lat = src.get_object(write, write_where, "lat_ns")
    lat_where = json_path(write_where, "lat_ns")
    write_mean = src.get_number(write_lat, lat_where, "mean")
    sync_where = json_path(where, "sync")
    sync = src.get_object(job, where, "sync", optional=True) or {}
    sync_count = fio_sync_count(src, sync, sync_where)
    env.add_metric(f"{prefix}.ops_per_s",
                   float(src.get_number(write, write_where, "iops")), path)
    if syncs(mode):
        # fio times the write and the sync separately; their percentiles
        # cannot be combined, only their means.
        env.add_metric(f"{prefix}.write_mean_us", write_mean / 1000.0, path)
        mean_ns = write_mean
        if sync_count:
            mean_ns += add_fio_sync_metrics(env, src, prefix, job_info, sync)
        else:
            env.notes.append(f"{path}: fio job {name}: no syncs "
                             "recorded; mean is the write part only")
        env.add_metric(f"{prefix}.mean_us", mean_ns / 1000.0, path)
    else:
        env.add_metric(f"{prefix}.mean_us", write_mean / 1000.0, path)
        env.add_metric(f"{prefix}.max_us",
                       src.get_number(write_lat, lat_where, "max") / 1000.0, path)
        kind, table, table_where = fio_percentiles(src, write, write_where)
        for key, stat in FIO_PERCENTILES:
            value = fio_percentile(src, table, table_where, key)
            if value is not None:
                env.add_metric(f"{prefix}.{stat}_us", value / 1000.0, path)
        slat = src.get_object(write, write_where, "slat_ns", optional=True) or {}
        if kind == "clat_ns" and src.get_number(
                slat, json_path(write_where, "slat_ns"), "mean", optional=True):
            env.notes.append(f"{path}: fio job {name}: "
                             "percentiles are completion latency (clat) "
                             "without submission latency")
    ops = src.get_number(write, write_where, "total_ios", optional=True,
                         minimum=0) or src.get_number(write_lat, lat_where, "N")
    env.runs.append({"source": path, "tool": "fio", "metric_prefix": prefix,
                     "mode": mode, "block_size": desc["block_size"],
                     "ops": ops,
                     "syncs": sync_count if syncs(mode) else None})
