# SPDX-License-Identifier: MIT
"""How the analysis commands' arguments name environments: NAME=PATH.

A result argument NAME=FILE puts FILE in the environment NAME whatever
its --label, so that two results of one label or one directory (an A/A
test) are compared without editing them; several FILEs may share a NAME,
the invocations of one environment (A=a1.json A=a2.json B=b1.json).  A
directory (diskio-plot's FILE, diskio-correlate's ENVDIR) is named the
same way.  An argument is NAME=PATH when the text before its first '='
is not empty and holds no '/'; so ./x=y.json (or /abs/x=y.json) is the
file x=y.json.  An unnamed result belongs to the environment of its
label, else of its directory's name, else of its file's name.
"""

import os

from .errors import InputError, UsageError
from .result import load_result


def named_help(what="FILE", several=True):
    """The arguments' rule as --help says it, for arguments of what."""
    return (f"NAME={what} puts {what} in the environment NAME whatever its "
            "results' label"
            + (f" (several {what}s may share a NAME)" if several else "")
            + "; write ./x=y to give a path whose name holds '='")


def split_named(argument):
    """(NAME, PATH) of an argument NAME=PATH; (None, argument) of a plain
    path.  UsageError for an empty NAME or PATH."""
    head, sep, tail = argument.partition("=")
    if not sep or "/" in head:
        return None, argument
    if not head:
        raise UsageError(f"'{argument}': no name before '=': write "
                         f"NAME{argument} to name its environment, or "
                         f"./{argument} for a file of that name")
    if not tail:
        raise UsageError(f"'{argument}': no file after '=': write "
                         f"{argument}FILE, or ./{argument} for a file of "
                         "that name")
    return head, tail


def named_path(argument):
    """split_named(argument), refusing a NAME=PATH whose PATH does not
    exist where the whole argument does: the file meant is named so."""
    name, path = split_named(argument)
    if name is not None and not os.path.lexists(path) and \
            os.path.lexists(argument):
        raise InputError(path, None,
                         f"no such file or directory ({argument} reads as "
                         f"the environment {name} and its file {path})",
                         f"write ./{argument} to read the file {argument}")
    return name, path


def load_named_result(argument):
    """The Result an argument gives (NAME=FILE or FILE), named."""
    name, path = named_path(argument)
    result = load_result(path)
    result.side = name
    return result


def environment_name(result):
    """The name given on the command line (NAME=FILE), else the label,
    else the directory the result sits in (each environment's files in a
    directory of its own, as diskio-correlate reads them), else the
    file's name."""
    if result.side:
        return result.side
    if result.label:
        return result.label
    directory = os.path.basename(os.path.dirname(os.path.abspath(result.path)))
    return directory or os.path.splitext(os.path.basename(result.path))[0]
