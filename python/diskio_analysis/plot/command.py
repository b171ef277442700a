# SPDX-License-Identifier: MIT
"""diskio-plot: gnuplot charts from diskio results, diskio per-op traces,
diskio-correlate reports and diskio-compare comparisons.  See
diskio-plot(1)."""

import re
import shutil
import tempfile

from ..cli import new_parser, report, run_command, write_stdout
from ..correlate.report import DEFAULT_METRICS
from ..errors import EXIT_BAD_INPUT, InputError, UsageError
from ..outputs import open_output_dir
from ..sides import named_help
from ..textsafe import shown
from .capacity_chart import capacity_charts
from .charts import run_charts, unique_filenames
from .compare_charts import compare_charts
from .gnuplot import check_outputs, render
from .plotinputs import load_inputs
from .report_charts import report_charts

PROG = "diskio-plot"
EXIT_INTERNAL = 5


def parse_args(argv):
    parser = new_parser(
        PROG,
        "Draw gnuplot charts from diskio results, traces, "
        "diskio-correlate reports and diskio-compare comparisons.",
        "Exit status: 0 ok, 1 bad input or output exists, 2 usage, "
        "3 gnuplot not found, 4 gnuplot failed, 5 internal error. "
        "See diskio-plot(1).")
    parser.add_argument("inputs", metavar="[NAME=]FILE", nargs="+",
                        help="diskio result JSON, diskio trace CSV, "
                             "diskio-correlate or diskio-compare JSON, or a "
                             "directory of them; " + named_help()
                             + "; NAME=DIR names the directory's results")
    parser.add_argument("--format", choices=("png", "svg"), default="png",
                        help="image format (default: png)")
    parser.add_argument("--outdir", default=".",
                        help="where the images go, created if missing "
                             "(default: .)")
    parser.add_argument("--force", action="store_true",
                        help="overwrite existing images")
    parser.add_argument("--metrics", default=DEFAULT_METRICS,
                        metavar="all|REGEX",
                        help="metrics shown in the ratio chart (Python "
                             f"regular expression, default {DEFAULT_METRICS})")
    parser.add_argument("--phases", default=None, metavar="all|REGEX",
                        help="phases shown in the ratio and sync-share "
                             "charts (default: the top-level ones)")
    parser.add_argument("--histogram-y", choices=("linear", "log"),
                        default="linear",
                        help="the histograms' share-of-ops axis: log shows "
                             "the tail's bins below 1%% beside the peak "
                             "(default: linear)")
    parser.add_argument("--keep-temp", action="store_true",
                        help="keep the gnuplot script and data files and "
                             "print where they are")
    args = parser.parse_args(argv)
    for option in ("metrics", "phases"):
        text = getattr(args, option)
        if text is None or text == "all":
            continue
        try:
            setattr(args, option, re.compile(text))
        except re.error as err:
            raise UsageError(f"--{option}: bad regular expression: {err}")
    return args


def run(argv):
    args = parse_args(argv)
    runs, traces, reports, comparisons = load_inputs(args.inputs)
    workdir = tempfile.mkdtemp(prefix="diskio-plot.")
    try:
        charts = unique_filenames(
            run_charts(runs, traces, args.format, workdir,
                       args.histogram_y == "log") +
            capacity_charts(runs, workdir, args.format) +
            report_charts(reports, args.format, args.phases, args.metrics,
                          workdir) +
            compare_charts(comparisons, args.format, workdir))
        if not charts:
            raise InputError(" ".join(args.inputs), None, "nothing to plot",
                             "give results with recorded ops or a report "
                             "with comparisons")
        with open_output_dir(args.outdir, "--outdir") as outdir:
            check_outputs(charts, outdir, args.force)
            paths = render(charts, args.format, outdir, workdir, args.force)
        write_stdout("".join(f"{shown(path)}\n" for path in paths))
    finally:
        if args.keep_temp:
            report(PROG, f"gnuplot script and data kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def main(argv=None):
    return run_command(PROG, run, argv, internal_status=EXIT_INTERNAL,
                       os_error_status=EXIT_BAD_INPUT)
