# SPDX-License-Identifier: MIT
"""Argument parsing and the outermost error handling, written once for
every command: an argparse parser whose errors are UsageErrors, and
run_command(), which turns each kind of failure into one line on stderr
and the command's documented exit status.  Never a traceback."""

import argparse
import io
import os
import signal
import sys

from . import __version__ as VERSION
from .errors import EXIT_INTERRUPTED, EXIT_OK, ToolError, UsageError
from .plainnumber import plain_number
from .textsafe import shown


# Signals that end a command the way Ctrl-C does: through the finally
# blocks (temporary directories and half-written images removed).
TERMINATING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminated(BaseException):
    """SIGTERM or SIGHUP, raised in the main thread by run_command's
    handler: a BaseException, so no except Exception swallows it."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _terminate(signum, frame):
    raise Terminated(signum)


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


def number(text):
    """An option's number, in the one grammar every reader uses
    (plainnumber); argparse names the option of a ValueError."""
    value = plain_number(text)
    if value is None:
        raise ValueError(text)
    return float(value)


def add_min_change_option(parser, default_fraction):
    """--min-change PCT, as diskio-compare and diskio-correlate share it;
    check_min_change() turns it into a fraction after parsing."""
    parser.add_argument("--min-change", type=number, metavar="PCT",
                        default=100 * default_fraction,
                        help="smallest change in percent called slower or "
                             f"faster (default {100 * default_fraction:g})")


def check_min_change(args):
    """The parsed --min-change as a fraction; UsageError outside 0-1000%."""
    if not 0 <= args.min_change < 1000:
        raise UsageError(f"--min-change {args.min_change:g}: want a "
                         "percentage from 0 to 1000")
    return args.min_change / 100.0


def add_output_options(parser, what):
    """-o/--output FILE and --force, the same for every command that writes
    one file (see outputs.write_output_file)."""
    parser.add_argument("-o", "--output", metavar="FILE",
                        help=f"write the {what} to FILE (its directory is "
                             "created) instead of standard output")
    parser.add_argument("--force", action="store_true",
                        help="let --output replace an existing file")


def report(prog, message):
    """One line on stderr, shown as textsafe.shown() shows any name it
    quotes (a newline in a name cannot start another line, an escape
    sequence cannot act on the terminal); dropped when stderr cannot take
    it (2>/dev/full, 2>&-): the exit status still tells."""
    try:
        sys.stderr.write(f"{prog}: {shown(message)}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def write_stdout(text):
    """The command's output, written and flushed at once.  A standard
    output that cannot take it (a full disk, a closed descriptor) is an
    error of its own, status 1; a reader that went away (| head) is not
    (BrokenPipeError goes on to run_command)."""
    if sys.stdout is None:      # started with >&-
        raise ToolError("standard output is closed; redirect it to a file")
    try:
        try:
            sys.stdout.write(text)
        except UnicodeEncodeError:
            # a path given in another encoding (non-UTF-8 bytes arrive as
            # surrogate escapes): give back the bytes the user gave
            sys.stdout.flush()
            sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        _discard_stdout()
        raise ToolError(f"cannot write to standard output: {err.strerror}; "
                        "check where it goes (a full disk?)")


def _discard_stdout():
    """Point stdout at /dev/null, so that Python's own flush at exit does
    not fail (and complain) a second time."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def run_command(prog, body, argv=None, *, internal_status,
                os_error_status=None):
    """Call body(argv) and return the exit status.

    ToolError: its message and status.  KeyboardInterrupt: 130; SIGTERM
    and SIGHUP: 128 + the signal, after body's finally blocks ran.  A reader
    that went away (| head): 0, silently.  --help/--version: their status.
    OSError: os_error_status with the file and reason when the command
    treats it as bad input, else an internal error.  Anything else is an
    internal error with internal_status, reported in one line."""
    argv = sys.argv[1:] if argv is None else argv
    # An inherited ignore (nohup) is kept, as diskio keeps it.
    previous = {signum: signal.signal(signum, _terminate)
                for signum in TERMINATING_SIGNALS
                if signal.getsignal(signum) is signal.SIG_DFL}
    try:
        return _run(prog, body, argv, internal_status, os_error_status)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _run(prog, body, argv, internal_status, os_error_status):
    try:
        body(argv)
    except Terminated as err:
        report(prog, f"interrupted by {signal.Signals(err.signum).name}")
        return 128 + err.signum
    except ToolError as err:
        report(prog, err)
        return err.exit_status
    except KeyboardInterrupt:
        report(prog, "interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _discard_stdout()
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
