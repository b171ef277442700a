# SPDX-License-Identifier: MIT
"""diskio-plot: gnuplot charts of diskio results, per-op traces,
diskio-correlate reports and diskio-compare comparisons.  See
diskio-plot(1).

- trace, reportfile, comparefile: the readers of a trace, a report and
               a comparison (results and fio output: the shared readers);
- plotinputs:  every input file, recognised by its content;
- charts, report_charts, compare_charts: the charts of each kind;
- gnuplot:     running gnuplot and putting its images in place;
- command:     the options and main().
"""
