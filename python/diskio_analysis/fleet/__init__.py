# SPDX-License-Identifier: MIT
"""diskio-fleet: the same diskio command on many hosts through pdsh, clush
or ssh, each host's result collected into LAB/HOST/result.json.
hostlist: pdsh's host-list syntax; transport: the command line each
engine runs and how its output is split per host; collect: the per-host
outcome, the lab and the summary; command: the options and main()."""
