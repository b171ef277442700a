# SPDX-License-Identifier: MIT
"""The one exception hierarchy of the analysis commands.

Every error a user can cause is a ToolError: it carries the message to
print after the command's name and the exit status to leave with.  The
statuses every command shares are fixed here; a command with statuses of
its own (diskio-plot's "gnuplot not found") subclasses ToolError.
"""

EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class ToolError(Exception):
    """An error that ends a command: message plus exit status."""

    exit_status = EXIT_BAD_INPUT

    def __init__(self, message, status=None):
        super().__init__(message)
        if status is not None:
            self.exit_status = status


class InputError(ToolError):
    """Bad input data, reported as FILE[:LINE]: what; what to do."""

    exit_status = EXIT_BAD_INPUT

    def __init__(self, path, line, what, todo):
        super().__init__(what)
        self.path, self.line, self.what, self.todo = path, line, what, todo

    def __str__(self):
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.what}; {self.todo}"


class UsageError(ToolError):
    """A bad command line or option: exit status 2."""

    exit_status = EXIT_USAGE
