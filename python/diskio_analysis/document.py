# SPDX-License-Identifier: MIT
"""A report as a list of blocks, drawn as plain text or as Markdown
(CommonMark with GFM tables), so that the two formats cannot drift apart
and every line that must stand alone (a verdict) is its own block: a list
item or a paragraph, never run together with the next line.

Blocks: Heading(level, text), Para(text), Items([text, ...]) (one list),
Table(header, rows), Pre([line, ...]) (kept as it is).

Every text of a block is drawn through textsafe.shown(): the blocks hold
names as they are (the JSON renderers take the same values), and no
drawing of them shows a control character, a bidi override or a byte
that is not UTF-8 raw."""

import re
import textwrap
from dataclasses import dataclass, field

from .textsafe import shown

WIDTH = 100


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Para:
    text: str


@dataclass
class Items:
    items: list = field(default_factory=list)


@dataclass
class Table:
    header: tuple
    rows: list


@dataclass
class Pre:
    lines: list


def text_table(header, rows, indent="  "):
    """Columns padded to their widest cell (each cell as shown()): the
    first two left-aligned (names), the rest right-aligned (numbers)."""
    table = [[shown(c) for c in row] for row in [header] + list(rows)]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines = []
    for row in table:
        cells = [c.ljust(w) if i < 2 else c.rjust(w)
                 for i, (c, w) in enumerate(zip(row, widths))]
        lines.append(indent + "  ".join(cells).rstrip())
    return lines


def wrap(text, first="", rest="    "):
    return textwrap.wrap(shown(text), width=WIDTH, initial_indent=first,
                         subsequent_indent=rest, break_on_hyphens=False,
                         break_long_words=False) or [first.rstrip()]


def draw_text(blocks):
    """Plain text: headings as '== x ==' / '-- x', items indented with
    their continuation lines hanging, tables aligned."""
    lines = []
    for block in blocks:
        if isinstance(block, Heading):
            if lines and lines[-1] != "":
                lines.append("")
            lines.append({1: "{}", 2: "== {} ==", 3: "-- {}"}
                         [min(block.level, 3)].format(shown(block.text)))
        elif isinstance(block, Para):
            lines += wrap(block.text, "", "")
        elif isinstance(block, Items):
            for item in block.items:
                lines += wrap(item, "  ", "      ")
        elif isinstance(block, Table):
            lines += text_table(block.header, block.rows)
        elif isinstance(block, Pre):
            lines += [shown(line) for line in block.lines]
    return "\n".join(lines).rstrip() + "\n"


# ASCII punctuation CommonMark could read as markup; a backslash before
# any ASCII punctuation is always a literal.
_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|])")


def md_escape(text):
    """Text as literal Markdown, as shown(): markup characters escaped;
    '_' only where it could open or close emphasis (fsync.mean_us stays
    as it is); a '#', '-', '+' or 'N.' that would start a heading or list
    at the start of the text escaped too."""
    text = _MD_SPECIAL.sub(r"\\\1", shown(text))
    text = re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\\_", text)
    text = re.sub(r"^(\s*)([#+-])(?=\s|$)", r"\1\\\2", text)
    return re.sub(r"^(\s*\d+)([.)])(?=\s|$)", r"\1\\\2", text)


def draw_markdown(blocks):
    """CommonMark: every block separated by a blank line, so a paragraph
    never swallows the next line; items as one '- ' list; tables in GFM
    pipe syntax."""
    out = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append("#" * min(block.level, 6) + " " + md_escape(block.text))
        elif isinstance(block, Para):
            out.append(md_escape(block.text))
        elif isinstance(block, Items):
            if block.items:
                out.append("\n".join("- " + md_escape(item)
                                     for item in block.items))
        elif isinstance(block, Table):
            lines = ["| " + " | ".join(md_escape(c) for c in block.header)
                     + " |",
                     "|" + "|".join(" --- " for _ in block.header) + "|"]
            lines += ["| " + " | ".join(md_escape(c) for c in row) + " |"
                      for row in block.rows]
            out.append("\n".join(lines))
        elif isinstance(block, Pre):
            out.append("```\n" + "\n".join(shown(line) for line in block.lines)
                       + "\n```")
    return "\n\n".join(out) + "\n"
