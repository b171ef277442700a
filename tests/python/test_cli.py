# SPDX-License-Identifier: MIT
"""Description: run_command turns every kind of failure into one line on
stderr and the documented exit status, never a traceback."""

import contextlib
import io
import unittest

from diskio_analysis import __version__
from diskio_analysis.cli import new_parser, run_command
from diskio_analysis.errors import InputError, ToolError, UsageError


def call(body, argv=(), **kw):
    err = io.StringIO()
    out = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        status = run_command("prog", body, list(argv), internal_status=3, **kw)
    return status, out.getvalue(), err.getvalue()


def raising(exc):
    def body(argv):
        raise exc
    return body


class RunCommandTest(unittest.TestCase):
    def test_success_is_zero(self):
        self.assertEqual(call(lambda argv: None)[0], 0)

    def test_input_error_names_file_line_and_what_to_do(self):
        status, _, err = call(raising(InputError("a.csv", 3, "bad number", "fix it")))
        self.assertEqual(status, 1)
        self.assertEqual(err, "prog: a.csv:3: bad number; fix it\n")

    def test_input_error_without_line(self):
        self.assertEqual(str(InputError("a.json", None, "what", "todo")),
                         "a.json: what; todo")

    def test_usage_error_is_two(self):
        status, _, err = call(raising(UsageError("no such option")))
        self.assertEqual((status, err), (2, "prog: no such option\n"))

    def test_tool_error_carries_its_own_status(self):
        status, _, _ = call(raising(ToolError("gnuplot not found", 3)))
        self.assertEqual(status, 3)

    def test_unexpected_exception_is_an_internal_error_in_one_line(self):
        status, _, err = call(raising(ZeroDivisionError("boom")))
        self.assertEqual(status, 3)
        self.assertIn("internal error: ZeroDivisionError: boom", err)
        self.assertNotIn("Traceback", err)
        self.assertEqual(err.count("\n"), 1)

    def test_os_error_is_bad_input_only_when_asked(self):
        exc = FileNotFoundError(2, "No such file or directory", "x.json")
        self.assertEqual(call(raising(exc))[0], 3)
        status, _, err = call(raising(exc), os_error_status=1)
        self.assertEqual(status, 1)
        self.assertIn("x.json: No such file or directory", err)

    def test_keyboard_interrupt_is_130(self):
        self.assertEqual(call(raising(KeyboardInterrupt()))[0], 130)


class ParserTest(unittest.TestCase):
    def test_bad_option_is_a_usage_error_pointing_at_help(self):
        parser = new_parser("prog", "d", "e")
        with self.assertRaises(UsageError) as ctx:
            parser.parse_args(["--nonsense"])
        self.assertIn("see prog --help", str(ctx.exception))

    def test_version_comes_from_the_generated_module(self):
        parser = new_parser("prog", "d", "e")
        status, out, _ = call(lambda argv: parser.parse_args(argv), ["--version"])
        self.assertEqual((status, out), (0, f"prog {__version__}\n"))
        self.assertRegex(__version__, r"^\d+\.\d+\.\d+")


if __name__ == "__main__":
    unittest.main()
