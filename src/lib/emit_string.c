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
 *
 * What a person sees of them (the table, CSV cells, and the messages of
 * the command and of diskio-durable, which compile this file in too)
 * follows one rule, made in shown_piece() and nowhere else: printable
 * UTF-8 as it is, a backslash doubled, every other byte as \xHH.
 */
#include "config.h"

#include <stdlib.h>

#include "emit_string.h"

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

/* The longest piece one step of the rule makes: a 4-byte sequence of
 * which every byte is shown as \xHH. */
#define PIECE_MAX 16

/* One step of the rule over s: what the character (or ill-formed
 * sequence) at s shows as, in piece (not NUL-terminated); its length is
 * returned, the bytes of s it covers are in *len and whether it was kept
 * as it is (one column on a terminal) in *kept.  The one place that
 * decides what a person sees of untrusted text. */
static size_t shown_piece(const unsigned char *s, size_t *len, bool csv, bool *kept,
                          char piece[PIECE_MAX])
{
    static const char hex[] = "0123456789abcdef";
    const int32_t cp = utf8_decode(s, len);
    *kept = false;
    if (cp < 0 || display_unsafe(cp)) {
        size_t n = 0;
        for (size_t i = 0; i < *len; i++) {
            piece[n++] = '\\';
            piece[n++] = 'x';
            piece[n++] = hex[s[i] >> 4];
            piece[n++] = hex[s[i] & 0xf];
        }
        return n;
    }
    if (cp == '\\' || (csv && cp == '"')) {
        piece[0] = piece[1] = (char)cp;
        return 2;
    }
    for (size_t i = 0; i < *len; i++)
        piece[i] = (char)s[i];
    *kept = true;
    return *len;
}

size_t display_columns(const char *s)
{
    size_t columns = 0, len;
    char piece[PIECE_MAX];
    bool kept;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len) {
        size_t n = shown_piece(p, &len, false, &kept, piece);
        columns += kept ? 1 : n;
    }
    return columns;
}

size_t display_write(FILE *out, const char *s, bool csv)
{
    size_t written = 0, len;
    char piece[PIECE_MAX];
    bool kept;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len) {
        size_t n = shown_piece(p, &len, csv, &kept, piece);
        fwrite(piece, 1, n, out);
        written += n;
    }
    return written;
}

size_t display_escape(char *buf, size_t size, const char *s)
{
    size_t total = 0, len;
    char piece[PIECE_MAX];
    bool kept, cut = false;
    if (size > 0)
        buf[0] = '\0';
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len) {
        size_t n = shown_piece(p, &len, false, &kept, piece);
        /* a piece that does not fit is left out whole, and all after it */
        if (!cut && size > 0 && total + n < size) {
            for (size_t i = 0; i < n; i++)
                buf[total + i] = piece[i];
        } else {
            cut = true;
        }
        if (!cut && size > 0)
            buf[total + n] = '\0';
        total += n;
    }
    return total;
}

void display_vline(FILE *out, const char *prefix, const char *fmt, va_list ap)
{
    char small[1024];
    va_list again;
    va_copy(again, ap);
    const int n = vsnprintf(small, sizeof(small), fmt, ap);
    char *text = small;
    if (n >= (int)sizeof(small)) {
        text = malloc((size_t)n + 1);
        if (text)
            vsnprintf(text, (size_t)n + 1, fmt, again);
        else
            text = small; /* what fitted */
    }
    va_end(again);
    fputs(prefix, out);
    if (n > 0)
        display_write(out, text, false);
    fputc('\n', out);
    if (text != small)
        free(text);
}
