/* SPDX-License-Identifier: MIT */
/*
 * The strings the emitters write: labels, run names, the target's path and
 * the probed environment (host name, mount source, device model...).  Any
 * of them may hold bytes that are not UTF-8 (a directory name is bytes,
 * not text) or control characters (a hostile name holding ESC sequences
 * for the terminal that shows the table), so every emitter decodes them
 * here, one rule for all: Unicode's well-formed UTF-8 (Table 3-7), where
 * overlong forms, surrogates (ED A0..BF), values above U+10FFFF and
 * truncated sequences are ill-formed, and an ill-formed sequence is cut
 * at its maximal subpart (Unicode section 3.9), as Python's
 * bytes.decode("utf-8", "replace") and the WHATWG decoder do.
 */
#include "config.h"

#include "diskio_internal.h"

int32_t utf8_decode(const unsigned char *s, size_t *len)
{
    const unsigned char c = s[0];
    if (c < 0x80) {
        *len = 1;
        return c;
    }
    size_t n;
    uint32_t cp;
    /* the second byte's range is narrower after E0 (no overlong), ED (no
     * surrogate), F0 (no overlong) and F4 (nothing above U+10FFFF) */
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0fu;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07u;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else {
        /* a continuation byte, C0/C1 (always overlong), F5..FF */
        *len = 1;
        return -1;
    }
    for (size_t i = 1; i < n; i++) {
        const unsigned char b = s[i];
        /* the terminating NUL is below 0x80: a sequence cut short by the
         * end of the string ends here too */
        if (b < lo || b > hi) {
            *len = i;
            return -1;
        }
        cp = cp << 6 | (b & 0x3fu);
        lo = 0x80;
        hi = 0xbf;
    }
    *len = n;
    return (int32_t)cp;
}

/* Characters a terminal acts on or that reorder what it shows: C0
 * controls, DEL, C1 controls (0x9b is CSI on some terminals), the line
 * and paragraph separators and the bidirectional formatting characters
 * (a name could show reversed, "Trojan Source"). */
bool display_unsafe(int32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
           cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t display_columns(const char *s)
{
    size_t columns = 0, len;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len) {
        const int32_t cp = utf8_decode(p, &len);
        columns += cp < 0 || display_unsafe(cp) ? 4 * len : 1;
    }
    return columns;
}

size_t display_write(FILE *out, const char *s, bool csv)
{
    size_t written = 0, len;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len) {
        const int32_t cp = utf8_decode(p, &len);
        if (cp < 0 || display_unsafe(cp)) {
            for (size_t i = 0; i < len; i++)
                fprintf(out, "\\x%02x", p[i]);
            written += 4 * len;
        } else if (csv && cp == '"') {
            fputs("\"\"", out);
            written += 2;
        } else {
            fwrite(p, 1, len, out);
            written += len;
        }
    }
    return written;
}
