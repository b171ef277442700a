# SPDX-License-Identifier: MIT
"""Argument parsing and the outermost error handling, written once for
every command: an argparse parser whose errors are UsageErrors, and
run_command(), which turns each kind of failure into one line on stderr
and the command's documented exit status.  Never a traceback."""

import argparse
import os
import sys

from . import __version__ as VERSION
from .errors import EXIT_INTERRUPTED, EXIT_OK, ToolError, UsageError


class QuietParser(argparse.ArgumentParser):
    """An ArgumentParser that raises UsageError instead of exiting, so that
    the message and the status come from run_command like every other
    error's."""

    def error(self, message):
        raise UsageError(f"{message} (see {self.prog} --help)")


def new_parser(prog, description, epilog):
    """A QuietParser with the --version every command has."""
    parser = QuietParser(prog=prog, description=description, epilog=epilog)
    parser.add_argument("--version", action="version",
                        version=f"{prog} {VERSION}")
    return parser


def report(prog, message):
    sys.stderr.write(f"{prog}: {message}\n")
    sys.stderr.flush()


def run_command(prog, body, argv=None, *, internal_status,
                os_error_status=None):
    """Call body(argv) and return the exit status.

    ToolError: its message and status.  KeyboardInterrupt: 130.  A reader
    that went away (| head): 0, silently.  --help/--version: their status.
    OSError: os_error_status with the file and reason when the command
    treats it as bad input, else an internal error.  Anything else is an
    internal error with internal_status, reported in one line."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        body(argv)
    except ToolError as err:
        report(prog, err)
        return err.exit_status
    except KeyboardInterrupt:
        report(prog, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Keep Python from complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except SystemExit as err:   # --help / --version
        return err.code if isinstance(err.code, int) else EXIT_OK
    except OSError as err:
        if os_error_status is None:
            return internal_error(prog, err, internal_status)
        report(prog, f"{err.filename or ''}: {err.strerror}; "
                     "check the paths and permissions")
        return os_error_status
    except Exception as err:  # noqa: BLE001 - never show a traceback
        return internal_error(prog, err, internal_status)
    return EXIT_OK


def internal_error(prog, err, status):
    report(prog, f"internal error: {type(err).__name__}: {err}; "
                 "please report this with the input files")
    return status
