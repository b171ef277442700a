# SPDX-License-Identifier: MIT
"""diskio-correlate: write-latency ratios between environments held
against the ratios of database phase timings.  See diskio-correlate(1).

- environment: one environment directory (diskio and fio results,
               metrics.csv, phase timings, WAL counters, settings);
- report:      the ratios judged against their noise and the report
               every renderer prints (build_report);
- candidates:  the metrics a phase's change is consistent with;
- fit:         correlations and least-squares lines across environments;
- walbases, walmodel: the WAL model (what PostgreSQL counted of each kind
               of sync, the estimates and predictions from them);
- fmt, summary, details, render: the report's numbers, its one-screen
               summary, its details, and text/markdown/CSV/JSON;
- command:     the options and main().
"""
