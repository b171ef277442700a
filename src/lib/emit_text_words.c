/* SPDX-License-Identifier: MIT */
/* The words every part of the text formats (emit_text.h): times with a
 * unit that fits, sizes, names shown so that no byte of them acts on the
 * terminal, and whether a run was disturbed (the table marks its row,
 * the notes say why).  Called by every emit_text*.c; calls none of them. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "emit_text.h"

/* Three significant digits with a unit that fits: 812 ns, 2.41 us, 1.23 ms. */
const char *text_ns(char *buf, size_t size, double ns)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1.0, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s "}};
    int u = 0;
    while (u < 3 && ns >= units[u + 1].scale)
        u++;
    double v = ns / units[u].scale;
    int decimals = u == 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0;
    snprintf(buf, size, "%.*f %s", decimals, v, units[u].unit);
    return buf;
}

const char *text_size(char *buf, size_t size, uint64_t bytes)
{
    if (bytes % (UINT64_C(1) << 20) == 0)
        snprintf(buf, size, "%" PRIu64 " MiB", bytes >> 20);
    else if (bytes % 1024 == 0)
        snprintf(buf, size, "%" PRIu64 " KiB", bytes >> 10);
    else
        snprintf(buf, size, "%" PRIu64 " B", bytes);
    return buf;
}

/* A name, label or path as display_write() shows it: no byte of it can
 * move the cursor, change colours or retitle the terminal. */
size_t text_show(FILE *out, const char *s)
{
    return display_write(out, s, false);
}

/* text_ns() without the padding of "s " (for prose, not columns). */
const char *text_ns_word(char *buf, size_t size, double ns)
{
    text_ns(buf, size, ns);
    size_t n = strlen(buf);
    if (n > 0 && buf[n - 1] == ' ')
        buf[n - 1] = '\0';
    return buf;
}

/* Whether a run (any of its repetitions) was disturbed. */
bool text_run_disturbed(const struct diskio_run *run)
{
    if (!run->nreps)
        return run->ifr.nreasons > 0;
    for (size_t r = 0; r < run->nreps; r++)
        if (run->reps[r].ifr.nreasons)
            return true;
    return false;
}
