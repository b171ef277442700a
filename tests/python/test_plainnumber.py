# SPDX-License-Identifier: MIT
"""Description: a number written as text follows one ASCII grammar, never what only int() and float() take.

the one grammar of a number written as text
(plainnumber.plain_number): ASCII digits, a sign, a point, an exponent;
never what only Python's int() and float() take (1_000, full-width or
Arabic-Indic digits, surrounding spaces, nan, infinity)."""

import unittest

from diskio_analysis.plainnumber import MAX_NUMBER_CHARS, plain_number


class PlainNumberTest(unittest.TestCase):
    def test_plain_numbers(self):
        for text, value in (("0", 0), ("42", 42), ("-7", -7), ("+3", 3),
                            ("2.5", 2.5), ("5.", 5.0), (".5", 0.5),
                            ("1e3", 1000.0), ("1E-3", 0.001),
                            ("-2.5e+2", -250.0)):
            with self.subTest(text=text):
                number = plain_number(text)
                self.assertEqual(number, value)
                self.assertIs(type(number), type(value))

    def test_what_python_takes_but_no_program_writes(self):
        for text in ("1_000", "\uff11\uff12", "\u0661\u0662", "\u00b2",
                     " 1", "1 ", "1\u00a0", "nan", "NaN", "inf",
                     "-Infinity", "0x10", "1,5", "1e", "e3", ".", "-",
                     "--1", "1.2.3", "", "\u2212" + "1"):
            with self.subTest(text=text):
                self.assertIsNone(plain_number(text))

    def test_integer_only_and_length(self):
        self.assertEqual(plain_number("12", integer=True), 12)
        self.assertIsNone(plain_number("1.0", integer=True))
        self.assertIsNone(plain_number("1e3", integer=True))
        self.assertIsNone(plain_number("1" * (MAX_NUMBER_CHARS + 1)))
        self.assertEqual(plain_number("1e999"), float("inf"))
        self.assertIsNone(plain_number(None))


if __name__ == "__main__":
    unittest.main()
