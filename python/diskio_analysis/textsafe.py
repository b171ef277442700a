# SPDX-License-Identifier: MIT
"""What a human may be shown of a name, label, path, option value or
remote line: the one function every command's screens, reports, errors
and chart labels pass such text through (diskio's own outputs follow the
same rule in src/lib/emit_string.c; doc/result-schema.md, "Strings").

shown(text) keeps well-formed printable text as it is and writes a
backslash as two, and every code point a terminal could act on (C0, DEL,
C1, U+2028, U+2029, the bidirectional formatting characters) and every
byte that is not UTF-8 as \\xHH per byte of its UTF-8 encoding.  So ESC
shows as \\x1b and a name that holds the four characters \\x1b shows as
\\\\x1b: the two never look alike, and nothing shown moves the cursor,
retitles the terminal or reverses the text that follows."""

import re

# U+0000-U+001F, U+007F-U+009F (DEL and C1), U+061C, U+200E, U+200F,
# U+2028-U+202E (line and paragraph separators, the embeddings and
# overrides), U+2066-U+2069 (the isolates), every surrogate (a str from
# os.fsdecode or surrogateescape carries a byte that is not UTF-8 as a
# lone surrogate U+DC80-U+DCFF; json.loads lets any other through), and
# the backslash.
_SHOWN_AS_ESCAPE = re.compile(
    "[\\\\\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e"
    "\u2066-\u2069\ud800-\udfff]")


def _escape(match: "re.Match[str]") -> str:
    char = match.group()
    if char == "\\":
        return "\\\\"
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        # a byte that was not UTF-8, kept by surrogateescape: that byte
        return f"\\x{code - 0xDC00:02x}"
    return "".join(f"\\x{byte:02x}" for byte in
                   char.encode("utf-8", "surrogatepass"))


def shown(text: object) -> str:
    """text (a str, bytes or anything str() takes) as a human may see it."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "surrogateescape")
    elif not isinstance(text, str):
        text = str(text)
    return _SHOWN_AS_ESCAPE.sub(_escape, text)


# The code points a JSON output writes as \\uXXXX although JSON allows
# them raw: whatever shown() escapes but the backslash (which JSON
# escapes itself), so that a JSON output on a terminal acts on nothing.
_JSON_ESCAPED = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def json_text(text: str) -> str:
    """The output of json.dumps(..., ensure_ascii=False) with the
    characters a terminal acts on escaped as \\uXXXX (json.dumps escapes
    the C0 controls itself; outside strings JSON has none of these)."""
    return _JSON_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def clipped(text: str, limit: int = 60) -> str:
    """text for a message that quotes it: cut after limit characters,
    saying how long it was (what is quoted still goes through shown())."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"
