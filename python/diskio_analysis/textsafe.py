# SPDX-License-Identifier: MIT
"""The one way the analysis commands show untrusted text to a human: a
name, label, path, option value or relayed line, in any message, screen
or text report.  Nothing shown can act on a terminal, and no two
different texts look the same (doc/result-schema.md, "Strings")."""

# Shown as \\xHH per byte of their UTF-8 encoding: U+2028, U+2029 and the
# bidirectional formatting characters (C0, DEL and C1 are ranges, below).
_ESCAPED = frozenset([0x2028, 0x2029, 0x061C, 0x200E, 0x200F]
                     + list(range(0x202A, 0x202F))
                     + list(range(0x2066, 0x206A)))


def _hex(data):
    return "".join("\\x%02x" % b for b in data)


def shown(text: str) -> str:
    """text as a human may see it: well-formed printable UTF-8 as it is, a
    backslash as \\\\, and every byte of a C0 or C1 control, DEL, U+2028,
    U+2029, a bidirectional formatting character or an ill-formed
    sequence as \\xHH.  A raw byte that os.fsdecode() carried as a lone
    surrogate (U+DC80-U+DCFF) is shown as that byte."""
    out = []
    for ch in text:
        cp = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif 0xDC80 <= cp <= 0xDCFF:
            out.append("\\x%02x" % (cp - 0xDC00))
        elif 0xD800 <= cp <= 0xDFFF:
            # any other lone surrogate: its bytes are ill-formed UTF-8
            out.append(_hex(ch.encode("utf-8", "surrogatepass")))
        elif cp < 0x20 or 0x7F <= cp <= 0x9F or cp in _ESCAPED:
            out.append(_hex(ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)
