# SPDX-License-Identifier: MIT
"""diskio-correlate: hold write-latency ratios between environments against
the ratios of database phase timings (DBT-3 on PostgreSQL).

Each ENVDIR holds diskio JSON results and/or fio JSON output and/or a
metrics.csv (the disk side), q_time.csv and/or phases.csv (the database
side) and optionally wal.csv (PostgreSQL WAL counters per phase).  See
diskio-correlate(1).
"""

import re

from ..cli import (add_min_change_option, add_output_options,
                   check_min_change, new_parser, run_command, write_stdout)
from ..compare import analysis as compare, render as compare_render
from ..errors import UsageError
from ..inputs import WAL_SYNC_METHODS
from ..noise import DEFAULT_MIN_CHANGE
from ..outputs import write_output_file
from ..sides import named_help, named_path
from .environment import (check_environment, check_names_unique,
                          choose_baseline, load_environment)
from .render import RENDERERS
from .report import DEFAULT_METRICS, build_report

PROG = "diskio-correlate"
EXIT_INTERNAL = 3


def pattern(option, text):
    """'all', or a compiled regular expression."""
    if text == "all":
        return text
    try:
        return re.compile(text)
    except re.error as err:
        raise UsageError(f"{option}: bad regular expression '{text}': {err}")


def parse_args(argv):
    parser = new_parser(
        PROG,
        "Compare disk write-latency ratios between environments with "
        "database phase-time ratios: a one-screen summary, the details on "
        "request.",
        "Exit status: 0 ok, 1 bad input data or output, 2 usage error, "
        "3 internal error. See diskio-correlate(1).")
    parser.add_argument("envdirs", metavar="[NAME=]ENVDIR", nargs="+",
                        help="environment directory; the first is the "
                             "baseline unless --baseline says otherwise; "
                             + named_help("ENVDIR", several=False))
    parser.add_argument("--baseline", metavar="NAME",
                        help="environment name (label or directory name) to "
                             "compare against")
    parser.add_argument("--format", choices=sorted(RENDERERS), default="text",
                        help="output format (default: text)")
    parser.add_argument("--phases", metavar="all|REGEX", default=None,
                        help="phases the text and markdown show (default: "
                             "the top-level ones, load, power, throughput, "
                             "and those the WAL model predicts: the "
                             "baseline's wal.csv counts them)")
    parser.add_argument("--metrics", metavar="all|REGEX", default=None,
                        help="disk metrics the text and markdown show "
                             f"(default: those matching {DEFAULT_METRICS})")
    parser.add_argument("--details", action="store_true",
                        help="after the summary, each phase's verdict "
                             "against the disks, every metric with its "
                             "interval, each phase's lists, the correlations "
                             "and the WAL model basis by basis")
    add_min_change_option(parser, DEFAULT_MIN_CHANGE)
    parser.add_argument("--wal-sync-method", choices=list(WAL_SYNC_METHODS),
                        default=None,
                        help="PostgreSQL wal_sync_method the wal.csv counters "
                             "come from (default: what diskio-pgphases "
                             "recorded in the baseline's settings.json, else "
                             "fdatasync)")
    parser.add_argument("--lenient", action="store_true",
                        help="leave out a bad CSV row (named with its "
                             "file:line in the notes) instead of stopping")
    add_output_options(parser, "report")
    args = parser.parse_args(argv)
    if len(args.envdirs) < 2:
        raise UsageError(f"need at least two ENVDIRs, got "
                         f"{len(args.envdirs)} (see {PROG} --help)")
    args.min_change = check_min_change(args)
    if args.phases is not None:
        args.phases = pattern("--phases", args.phases)
    if args.metrics is not None:
        args.metrics = pattern("--metrics", args.metrics)
    return args


def run(argv):
    args = parse_args(argv)
    envs = [load_environment(path, need_phases=False, lenient=args.lenient,
                             name=name)
            for name, path in map(named_path, args.envdirs)]
    check_names_unique(envs)
    if not any(env.phases for env in envs) and all(env.results for env in envs):
        output = disks_only(envs, args)
    else:
        for env in envs:
            check_environment(env)
        output = correlation(envs, args)
    # Everything is computed before anything is written.
    if args.output:
        write_output_file(args.output, output, force=args.force)
    else:
        write_stdout(output)


def disks_only(envs, args):
    """No database timings anywhere: the comparison diskio-compare prints,
    one environment per ENVDIR."""
    comparison = compare.compare_environments(
        [compare.environment_of(env.name, env.results) for env in envs],
        baseline=args.baseline, min_change=args.min_change)
    output = compare_render.RENDERERS[args.format](comparison)
    if args.format == "text":
        output = ("no phase timings in any ENVDIR: the disks compared alone "
                  "(as diskio-compare does)\n\n" + output)
    elif args.format == "markdown":
        output = ("No phase timings in any ENVDIR: the disks compared alone "
                  "(as diskio-compare does).\n\n" + output)
    return output


def correlation(envs, args):
    baseline = choose_baseline(envs, args.baseline)
    method = args.wal_sync_method or baseline.wal_sync_method or "fdatasync"
    for env in envs:
        if env.wal_sync_method and env.wal_sync_method != method:
            env.notes.append(f"{env.name}: diskio-pgphases ran with "
                             f"wal_sync_method {env.wal_sync_method}, the "
                             f"model uses {method}")
    report = build_report(envs, baseline, method, args.phases, args.metrics,
                          args.min_change)
    if not report["shown"]["phases"]:
        raise UsageError(f"--phases matches none of the phases "
                         f"({', '.join(report['phase_order'][:8])}...)")
    return RENDERERS[args.format](report, args.details)


def main(argv=None):
    return run_command(PROG, run, argv, internal_status=EXIT_INTERNAL)
