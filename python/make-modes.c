/* SPDX-License-Identifier: MIT */
/* make-modes > python/diskio_analysis/_modes.py: the library's modes and
 * what its mode table says of each, as a Python module the analysis
 * package reads (python/diskio_analysis/modes.py), so that the analysis
 * asks the table rather than listing modes of its own.  Made through the
 * public API (diskio_mode_name() of 0, 1, 2... until NULL, and the
 * diskio_mode_*() questions) when diskio is built. */
#include <diskio.h>
#include <stdio.h>

static const char *py_bool(bool b)
{
    return b ? "True" : "False";
}

int main(void)
{
    fputs("# SPDX-License-Identifier: MIT\n"
          "# Made by python/make-modes from libdiskio's mode table (src/lib/modes.c)\n"
          "# when diskio is built: do not edit.\n"
          "\"\"\"The library's modes in its order, one row each: name, durable, syncs,\n"
          "direct, queued, reads, wal_sync_method (diskio_mode_*(3)).\"\"\"\n"
          "\n"
          "from typing import Optional, Tuple\n"
          "\n"
          "MODES: Tuple[Tuple[str, bool, bool, bool, bool, bool, Optional[str]], ...] = (\n",
          stdout);
    for (unsigned i = 0; diskio_mode_name((enum diskio_mode)i); i++) {
        const enum diskio_mode m = (enum diskio_mode)i;
        const char *method = diskio_mode_pg_wal_sync_method(m);
        printf("    (\"%s\", %s, %s, %s, %s, %s, %s%s%s),\n", diskio_mode_name(m),
               py_bool(diskio_mode_is_durable(m)), py_bool(diskio_mode_syncs(m)),
               py_bool(diskio_mode_is_direct(m)), py_bool(diskio_mode_is_queued(m)),
               py_bool(diskio_mode_is_read(m)), method ? "\"" : "", method ? method : "None",
               method ? "\"" : "");
    }
    fputs(")\n", stdout);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("make-modes: could not write standard output\n", stderr);
        return 1;
    }
    return 0;
}
