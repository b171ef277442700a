# SPDX-License-Identifier: MIT
"""One environment of diskio-correlate: a directory holding the disk side
(diskio results, fio output, metrics.csv) and the database side
(q_time.csv and/or phases.csv, optionally wal.csv and diskio-pgphases'
settings.json), read into one Environment."""

import csv
import os
import statistics
from dataclasses import dataclass, field

from .. import noise
from ..compare.analysis import invocation_defaults
from ..errors import InputError, UsageError
from ..fio import fio_repeated_option, is_fio_output, load_fio_result
from ..inputs import (is_settings, phase_name_from_task, read_metrics_csv,
                      read_phases_csv, read_q_time_csv, read_settings, read_wal_csv)
from ..jsonfile import json_key_line, json_kind, json_value_text, read_json
from ..metrics import (SYNC_PART_STATS, TOTAL_STATS, new_metric, qualified_names,
                       throughput_metric)
from ..plainnumber import plain_number
from ..result import is_result, other_cpu_share, result_from_json
from ..textfile import unreadable


@dataclass
class Environment:
    directory: str
    name: str = ""
    phases: dict = field(default_factory=dict)       # phase -> seconds
    phase_sources: dict = field(default_factory=dict)  # phase -> "file:line"
    phase_files: list = field(default_factory=list)
    metrics: dict = field(default_factory=dict)      # name -> Metric
    repeats: dict = field(default_factory=dict)      # name -> its repeat_of
    runs: list = field(default_factory=list)         # what each source mapped to
    wal: dict = field(default_factory=dict)          # phase -> {column: float}
    wal_file: str | None = None
    sources: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    settings: object = None                          # inputs.PgSettings
    results: list = field(default_factory=list)      # the diskio Results read
    # the runs of --pattern wal and checkpoint, for the WAL model to pick
    # from: {"prefix", "pattern", "mode", "jobs", "gap_ns", "wal_bytes",
    # "syncs_per_commit", "source"}
    pattern_runs: list = field(default_factory=list)
    # --lenient: the refusals of rows left out (None: strict)
    skipped: list | None = None
    # rounds of the database side (subdirectories, one diskio-pgphases
    # output each): phase -> [noise.Sample of each round's seconds]; the
    # phase's time is then their median.  Empty without rounds.
    phase_rounds: dict = field(default_factory=dict)
    # phase -> why it was disturbed (interference.csv), per round
    phase_disturbed: dict = field(default_factory=dict)
    # phase -> [CPU seconds the server's processes and diskio-pgphases
    # with its clients used, per round] (interference.csv's server_cpus +
    # client_cpus over wall_s; empty where the file has no such columns)
    phase_cpu_rounds: dict = field(default_factory=dict)
    # phase -> {"write": [us], "flush": [us]}: the data directory's
    # device's mean time per request in each round (interference.csv's
    # device_us_per_write, device_us_per_flush, where recorded)
    phase_device_rounds: dict = field(default_factory=dict)
    # diskio result -> its default between-invocation noise (noise.judge's
    # defaults, compare.analysis.invocation_defaults)
    defaults: dict = field(default_factory=dict)

    def phase_cpu_s(self, phase):
        """The CPU time the database and its client spent in the phase
        (the median over the rounds), or None where it was not recorded."""
        rounds = self.phase_cpu_rounds.get(phase)
        return statistics.median(rounds) if rounds else None

    def phase_device_us(self, phase, kind):
        """The device's mean time per request of kind ("write", "flush")
        while the phase ran (the median over the rounds), or None."""
        rounds = self.phase_device_rounds.get(phase, {}).get(kind)
        return statistics.median(rounds) if rounds else None

    @property
    def wal_sync_method(self):
        """The wal_sync_method diskio-pgphases recorded, or None."""
        return self.settings.wal_sync_method if self.settings else None

    def refuse(self, error):
        """A row's refusal: raised (strict) or kept in skipped (lenient)."""
        if self.skipped is None:
            raise error
        self.skipped.append(f"{error}; row skipped (--lenient)")

    def add_phase(self, path, line, name, seconds):
        try:
            self._add_phase(path, line, name, seconds)
        except InputError as err:
            self.refuse(err)

    def _add_phase(self, path, line, name, seconds):
        if not name:
            raise InputError(path, line, "empty phase name", "name the phase")
        if name in self.phases:
            raise InputError(path, line,
                             f"phase '{name}' already given at "
                             f"{self.phase_sources[name]}",
                             "give each phase once (q_time.csv and phases.csv "
                             "must not both hold it)")
        self.phases[name] = seconds
        self.phase_sources[name] = f"{path}:{line}"

    def add_metric(self, name, value, path, line=None, repeat_of=None,
                   meta=None):
        """A metric read from path (at line).  repeat_of names the kind of
        source (a diskio run) whose metrics of the same name are
        repetitions: their values become samples of one metric.  meta:
        (invocation, start, disturbances, other CPUs' share) of the
        sample, for noise.judge."""
        existing = self.metrics.get(name)
        info = None if meta is None else noise.Sample(value, *meta)
        if existing is not None and repeat_of is not None \
                and self.repeats.get(name) == repeat_of:
            existing.add_sample(new_metric(name, value, path, line).value,
                                info)
            return
        try:
            self._add_metric(name, value, path, line)
        except InputError as err:
            if line is None:        # not a row: the file itself is wrong
                raise
            self.refuse(err)
            return
        if repeat_of is not None:
            self.repeats[name] = repeat_of
        if info is not None:
            self.metrics[name].sample_info.append(info)

    def _add_metric(self, name, value, path, line):
        if name in self.metrics:
            raise InputError(path, line,
                             f"metric {name} is also given by "
                             f"{self.metrics[name].source}",
                             "keep one source per metric in an environment "
                             "(put the other in its own directory)")
        self.metrics[name] = new_metric(name, value, path, line)


# ---------------------------------------------------------------- diskio

def usable_run(env, path, run, sample=None):
    """The figures of one Run (or of one of its repetitions, sample), or
    None (and a note) when it recorded no ops."""
    sample = sample or run
    total = sample.parts.get("total")
    count = None if total is None else total.count
    if not sample.ops or not count:
        env.notes.append(f"{path}: {sample.where} ({run.mode}) recorded no "
                         "ops; skipped")
        return None
    if not sample.complete:
        message = run.error.message if run.error else None
        env.notes.append(f"{path}: {sample.where} ({run.mode}) is incomplete: "
                         f"{message or 'no reason given'}; "
                         "its figures are used as measured")
    total_keys = ["count"] + [key for key, _ in TOTAL_STATS]
    start = sample.start_time
    figures = {"total": dict(zip(total_keys, total.need(*total_keys))),
               "ops_per_s": sample.need("ops_per_s"),
               "mb_per_s": sample.mb_per_s,
               # what noise.judge weighs besides the value
               "meta": (path, noise.parse_start(start),
                        tuple(d.message for d in sample.disturbances),
                        other_cpu_share(sample))}
    for part, keys in (("write", ("mean", "count")),
                       ("sync", ("mean", "count", "p50", "p99")),
                       ("switch", ("mean", "count"))):
        hist = sample.parts.get(part)
        figures[part] = None if hist is None else dict(zip(keys,
                                                           hist.need(*keys)))
    return figures


def run_samples(env, path, run):
    """The figures of each sample of a run: its complete repetitions
    (diskio --repeat; the others are left out with a note, as
    diskio-compare leaves them out), else the run itself."""
    complete = [rep for rep in run.repetitions or [] if rep.complete]
    for rep in run.repetitions or []:
        if not rep.complete:
            env.notes.append(f"{path}: {rep.where} ({run.mode}) did not "
                             "complete; left out")
    samples = [usable_run(env, path, run, rep) for rep in complete] \
        if complete else [usable_run(env, path, run)]
    return [figures for figures in samples if figures is not None]


def load_diskio_result(env, path, text, doc):
    """Read a diskio result into env; returns its label (or None)."""
    result = result_from_json(path, text, doc)
    env.results.append(result)
    if not result.complete:
        env.notes.append(f"{path}: result marked incomplete")
    usable = []
    for run in result.runs:
        samples = run_samples(env, path, run)
        if samples:
            usable.append((run, samples))
    descriptors = [dict(mode=run.workload,
                        batch=run.parameters.batch or 1,
                        jobs=run.parameters.jobs,
                        shared_file=run.parameters.shared_file,
                        cached=run.parameters.cached,
                        wal_gap_ns=run.wal.gap_ns if run.wal else None,
                        block_size=run.parameters.block_size,
                        pattern=run.parameters.pattern,
                        iodepth=run.parameters.iodepth,
                        sync_every=run.parameters.sync_every)
                   for run, _ in usable]
    # Runs that repeat the same parameters are repetitions: one name,
    # several samples (as diskio-compare takes them); so are the
    # repetitions diskio --repeat keeps in a run.
    prefixes = qualified_names(descriptors)
    for prefix, (run, samples), desc in zip(prefixes, usable, descriptors):
        for figures in samples:
            add_diskio_run_metrics(env, path, prefix, run, figures)
        record_run(env, path, prefix, run, samples)
        wal = run.wal
        if desc["pattern"] in ("wal", "checkpoint") and \
                prefix not in [r["prefix"] for r in env.pattern_runs]:
            env.pattern_runs.append({
                "prefix": prefix, "pattern": desc["pattern"],
                "mode": run.mode, "jobs": desc["jobs"],
                "gap_ns": desc["wal_gap_ns"] or 0,
                "wal_bytes": wal.bytes_per_commit if wal else None,
                "syncs_per_commit": None if wal is None or wal.syncs_per_commit is None
                else float(wal.syncs_per_commit),
                # the device's own mean time per request under the run
                "device_us": {kind: getattr(run.device_total, f"us_per_{kind}")
                              if run.device_total else None
                              for kind in ("write", "flush")},
                "source": path})
    return result.label


def record_run(env, path, prefix, run, samples):
    """The run in the report's list of sources: its ops and syncs over
    every sample."""
    syncs = [figures["sync"]["count"] for figures in samples if figures["sync"]]
    env.runs.append({"source": path, "tool": "diskio", "metric_prefix": prefix,
                     "mode": run.mode,
                     "block_size": run.parameters.block_size,
                     "ops": sum(figures["total"]["count"] for figures in samples),
                     "syncs": sum(syncs) if syncs else None})


def add_diskio_run_metrics(env, path, prefix, run, figures):
    def add(name, value):
        env.add_metric(name, value, path, repeat_of="diskio",
                       meta=figures["meta"])
    total = figures["total"]
    for key, stat in TOTAL_STATS:
        add(f"{prefix}.{stat}", total[key] / 1000.0)
    add(f"{prefix}.ops_per_s", float(figures["ops_per_s"]))
    if figures["mb_per_s"]:
        add(f"{prefix}.{throughput_metric(run.direction)}", float(figures["mb_per_s"]))
    write, sync = figures["write"], figures["sync"]
    if write is not None and write["count"]:
        add(f"{prefix}.write_mean_us", write["mean"] / 1000.0)
    if sync is not None and sync["count"]:
        add(f"{prefix}.sync_mean_us", sync["mean"] / 1000.0)
        for key, stat in SYNC_PART_STATS:
            add(f"{prefix}.{stat}", sync[key] / 1000.0)
    switch = figures.get("switch")
    if switch is not None and switch["count"]:
        add(f"{prefix}.switch_mean_us", switch["mean"] / 1000.0)


# ---------------------------------------------------------------- directory

def load_json_source(env, path):
    """Read one *.json of the directory into env: a diskio result, fio
    output or diskio-pgphases settings (InputError for anything else: a
    result.json that is null or of another schema is not to be passed
    over); returns (handled, label)."""
    # fio prints "note: ..." lines before its JSON on the same output
    text, doc = read_json(path, preamble_ok=is_fio_output, notes=env.notes,
                          repeated_ok=fio_repeated_option)
    if is_result(doc):
        return True, load_diskio_result(env, path, text, doc)
    if is_fio_output(doc):
        load_fio_result(env, path, doc)
    elif is_settings(doc):
        # the runner's settings: which wal_sync_method wal.csv counts, how
        # the run ended, what PostgreSQL timed
        env.settings = read_settings(path, doc)
        if not env.settings.complete:
            env.notes.append(f"{path}: the diskio-pgphases run did not "
                             "complete (" + (env.settings.error or
                                             "no reason given")
                             + "): its phase timings and counters may be "
                             "partial")
    else:
        kind = (f'its "schema" is {json_value_text(doc["schema"])}'
                if isinstance(doc, dict) and "schema" in doc
                else f"the document is {json_kind(doc)}")
        raise InputError(path, json_key_line(text, "schema"),
                         "neither a diskio result, fio output nor "
                         f"diskio-pgphases' settings.json ({kind})",
                         "move it out of the environment directory, or "
                         "regenerate it (diskio --format json)")
    return True, None


def load_phases(env, path, rows):
    for line, name, seconds in rows:
        env.add_phase(path, line, name, seconds)
    env.phase_files.append(path)


def load_metrics(env, path):
    for line, name, value in read_metrics_csv(path, env.skipped):
        env.add_metric(name, value, path, line)


def load_wal(env, path):
    env.wal = read_wal_csv(path, env.skipped)
    env.wal_file = path


def read_interference_csv(path, by_round=False):
    """diskio-pgphases' interference.csv: {phase: (reasons, ...)} of the
    phases it flagged disturbed (a phase's reasons joined by '; '); with
    by_round, {(phase, round): (reasons, ...)} (round 1 where the file
    has no round column)."""
    flagged = {}
    rows = read_pgphases_csv(path)
    for line, row in enumerate(rows, start=2):
        if "phase" not in row or "disturbed" not in row:
            raise InputError(path, line, "no phase or disturbed column",
                             "regenerate it with diskio-pgphases")
        if row["disturbed"] == "true":
            phase = phase_name_from_task(row["phase"])
            key = (phase, row_round(path, line, row)) if by_round else phase
            flagged[key] = tuple(
                r for r in (row.get("reasons") or "").split("; ") if r) \
                or ("disturbed",)
    return flagged


def read_interference_cpu(path):
    """diskio-pgphases' interference.csv: {phase: [CPU seconds of each
    round's row]}, the server's processes and the runner with its clients
    together (server_cpus + client_cpus, CPUs on average, times wall_s);
    rows without those figures (files from before they were recorded,
    a phase too short to count) are left out."""
    cpu = {}
    rows = read_pgphases_csv(path)
    for line, row in enumerate(rows, start=2):
        figures = [row.get(k) for k in ("wall_s", "server_cpus", "client_cpus")]
        if not all(figures) or "phase" not in row:
            continue
        values = [plain_number(v) for v in figures]
        if any(v is None or v < 0 for v in values):
            raise InputError(path, line, "wall_s, server_cpus or client_cpus "
                             f"{', '.join(figures)} not a number",
                             "regenerate it with diskio-pgphases")
        wall, server, client = (float(v) for v in values)
        cpu.setdefault(phase_name_from_task(row["phase"]), []).append(
            wall * (server + client))
    return cpu


def read_interference_device(path):
    """diskio-pgphases' interference.csv: {phase: {"write": [us per
    round], "flush": [...]}}, the data directory's device's mean time per
    request; rounds without it (files from before it was recorded, too
    few requests to resolve) are left out."""
    out = {}
    for line, row in enumerate(read_pgphases_csv(path), start=2):
        if "phase" not in row:
            continue
        for kind in ("write", "flush"):
            text = row.get(f"device_us_per_{kind}")
            if not text:
                continue
            value = plain_number(text)
            if value is None or value < 0:
                raise InputError(path, line, f"device_us_per_{kind} {text} is not "
                                 "a time (us, 0 or more)",
                                 "regenerate it with diskio-pgphases")
            out.setdefault(phase_name_from_task(row["phase"]), {}).setdefault(
                kind, []).append(float(value))
    return out


def add_interference(env, path):
    """interference.csv's CPU time and device times per phase and round
    into env."""
    for phase, seconds in read_interference_cpu(path).items():
        env.phase_cpu_rounds.setdefault(phase, []).extend(seconds)
    for phase, kinds in read_interference_device(path).items():
        for kind, values in kinds.items():
            env.phase_device_rounds.setdefault(phase, {}).setdefault(kind, []).extend(values)


def read_pgphases_csv(path):
    """The rows of one of diskio-pgphases' CSV files, as dicts."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        raise InputError(path, None, f"cannot read: {err}",
                         "regenerate it with diskio-pgphases")


def row_round(path, line, row):
    """A row's round number (1 without the column)."""
    text = row.get("round") or "1"
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise InputError(path, line, f"round {text!r} is not a round number",
                         "regenerate it with diskio-pgphases")
    return int(text)


def read_rounds_csv(path):
    """diskio-pgphases' rounds.csv (task_name,round,seconds):
    {phase: {round: seconds}}."""
    rounds = {}
    rows = read_pgphases_csv(path)
    for line, row in enumerate(rows, start=2):
        if not {"task_name", "round", "seconds"} <= set(row):
            raise InputError(path, line, "no task_name, round or seconds column",
                             "regenerate it with diskio-pgphases")
        seconds = plain_number(row["seconds"])
        if seconds is None or seconds < 0:
            raise InputError(path, line, f"seconds {row['seconds']!r} is not a duration",
                             "regenerate it with diskio-pgphases")
        rounds.setdefault(phase_name_from_task(row["task_name"]), {})[
            row_round(path, line, row)] = float(seconds)
    return rounds


def load_round_file(env, directory):
    """One diskio-pgphases --output holding several rounds (rounds.csv):
    each round's phase time is a sample of the phase (its median is
    already q_time.csv's), with what disturbed it (interference.csv's rows
    of that round)."""
    path = os.path.join(directory, "rounds.csv")
    interference = os.path.join(directory, "interference.csv")
    flagged = read_interference_csv(interference, by_round=True) \
        if os.path.isfile(interference) else {}
    for phase, by_round in read_rounds_csv(path).items():
        if phase not in env.phases or len(by_round) < 2:
            continue
        for r, seconds in sorted(by_round.items()):
            why = flagged.get((phase, r), ())
            env.phase_rounds.setdefault(phase, []).append(noise.Sample(
                seconds, invocation=f"{directory} round {r}", disturbed=why))
            env.phase_disturbed.setdefault(phase, []).append(why)
    env.sources.append(path)
    if os.path.isfile(interference):
        add_interference(env, interference)
        env.sources.append(interference)


def round_dirs(directory, entries):
    """Subdirectories holding a round of the database side: q_time.csv or
    phases.csv (each a diskio-pgphases --output)."""
    found = []
    for entry in entries:
        path = os.path.join(directory, entry)
        if os.path.isdir(path) and any(
                os.path.isfile(os.path.join(path, name))
                for name in ("q_time.csv", "phases.csv")):
            found.append(path)
    return found


def load_rounds(env, rounds):
    """Each round's phases as samples; the phase time their median; the
    WAL counters and settings of the first round that has them (a phase's
    counts do not change between rounds)."""
    for path in rounds:
        part = Environment(directory=path, skipped=env.skipped)
        for filename, loader in CSV_SOURCES[1:]:
            source = os.path.join(path, filename)
            if os.path.isfile(source):
                loader(part, source)
                env.sources.append(source)
        settings = os.path.join(path, "settings.json")
        if env.settings is None and os.path.isfile(settings):
            load_json_source(env, settings)
            env.sources.append(settings)
        if not env.wal and part.wal:
            env.wal, env.wal_file = part.wal, part.wal_file
        flagged = {}
        interference = os.path.join(path, "interference.csv")
        if os.path.isfile(interference):
            flagged = read_interference_csv(interference)
            add_interference(env, interference)
            env.sources.append(interference)
        for phase, seconds in part.phases.items():
            env.phase_rounds.setdefault(phase, []).append(noise.Sample(
                seconds, invocation=path, disturbed=flagged.get(phase, ())))
            env.phase_disturbed.setdefault(phase, []).append(
                flagged.get(phase, ()))
        env.phase_files.extend(part.phase_files)
    for phase, samples in env.phase_rounds.items():
        env.phases[phase] = statistics.median(s.value for s in samples)
        env.phase_sources[phase] = f"median of {len(samples)} rounds"


CSV_SOURCES = (("metrics.csv", load_metrics),
               ("q_time.csv", lambda env, path:
                load_phases(env, path, read_q_time_csv(path, env.skipped))),
               ("phases.csv", lambda env, path:
                load_phases(env, path, read_phases_csv(path, env.skipped))),
               ("wal.csv", load_wal))


def load_environment(directory, need_phases=True, lenient=False, name=None):
    """One ENVDIR read and checked; need_phases=False lets a directory
    without phase timings through (diskio-correlate then compares the
    disks alone); lenient keeps the rows of a CSV around a bad one (each
    refusal becomes a note); name: the environment's name given on the
    command line (NAME=ENVDIR), else its results' label or its
    directory's."""
    if not os.path.isdir(directory):
        raise InputError(directory, None, "no such directory",
                         "give directories holding diskio results and phase "
                         "timings")
    env = Environment(directory=directory, skipped=[] if lenient else None)
    labels = []
    try:
        entries = sorted(os.listdir(directory))
    except OSError as err:
        raise InputError(directory, None, f"cannot list: {unreadable(err)}",
                         "check the permissions")
    for entry in entries:
        path = os.path.join(directory, entry)
        if not entry.endswith(".json") or not os.path.isfile(path):
            continue
        handled, label = load_json_source(env, path)
        if handled:
            labels.append((path, label))
            env.sources.append(path)
    for filename, loader in CSV_SOURCES:
        path = os.path.join(directory, filename)
        if os.path.isfile(path):
            loader(env, path)
            env.sources.append(path)
    rounds = round_dirs(directory, entries)
    if rounds and env.phases:
        raise InputError(directory, None,
                         "phase timings both in the directory and in round "
                         "subdirectories (" + ", ".join(rounds) + ")",
                         "keep each round's q_time.csv in a subdirectory of "
                         "its own, or one q_time.csv at the top")
    if rounds:
        load_rounds(env, rounds)
    interference = os.path.join(directory, "interference.csv")
    if not rounds and os.path.isfile(os.path.join(directory, "rounds.csv")):
        load_round_file(env, directory)
    elif not rounds and os.path.isfile(interference):
        for phase, why in read_interference_csv(interference).items():
            env.phase_disturbed[phase] = [why]
        add_interference(env, interference)
        env.sources.append(interference)
    if env.skipped:
        env.notes.extend(env.skipped)
    check_environment(env, need_phases)
    env.name = name or environment_name(env, labels)
    env.defaults, notes = invocation_defaults(env.results)
    env.notes.extend(notes)
    return env


def check_environment(env, need_phases=True):
    if not env.phases and need_phases:
        raise InputError(env.directory, None,
                         "no phase timings (q_time.csv or phases.csv)",
                         "add phases.csv with lines phase,seconds or the "
                         "DBT-3 kit's q_time.csv")
    if not env.metrics:
        raise InputError(env.directory, None,
                         "no disk metrics (diskio JSON, fio JSON or "
                         "metrics.csv)",
                         "run diskio --format json --output DIR/result.json "
                         "there")
    for phase, row in env.wal.items():
        if phase not in env.phases:
            raise InputError(env.wal_file, row["_line"],
                             f"phase '{phase}' has no timing",
                             "use the phase names of q_time.csv/phases.csv "
                             f"({', '.join(env.phases)})")


def environment_name(env, labels):
    named = [(path, label) for path, label in labels if label]
    distinct = {label for _, label in named}
    if len(distinct) > 1:
        env.notes.append("results carry different labels ("
                         + ", ".join(f"{p}: {l}" for p, l in named)
                         + f"); using {named[0][1]}")
    if named:
        return named[0][1]
    return os.path.basename(os.path.normpath(os.path.abspath(env.directory)))


def check_names_unique(envs):
    seen = {}
    for env in envs:
        if env.name in seen:
            raise InputError(env.directory, None,
                             f"environment name '{env.name}' is also the name "
                             f"of {seen[env.name]}",
                             "give the results distinct diskio --label values, "
                             "use distinctly named directories or name them "
                             "on the command line: A=DIR1 B=DIR2")
        seen[env.name] = env.directory


def choose_baseline(envs, wanted):
    if wanted is None:
        return envs[0]
    for env in envs:
        if wanted == env.name:
            return env
    for env in envs:
        if os.path.normpath(wanted) == os.path.normpath(env.directory):
            return env
    raise UsageError(f"--baseline {wanted}: no such environment (names: "
                     f"{', '.join(e.name for e in envs)})")
