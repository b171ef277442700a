/* SPDX-License-Identifier: MIT */
/*
 * diskio's output files (result and traces): created next to their final
 * name and renamed into place when complete, so that no reader ever sees
 * half a file, and an existing file is never replaced without --force.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_output.h"

/* temporary files being written, for a second signal to remove */
static const char *volatile pending_tmp[OUT_FILE_SLOTS];

void out_file_unlink_pending(void)
{
    for (int i = 0; i < OUT_FILE_SLOTS; i++)
        if (pending_tmp[i])
            unlink(pending_tmp[i]);
}

/* Whether path may be created (or replaced, with force); says why not. */
bool out_file_allowed(const char *path, bool force)
{
    struct stat st;
    if (lstat(path, &st) == 0 && (!force || !S_ISREG(st.st_mode))) {
        fprintf(stderr, "diskio: %s already exists; choose another name%s\n", path,
                S_ISREG(st.st_mode) ? " or add --force to replace it" : "");
        return false;
    }
    return true;
}

int out_file_open(struct out_file *f, const char *path, bool force)
{
    f->path = path;
    if (!out_file_allowed(path, force))
        return -1;
    size_t len = strlen(path) + 32;
    f->tmp_path = malloc(len);
    if (!f->tmp_path) {
        fprintf(stderr, "diskio: out of memory\n");
        return -1;
    }
    snprintf(f->tmp_path, len, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(f->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        /* name the user's path, not the temporary one beside it */
        fprintf(stderr,
                "diskio: cannot create %s: %s; check that its directory exists and is "
                "writable\n",
                path, strerror(errno));
        free(f->tmp_path);
        f->tmp_path = NULL;
        return -1;
    }
    f->stream = fdopen(fd, "w");
    if (!f->stream) {
        fprintf(stderr, "diskio: cannot write %s: %s\n", path, strerror(errno));
        close(fd);
        unlink(f->tmp_path);
        free(f->tmp_path);
        f->tmp_path = NULL;
        return -1;
    }
    pending_tmp[f->slot] = f->tmp_path;
    return 0;
}

void out_file_discard(struct out_file *f)
{
    pending_tmp[f->slot] = NULL;
    if (f->stream) {
        fclose(f->stream);
        f->stream = NULL;
    }
    if (f->tmp_path) {
        unlink(f->tmp_path);
        free(f->tmp_path);
        f->tmp_path = NULL;
    }
}

/* Flush, make durable and rename into place.  0 or -1 (message printed). */
int out_file_commit(struct out_file *f, bool force)
{
    if (!f->stream)
        return 0;
    pending_tmp[f->slot] = NULL;
    int rc = 0;
    if (fflush(f->stream) != 0)
        rc = -errno;
    /* a signal during the sync (SIGWINCH, a profiler's timer) is no
     * reason to lose the result */
    while (rc == 0 && fsync(fileno(f->stream)) != 0)
        if (errno != EINTR)
            rc = -errno;
    if (rc == 0 && ferror(f->stream))
        rc = -EIO;
    if (fclose(f->stream) != 0 && rc == 0)
        rc = -errno;
    f->stream = NULL;
    if (rc == 0) {
        if (force)
            rc = rename(f->tmp_path, f->path) == 0 ? 0 : -errno;
        else
            rc = renameat2(AT_FDCWD, f->tmp_path, AT_FDCWD, f->path, RENAME_NOREPLACE) == 0
                     ? 0
                     : -errno;
    }
    if (rc != 0) {
        fprintf(stderr, "diskio: could not write %s: %s; the data is left in %s\n", f->path,
                strerror(-rc), f->tmp_path);
        free(f->tmp_path);
        f->tmp_path = NULL;
        return -1;
    }
    free(f->tmp_path);
    f->tmp_path = NULL;
    return 0;
}

/* With several runs each gets its own trace: trace.csv becomes
 * trace.fsync-8192.csv (the mode and block size before the extension),
 * and trace.fsync-8192-r2.csv for a run's second repetition. */
char *trace_name(const char *path, bool several, enum diskio_mode mode, uint64_t bs,
                 unsigned repetition)
{
    size_t len = strlen(path) + 64;
    char *name = malloc(len);
    if (!name)
        return NULL;
    if (!several) {
        snprintf(name, len, "%s", path);
        return name;
    }
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
        dot = path + strlen(path);
    char rep[16] = "";
    if (repetition)
        snprintf(rep, sizeof(rep), "-r%u", repetition);
    snprintf(name, len, "%.*s.%s-%llu%s%s", (int)(dot - path), path, diskio_mode_name(mode),
             (unsigned long long)bs, rep, dot);
    return name;
}
