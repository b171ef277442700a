# SPDX-License-Identifier: MIT
"""The SQL files of the runner, package data under sql/.

Each file holds one statement, or one transaction (rf1.sql, rf2.sql), or
one DDL script run in one psql session (schema.sql, load.sql), after a
header of comment lines ended by a blank line; the header is not sent.

Parameters are substituted here, in Python, not by psql: a file names
them {{name}} and load() replaces each with the text the caller gives
(the caller formats numbers, e.g. "%.10f").  psql's :variables cannot
reach into the dollar-quoted function bodies of schema.sql, and a
substitution done before psql runs sends exactly the text that the
runner wrote into its scripts before the SQL moved into files.  load()
refuses a missing or an unused parameter.

Where PostgreSQL's catalogs changed, a file has variants named
NAME_post_NNNNNN.sql for server_version_num NNNNNN and later (the
pg_activity convention); versioned() picks the one for a server.
"""

import functools
import os
import re

# Beside this module, found through __file__: in a VPATH build the
# package's __path__ spans the build and the source tree, and the SQL is
# in the source tree with the modules.
SQL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sql")
PARAM_RE = re.compile(r"\{\{(\w+)\}\}")
VARIANT_RE = re.compile(r"^(\w+?)_post_(\d{6})\.sql$")


@functools.lru_cache(maxsize=None)
def text(name):
    """The statement text of sql/NAME.sql, without its header."""
    with open(os.path.join(SQL_DIR, name + ".sql"), encoding="utf-8") as f:
        body = f.read()
    if body.startswith("--"):
        body = body.split("\n\n", 1)[1]
    return body.strip()


def load(name, **params):
    """sql/NAME.sql with each {{param}} replaced by str(value)."""
    body = text(name)
    wanted = set(PARAM_RE.findall(body))
    if wanted != set(params):
        raise ValueError("%s.sql: parameters %s, given %s"
                         % (name, sorted(wanted), sorted(params)))
    return PARAM_RE.sub(lambda m: str(params[m.group(1)]), body)


def script(*statements):
    """A psql script: the statements one after another, one per line."""
    return "\n".join(statements) + "\n"


def versioned(name, version_num):
    """The name of the variant of NAME for a server of version_num: the
    NAME_post_NNNNNN with the highest NNNNNN <= version_num, else NAME
    itself, or None when no file applies."""
    best = (0, name if os.path.exists(os.path.join(SQL_DIR, name + ".sql"))
            else None)
    for f in os.listdir(SQL_DIR):
        m = VARIANT_RE.match(f)
        if m and m.group(1) == name and best[0] < int(m.group(2)) <= version_num:
            best = (int(m.group(2)), f[:-len(".sql")])
    return best[1]
