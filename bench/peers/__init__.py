# SPDX-License-Identifier: MIT
"""peers: the harness behind bench/compare-peers, one module per concern.

  tools    find, build and probe diskio, the bare loop and the peers
  runs     one runner per tool (diskio, bare loop, fio, sysbench, ioping,
           pg_test_fsync), with the mode-to-flags tables
  parse    the parsers of each tool's output (pure: text in, figures out)
  runner   the child runner (rusage, timeout, kill by pid) and the run's Env
  load     the load meter, quiet-machine wait
  machine  what the machine and the measured file system are
  plan     the cases of one round and the tools of each
  rounds   interleaved rounds, busy rounds discarded and replaced
  memory   the peak-RSS group
  record   the callgrind record-path group
  summary  medians, spread, paired per-round ratios, targets judged
  report   text and Markdown tables, the JSON and Markdown files
  command  the options and main
  buildtree  the build tree's package and configured Python, for the
           benchmarks that read results (real-envs, delay-model,
           verdict-calibration)

Benchmarks are not installed: the package lives in bench/ and the entry
point bench/compare-peers puts bench/ and ../python on sys.path.
Standard library plus diskio_analysis (errors, cli) only.
"""
