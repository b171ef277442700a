# SPDX-License-Identifier: MIT
"""diskio-pgphases: a DBT-3-style phase runner on a throw-away PostgreSQL
cluster (see diskio-pgphases(1) and doc/pgphases.md).

The modules, in the order a run uses them:

- command:  the options, main() and the signal handling;
- cluster:  the throw-away cluster's lifecycle (binaries, initdb, start,
            stop, removal) and psql;
- workload: the phases (load, power, throughput, refresh functions) and
            their timing;
- stats:    the per-phase counters (pg_stat_wal, checkpoints, the server
            log's "sync files=");
- results:  q_time.csv, wal.csv, settings.csv, settings.json and the log
            copy;
- sql:      the loader of the SQL files in sql/, one statement (or one
            transaction, or one DDL script) per file.

What every module shares is here: the command's name, its progress lines
and the error that ends a run.
"""

import sys

from ..errors import EXIT_BAD_INPUT, ToolError
from ..textsafe import shown

PROG = "diskio-pgphases"


class RunError(ToolError):
    """A failure that ends the run with exit status 1."""

    exit_status = EXIT_BAD_INPUT


def shown_lines(text):
    """text for a human, each of its lines through the one escape rule
    (textsafe.shown): a path, a relayed server or psql line can neither
    act on a terminal nor pass for another."""
    return "\n".join(shown(line) for line in str(text).split("\n"))


def progress(msg):
    """A progress line on stderr, shown_lines(): every message of a run
    goes out through here, so that what it quotes is shown safely.  One
    that cannot be written (2>/dev/full, a closed stderr) is dropped: the
    measurement goes on, and settings.json says how it ended."""
    try:
        sys.stderr.write("%s: %s\n" % (PROG, shown_lines(msg)))
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
