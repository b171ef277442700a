/* SPDX-License-Identifier: MIT */
/* The JSON values every part of the result document writes (emit_json.h):
 * strings (valid UTF-8, nothing a terminal acts on), numbers, null where
 * a figure is unknown, and a latency summary object (a repetition's, an
 * interval's, a steady window's).  Called by every emit_json*.c; calls
 * none of them. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emit_json.h"

/* s as a JSON string, valid UTF-8 whatever s holds (doc/result-schema.md,
 * "Strings"): every ill-formed UTF-8 sequence becomes U+FFFD, and control
 * characters (C0, DEL, C1), U+2028/U+2029 and the bidirectional
 * formatting characters are escaped (\uXXXX reads back as the same
 * character), so the document parses everywhere and, shown as it is,
 * holds nothing a terminal acts on. */
void json_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    size_t len;
    for (const unsigned char *p = (const unsigned char *)s; *p; p += len) {
        const int32_t cp = utf8_decode(p, &len);
        switch (cp) {
        case -1: fputs("\\ufffd", out); break;
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (display_unsafe(cp))
                fprintf(out, "\\u%04x", (unsigned)cp);
            else
                fwrite(p, 1, len, out);
        }
    }
    fputc('"', out);
}

/* A number; null where it is unknown (NAN) or infinite. */
void json_double(FILE *out, double v)
{
    if (!isfinite(v))
        fputs("null", out);
    else
        fprintf(out, "%.17g", v);
}

/* A number, or null where it is unknown or means nothing (count 0). */
void json_if(FILE *out, bool known, double v)
{
    if (known)
        json_double(out, v);
    else
        fputs("null", out);
}

void json_summary(FILE *out, const struct part_summary *s)
{
    if (!s->present) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"count\": %" PRIu64 ", \"min\": %" PRIu64 ", \"max\": %" PRIu64 ", \"mean\": ",
            s->count, s->min_ns, s->max_ns);
    json_double(out, s->mean_ns);
    fputs(", \"stddev\": ", out);
    json_double(out, s->stddev_ns);
    char key[32];
    for (int i = 0; i < SUMMARY_PCTS; i++)
        fprintf(out, ", \"%s\": %" PRIu64, pct_name(key, sizeof(key), summary_pcts[i], '_'),
                s->pct_ns[i]);
    fputc('}', out);
}
