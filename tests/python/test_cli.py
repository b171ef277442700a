# SPDX-License-Identifier: MIT
"""Description: run_command turns every failure into one line and its exit status, never a traceback.

run_command turns every kind of failure into one line on
stderr and the documented exit status, never a traceback."""

import contextlib
import io
import os
import signal
import unittest
from unittest import mock

from diskio_analysis import __version__
from diskio_analysis.cli import (add_min_change_option, add_output_options,
                                 check_min_change, new_parser, run_command,
                                 write_stdout)
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

    def test_a_path_with_escapes_is_shown_and_never_mistaken(self):
        """An error names a path as shown() shows it: ESC as \\x1b, the
        four characters \\x1b as \\\\x1b, a newline of the path as \\x0a
        (the message stays one line)."""
        esc = call(raising(InputError("a\x1b[2Jb\nc", None, "bad", "fix")))[2]
        literal = call(raising(InputError("a\\x1b[2Jb\\x0ac", None, "bad",
                                          "fix")))[2]
        self.assertEqual(esc, "prog: a\\x1b[2Jb\\x0ac: bad; fix\n")
        self.assertEqual(literal, "prog: a\\\\x1b[2Jb\\\\x0ac: bad; fix\n")
        self.assertNotEqual(esc, literal)

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


    def test_sigterm_runs_the_finally_blocks_and_exits_143(self):
        cleaned = []

        def body(argv):
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                signal.pause()
            finally:
                cleaned.append(True)
        status, _, err = call(body)
        self.assertEqual((status, cleaned), (143, [True]))
        self.assertEqual(err, "prog: interrupted by SIGTERM\n")
        self.assertIs(signal.getsignal(signal.SIGTERM), signal.SIG_DFL)

    def test_an_inherited_sighup_ignore_is_kept(self):
        previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
        try:
            def body(argv):
                self.assertIs(signal.getsignal(signal.SIGHUP), signal.SIG_IGN)
            self.assertEqual(call(body)[0], 0)
        finally:
            signal.signal(signal.SIGHUP, previous)

    def test_an_unwritable_stderr_does_not_turn_an_error_into_a_traceback(self):
        class Full(io.StringIO):
            def write(self, text):
                raise OSError(28, "No space left on device")
        with contextlib.redirect_stderr(Full()):
            status = run_command("prog", raising(UsageError("x")), [],
                                 internal_status=3)
        self.assertEqual(status, 2)


class WriteStdoutTest(unittest.TestCase):
    def test_a_full_stdout_is_an_error_that_says_so(self):
        class Full(io.StringIO):
            def write(self, text):
                raise OSError(28, "No space left on device")
        with contextlib.redirect_stdout(Full()):
            with self.assertRaises(ToolError) as ctx:
                write_stdout("report\n")
        self.assertIn("cannot write to standard output: No space left on device",
                      str(ctx.exception))
        self.assertEqual(ctx.exception.exit_status, 1)

    def test_non_utf8_path_bytes_are_written_back_as_given(self):
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        with contextlib.redirect_stdout(out):
            write_stdout("/tmp/\udcff/chart.png\n")
        self.assertEqual(out.buffer.getvalue(), b"/tmp/\xff/chart.png\n")

    def test_a_closed_stdout_is_an_error_that_says_so(self):
        with mock.patch("sys.stdout", None):
            with self.assertRaises(ToolError) as ctx:
                write_stdout("report\n")
        self.assertIn("standard output is closed", str(ctx.exception))

    def test_a_reader_that_went_away_is_left_to_run_command(self):
        class Gone(io.StringIO):
            def write(self, text):
                raise BrokenPipeError(32, "Broken pipe")
        with contextlib.redirect_stdout(Gone()):
            with self.assertRaises(BrokenPipeError):
                write_stdout("report\n")


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

    def test_min_change_is_a_percentage_turned_into_a_fraction(self):
        parser = new_parser("prog", "d", "e")
        add_min_change_option(parser, 0.05)
        self.assertEqual(check_min_change(parser.parse_args([])), 0.05)
        self.assertEqual(check_min_change(parser.parse_args(["--min-change", "12.5"])),
                         0.125)
        for bad in ("-1", "1000"):
            with self.assertRaises(UsageError) as ctx:
                check_min_change(parser.parse_args(["--min-change", bad]))
            self.assertIn("want a percentage from 0 to 1000", str(ctx.exception))
        # the one number grammar: no 1_0, no full-width digits, no nan
        for bad in ("1_0", "\uff15", "nan"):
            with self.subTest(bad=bad), self.assertRaises(UsageError):
                parser.parse_args(["--min-change", bad])

    def test_output_options_are_output_and_force(self):
        parser = new_parser("prog", "d", "e")
        add_output_options(parser, "report")
        args = parser.parse_args(["-o", "r.txt", "--force"])
        self.assertEqual((args.output, args.force), ("r.txt", True))
        self.assertEqual((parser.parse_args([]).output, parser.parse_args([]).force),
                         (None, False))


if __name__ == "__main__":
    unittest.main()
