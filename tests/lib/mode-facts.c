/* SPDX-License-Identifier: MIT */
/*
 * Description: the library's modes and what its mode table says of each,
 * one line a mode, for the shell tests to ask rather than list them:
 *
 *   NAME durable|- syncs|- direct|- queued|- reads|- WAL_SYNC_METHOD|-
 *
 * in the library's order (diskio_mode_name() of 0, 1, 2... until NULL).
 * Usage: mode-facts [FACT], FACT one of durable, syncs, direct, queued,
 * reads, writes, wal: only the names of the modes that have it (writes:
 * those that do not read; wal: those with a wal_sync_method).
 */
#include <diskio.h>
#include <stdio.h>
#include <string.h>

static bool has(const char *fact, enum diskio_mode m)
{
    if (strcmp(fact, "durable") == 0)
        return diskio_mode_is_durable(m);
    if (strcmp(fact, "syncs") == 0)
        return diskio_mode_syncs(m);
    if (strcmp(fact, "direct") == 0)
        return diskio_mode_is_direct(m);
    if (strcmp(fact, "queued") == 0)
        return diskio_mode_is_queued(m);
    if (strcmp(fact, "reads") == 0)
        return diskio_mode_is_read(m);
    if (strcmp(fact, "writes") == 0)
        return !diskio_mode_is_read(m);
    return diskio_mode_pg_wal_sync_method(m) != NULL; /* wal */
}

int main(int argc, char **argv)
{
    static const char *const facts[] = {"durable", "syncs",  "direct", "queued",
                                        "reads",   "writes", "wal"};
    const char *fact = argc > 1 ? argv[1] : NULL;
    bool known = !fact;
    for (size_t i = 0; fact && i < sizeof(facts) / sizeof(facts[0]); i++)
        known = known || strcmp(fact, facts[i]) == 0;
    if (argc > 2 || !known) {
        fprintf(stderr, "usage: mode-facts [durable|syncs|direct|queued|reads|writes|wal]\n");
        return 2;
    }
    for (unsigned i = 0; diskio_mode_name((enum diskio_mode)i); i++) {
        const enum diskio_mode m = (enum diskio_mode)i;
        const char *method = diskio_mode_pg_wal_sync_method(m);
        if (fact && has(fact, m))
            printf("%s\n", diskio_mode_name(m));
        else if (!fact)
            printf("%s %s %s %s %s %s %s\n", diskio_mode_name(m),
                   diskio_mode_is_durable(m) ? "durable" : "-",
                   diskio_mode_syncs(m) ? "syncs" : "-", diskio_mode_is_direct(m) ? "direct" : "-",
                   diskio_mode_is_queued(m) ? "queued" : "-",
                   diskio_mode_is_read(m) ? "reads" : "-", method ? method : "-");
    }
    return ferror(stdout) ? 1 : 0;
}
