# SPDX-License-Identifier: MIT
"""Description: untrusted text is shown by one rule: printable kept, backslash doubled, the rest as \\xHH.

the one rule for showing untrusted text (textsafe.shown):
printable UTF-8 kept, a backslash doubled, every control, DEL, C1,
U+2028/2029, bidi formatting character and byte that is not UTF-8 shown
as \\xHH per byte, so that a name holding the four characters \\x1b never
looks like one holding ESC; and the JSON outputs' escaping of the same
characters."""

import json
import unittest

from diskio_analysis.textsafe import clipped, json_text, shown

# Everything the rule escapes besides the C0 controls and DEL.
ESCAPED_ABOVE_ASCII = ["\u0080", "\u009b", "\u009f", "\u061c", "\u200e",
                       "\u200f", "\u2028", "\u2029", "\u202a", "\u202e",
                       "\u2066", "\u2069"]


class ShownTest(unittest.TestCase):
    def test_printable_text_is_kept(self):
        for text in ("fsync@8k.mean_us", "db1 `touch x` $(y) 'q' \"d\"",
                     "µs × ±", "日本語", "\U0001f600", "\u200b\ufeff"):
            self.assertEqual(shown(text), text)

    def test_a_literal_backslash_x1b_and_an_escape_look_different(self):
        literal, escape = "a\\x1bb", "a\x1bb"
        self.assertEqual(shown(escape), "a\\x1bb")
        self.assertEqual(shown(literal), "a\\\\x1bb")
        self.assertNotEqual(shown(literal), shown(escape))

    def test_every_control_byte_is_shown_as_hex(self):
        for code in list(range(0x00, 0x20)) + [0x7f]:
            with self.subTest(code=code):
                self.assertEqual(shown(f"a{chr(code)}b"),
                                 f"a\\x{code:02x}b")

    def test_c1_separators_and_bidi_controls_by_their_utf8_bytes(self):
        for char in ESCAPED_ABOVE_ASCII:
            with self.subTest(char=f"U+{ord(char):04X}"):
                hexes = "".join(f"\\x{b:02x}" for b in char.encode("utf-8"))
                self.assertEqual(shown(char), hexes)
        self.assertEqual(shown("\u202eevil"), "\\xe2\\x80\\xaeevil")

    def test_bytes_that_are_not_utf8_as_the_bytes_they_were(self):
        # os.fsdecode / surrogateescape: b"d\xff" arrives as "d\udcff"
        self.assertEqual(shown(b"d\xff".decode("utf-8", "surrogateescape")),
                         "d\\xff")
        self.assertEqual(shown(b"d\xff\x1b"), "d\\xff\\x1b")
        # a lone surrogate json.loads let through: its surrogatepass bytes
        self.assertEqual(shown("\ud800"), "\\xed\\xa0\\x80")

    def test_nothing_shown_acts_on_a_terminal(self):
        every = "".join(chr(c) for c in range(0x00, 0xa0)) + \
            "".join(ESCAPED_ABOVE_ASCII) + "\udc80\udcff"
        text = shown(every)
        self.assertTrue(text.isprintable())
        text.encode("utf-8")        # no surrogate left

    def test_clipped_says_how_long(self):
        self.assertEqual(clipped("x" * 10), "x" * 10)
        self.assertEqual(clipped("x" * 100, 5), "xxxxx... (100 characters)")


class JsonTextTest(unittest.TestCase):
    def test_json_outputs_escape_what_shown_escapes(self):
        value = "e\x1b\u009b\u202e\u2028\udcff\\"
        text = json_text(json.dumps({"k": value}, ensure_ascii=False))
        self.assertTrue(text.isascii())
        self.assertTrue(text.isprintable())
        # a reader gets the characters back (the surrogate as the escape
        # it is)
        self.assertEqual(json.loads(text), {"k": value})


if __name__ == "__main__":
    unittest.main()
