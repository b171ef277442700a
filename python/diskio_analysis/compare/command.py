# SPDX-License-Identifier: MIT
"""diskio-compare: diskio results of two or more environments, each run's
ratio to the baseline with a noise band and a slower / faster / same
verdict.  See diskio-compare(1)."""

from ..cli import (add_min_change_option, add_output_options,
                   check_min_change, new_parser, run_command, write_stdout)
from ..errors import UsageError
from ..noise import DEFAULT_MIN_CHANGE
from ..outputs import write_output_file
from ..sides import load_named_result, named_help
from .analysis import DEFAULT_METRICS, DETAIL_METRICS, METRICS, compare
from .render import RENDERERS

PROG = "diskio-compare"
EXIT_INTERNAL = 3


def metric_list(text):
    if text == "all":
        return DETAIL_METRICS
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in METRICS]
    if not names or unknown:
        raise UsageError(f"--metrics: unknown metric '{', '.join(unknown) or text}'; "
                         f"choose from {', '.join(METRICS)} or all")
    return tuple(names)


def parse_args(argv):
    parser = new_parser(
        PROG,
        "Compare diskio results of two or more environments: each run's "
        "ratio to the baseline, its noise band and a verdict.",
        "Results with the same --label (or in one directory) are "
        "invocations of one environment, unless named on the command line: "
        "A=aa1.json B=aa2.json compares two results of one label "
        "(an A/A test). "
        "Exit status: 0 ok, 1 bad input or output, 2 usage error, "
        "3 internal error. "
        "See diskio-compare(1).")
    parser.add_argument("results", metavar="[NAME=]RESULT", nargs="+",
                        help="diskio result JSON (diskio --output); the "
                             "first environment is the baseline; "
                             + named_help("RESULT"))
    parser.add_argument("--baseline", metavar="NAME",
                        help="environment (its NAME=, else label, else "
                             "directory name) to compare against")
    parser.add_argument("--metrics", default=",".join(DEFAULT_METRICS),
                        metavar="LIST",
                        help="comma-separated metrics, or all "
                             f"({', '.join(METRICS)}; default "
                             f"{','.join(DEFAULT_METRICS)}); the first "
                             "decides the summary")
    add_min_change_option(parser, DEFAULT_MIN_CHANGE)
    parser.add_argument("--format", choices=sorted(RENDERERS),
                        default="text", help="output format (default: text)")
    add_output_options(parser, "comparison")
    args = parser.parse_args(argv)
    if len(args.results) < 2:
        raise UsageError(f"need at least two RESULTs, got "
                         f"{len(args.results)} (see {PROG} --help)")
    args.min_change = check_min_change(args)
    args.metrics = metric_list(args.metrics)
    return args


def run(argv):
    args = parse_args(argv)
    results = [load_named_result(argument) for argument in args.results]
    comparison = compare(results, args.metrics, args.baseline,
                         args.min_change)
    output = RENDERERS[args.format](comparison)
    if args.output:
        write_output_file(args.output, output, force=args.force)
    else:
        write_stdout(output)


def main(argv=None):
    return run_command(PROG, run, argv, internal_status=EXIT_INTERNAL)
