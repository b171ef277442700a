# SPDX-License-Identifier: MIT
"""Description: one list of blocks is drawn as aligned text or as Markdown.

one list of blocks drawn as text or Markdown: in text,
headings, indented items with hanging continuation lines and aligned
tables; in Markdown every block stands apart (a blank line between), so
that no verdict runs into the next line, items form one list, tables are
GFM tables, and markup characters in names are escaped."""

import unittest

from diskio_analysis.document import (Heading, Items, Para, Pre, Table,
                                      draw_markdown, draw_text, md_escape,
                                      text_table)


BLOCKS = [Heading(1, "title"), Para("a paragraph"), Heading(2, "section"),
          Items(["first verdict", "second verdict"]),
          Table(("k", "name", "v"), [("a", "b", "1"), ("a", "bb", "100")]),
          Pre(["  kept  as is"])]


class TextTest(unittest.TestCase):
    def test_text_table_aligns_names_left_and_numbers_right(self):
        self.assertEqual(text_table(("k", "name", "v"),
                                    [("a", "b", "1"), ("a", "bb", "100")]),
                         ["  k  name    v", "  a  b       1",
                          "  a  bb    100"])

    def test_text(self):
        self.assertEqual(draw_text(BLOCKS).splitlines(), [
            "title", "a paragraph", "", "== section ==", "  first verdict",
            "  second verdict", "  k  name    v", "  a  b       1",
            "  a  bb    100", "  kept  as is"])

    def test_long_items_wrap_with_a_hanging_indent(self):
        lines = draw_text([Items(["word " * 40])]).splitlines()
        self.assertEqual(len(lines), 3)
        self.assertTrue(lines[0].startswith("  word"))
        self.assertTrue(lines[1].startswith("      word"))
        self.assertTrue(all(len(line) <= 100 for line in lines))


class ShownTest(unittest.TestCase):
    def test_names_in_any_block_are_shown(self):
        """A name with an escape sequence, a newline or a bidi override
        (a file name in a note, a phase, a label) is drawn as shown()
        shows it, in every kind of block, text and Markdown."""
        name = "n\x1b[2J\u202e\nx"
        blocks = [Heading(1, name), Para(name), Items([name]),
                  Table(("k", name), [(name, "1")]), Pre([name])]
        for draw in (draw_text, draw_markdown):
            with self.subTest(draw=draw.__name__):
                text = draw(blocks)
                self.assertTrue(all(c.isprintable() or c == "\n"
                                    for c in text))
                self.assertIn("\\x1b", text)
                self.assertIn("\\xe2\\x80\\xae", text)
        table = text_table(("a", "b"), [(name, "1")])
        self.assertEqual(len(set(len(line) for line in table)), 1)


class MarkdownTest(unittest.TestCase):
    def test_blocks_stand_apart(self):
        self.assertEqual(draw_markdown(BLOCKS), "\n".join([
            "# title", "", "a paragraph", "", "## section", "",
            "- first verdict", "- second verdict", "",
            "| k | name | v |", "| --- | --- | --- |", "| a | b | 1 |",
            "| a | bb | 100 |", "", "```", "  kept  as is", "```", ""]))

    def test_escapes(self):
        self.assertEqual(md_escape("fsync.mean_us"), "fsync.mean_us")
        self.assertEqual(md_escape("_x_ *y* a|b <c> [d]"),
                         r"\_x\_ \*y\* a\|b \<c\> \[d\]")
        self.assertEqual(md_escape("- not a list"), r"\- not a list")
        self.assertEqual(md_escape("1. not a list"), r"1\. not a list")
        self.assertEqual(md_escape("1.30× slower"), "1.30× slower")
        self.assertEqual(md_escape("# x"), r"\# x")


if __name__ == "__main__":
    unittest.main()
