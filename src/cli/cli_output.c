/* SPDX-License-Identifier: MIT */
/*
 * diskio's output files (result and traces): written where no reader can
 * see them and given their name only when complete, so that no reader
 * ever sees half a file, and an existing file is never replaced without
 * --force.
 *
 * Where the filesystem has O_TMPFILE the file is written without any
 * name, in its final directory, and linked in when whole (linkat() fails
 * rather than replace): a crash, SIGKILL or a failed write leaves
 * nothing behind, there is no temporary name anyone could plant or
 * diskio could remove by mistake, and no moment with two names.
 * Elsewhere (sshfs and other FUSE filesystems, NFS) it is written as
 * PATH.tmp.PID and renamed into place.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_msg.h"
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
        cli_msg("%s already exists; choose another name%s", path,
                S_ISREG(st.st_mode) ? " or add --force to replace it" : "");
        return false;
    }
    return true;
}

/* An unnamed file in path's directory (O_TMPFILE), or -1 when the
 * filesystem (or kernel) has none, or when PATH.tmp.PID would be too
 * long a name there (it is the name a result is kept under when path
 * cannot be had, and the one --force renames from): the caller then uses
 * the named temporary, which also reports a directory that is missing or
 * not writable, or the name that is too long. */
static int open_unnamed(const char *path)
{
#ifdef O_TMPFILE
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = !slash          ? strdup(".")
                : slash == path ? strdup("/")
                                : strndup(path, (size_t)(slash - path));
    if (!dir)
        return -1;
    char suffix[32];
    int suffix_len = snprintf(suffix, sizeof(suffix), ".tmp.%ld", (long)getpid());
    long name_max = pathconf(dir, _PC_NAME_MAX);
    int fd = -1;
    if (name_max <= 0 || strlen(base) + (size_t)suffix_len <= (size_t)name_max)
        fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    free(dir);
    return fd;
#else
    (void)path;
    return -1;
#endif
}

int out_file_open(struct out_file *f, const char *path, bool force)
{
    f->path = path;
    f->tmp_path = NULL;
    if (!out_file_allowed(path, force))
        return -1;
    int unnamed = open_unnamed(path);
    if (unnamed >= 0) {
        f->stream = fdopen(unnamed, "w");
        if (f->stream)
            return 0;
        close(unnamed);
    }
    size_t len = strlen(path) + 32;
    f->tmp_path = malloc(len);
    if (!f->tmp_path) {
        cli_msg("out of memory");
        return -1;
    }
    snprintf(f->tmp_path, len, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(f->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        /* name the user's path, not the temporary one beside it */
        int err = errno;
        if (err == EEXIST)
            cli_msg("cannot create %s: its temporary name %s is taken by a file diskio did not "
                    "make; remove it if it is not needed",
                    path, f->tmp_path);
        else
            cli_msg("cannot create %s: %s; %s", path, strerror(err),
                    err == ENAMETOOLONG
                        ? "choose a shorter name (diskio adds .tmp.PID to it while writing it)"
                        : "check that its directory exists and is writable");
        free(f->tmp_path);
        f->tmp_path = NULL;
        return -1;
    }
    f->stream = fdopen(fd, "w");
    if (!f->stream) {
        cli_msg("cannot write %s: %s", path, strerror(errno));
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

const char *out_write_hint(int err)
{
    switch (err) {
    case ENOSPC: return "free some space on its filesystem, or write it elsewhere";
    case EDQUOT: return "the disk quota is used up: free some space, or write it elsewhere";
    case EFBIG: return "it would pass the file size limit (ulimit -f): raise the limit";
    case EROFS: return "its filesystem is read-only: write it elsewhere";
    case EIO: return "its device reported an error: see the kernel log (dmesg)";
    default: return "check its filesystem";
    }
}

/* Give the unnamed file fd the name name: linkat() fails with EEXIST
 * rather than replace anything.  0 or -errno. */
static int link_unnamed(int fd, const char *name)
{
    char proc[64];
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    if (errno != ENOENT)
        return -errno;
    /* no /proc: the same by descriptor (needs CAP_DAC_READ_SEARCH) */
    return linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0 ? 0 : -errno;
}

/* Put tmp in place as path: never over an existing path without force.
 * Returns 0 or -errno; *no_link says that the filesystem supports neither
 * way of doing it without replacing. */
static int put_in_place(const char *tmp, const char *path, bool force, bool *no_link)
{
    *no_link = false;
    if (force)
        return rename(tmp, path) == 0 ? 0 : -errno;
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
        return -errno;
    /* No RENAME_NOREPLACE here (sshfs and other FUSE filesystems answer
     * EINVAL): a hard link, which fails with EEXIST rather than replace
     * an existing name, then the temporary name removed. */
    if (link(tmp, path) != 0) {
        int err = errno;
        *no_link = err == EPERM || err == ENOSYS || err == EOPNOTSUPP;
        return -err;
    }
    if (unlink(tmp) != 0)
        cli_msg("%s is in place, but its temporary name %s could not be removed: %s; remove it",
                path, tmp, strerror(errno));
    return 0;
}

/* out_file_commit() for a file written without a name (O_TMPFILE); rc
 * is what writing and syncing it came to.  Closing it without a link
 * releases it: nothing is left under any name. */
static enum out_saved commit_unnamed(struct out_file *f, bool force, int rc)
{
    const int fd = fileno(f->stream);
    char kept[PATH_MAX + 32];
    snprintf(kept, sizeof(kept), "%s.tmp.%ld", f->path, (long)getpid());
    enum out_saved saved = OUT_SAVED;
    if (rc != 0) {
        cli_msg("could not write %s: %s; %s. Nothing was left under that name or a temporary one.",
                f->path, strerror(-rc), out_write_hint(-rc));
        saved = OUT_LOST;
    } else if (force) {
        /* replace path in one step: linked under the kept name, then
         * renamed over it */
        if ((rc = link_unnamed(fd, kept)) < 0) {
            cli_msg("could not give %s its name: %s; nothing was saved", f->path, strerror(-rc));
            saved = OUT_LOST;
        } else if (rename(kept, f->path) != 0) {
            cli_msg("could not rename %s to %s: %s; the complete file is %s: rename it yourself",
                    kept, f->path, strerror(errno), kept);
            saved = OUT_KEPT;
        }
    } else if ((rc = link_unnamed(fd, f->path)) == -EEXIST) {
        if (link_unnamed(fd, kept) == 0) {
            cli_msg("%s appeared during the run and was left alone; the complete file is %s: "
                    "rename it yourself, or add --force next time to replace it",
                    f->path, kept);
            saved = OUT_KEPT;
        } else {
            cli_msg("%s appeared during the run and was left alone, and %s is taken too; nothing "
                    "was saved under either name",
                    f->path, kept);
            saved = OUT_LOST;
        }
    } else if (rc < 0) {
        cli_msg("could not give %s its name: %s; nothing was saved", f->path, strerror(-rc));
        saved = OUT_LOST;
    }
    fclose(f->stream);
    f->stream = NULL;
    return saved;
}

/* Flush, make durable and put in place.  A file not written whole is
 * removed: nothing truncated is ever left, under its name or a temporary
 * one.  A whole file that cannot be put in place stays under its
 * temporary name, which the message gives. */
enum out_saved out_file_commit(struct out_file *f, bool force, int write_error)
{
    if (!f->stream)
        return OUT_SAVED;
    int rc = write_error;
    if (fflush(f->stream) != 0 && rc == 0)
        rc = -errno;
    if (ferror(f->stream) && rc == 0)
        rc = -EIO;
    /* a signal during the sync (SIGWINCH, a profiler's timer) is no
     * reason to lose the result */
    while (rc == 0 && fsync(fileno(f->stream)) != 0)
        if (errno != EINTR)
            rc = -errno;
    if (!f->tmp_path)
        return commit_unnamed(f, force, rc);
    if (fclose(f->stream) != 0 && rc == 0)
        rc = -errno;
    f->stream = NULL;
    if (rc != 0) {
        cli_msg("could not write %s: %s; %s. Nothing was left under that name or a temporary one.",
                f->path, strerror(-rc), out_write_hint(-rc));
        out_file_discard(f);
        return OUT_LOST;
    }

    pending_tmp[f->slot] = NULL;
    bool no_link;
    rc = put_in_place(f->tmp_path, f->path, force, &no_link);
    enum out_saved saved = OUT_SAVED;
    struct stat st;
    if (rc == 0) {
        saved = OUT_SAVED;
    } else if (lstat(f->tmp_path, &st) != 0) {
        cli_msg(
            "could not put %s in place: %s, and its temporary file %s has gone; nothing was saved",
            f->path, strerror(-rc), f->tmp_path);
        saved = OUT_LOST;
    } else if (rc == -EEXIST) {
        cli_msg("%s appeared during the run and was left alone; the complete file is %s: rename it "
                "yourself, or add --force next time to replace it",
                f->path, f->tmp_path);
        saved = OUT_KEPT;
    } else if (no_link) {
        cli_msg("cannot put %s in place: its filesystem supports neither renaming without "
                "replacing (RENAME_NOREPLACE) nor hard links (%s); the complete file is %s: rename "
                "it yourself, or add --force, which renames over an existing file",
                f->path, strerror(-rc), f->tmp_path);
        saved = OUT_KEPT;
    } else {
        cli_msg("could not rename %s to %s: %s; the complete file is %s: rename it yourself",
                f->tmp_path, f->path, strerror(-rc), f->tmp_path);
        saved = OUT_KEPT;
    }
    free(f->tmp_path);
    f->tmp_path = NULL;
    return saved;
}

/* The directory holding path, and its last component. */
static bool dir_of(const char *path, struct stat *dir, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    char *name = !slash          ? strdup(".")
                 : slash == path ? strdup("/")
                                 : strndup(path, (size_t)(slash - path));
    if (!name)
        return false;
    bool found = stat(name, dir) == 0;
    free(name);
    return found;
}

bool out_same_file(const char *a, const char *b)
{
    struct stat dir_a, dir_b;
    const char *base_a, *base_b;
    if (dir_of(a, &dir_a, &base_a) && dir_of(b, &dir_b, &base_b))
        return dir_a.st_dev == dir_b.st_dev && dir_a.st_ino == dir_b.st_ino &&
               strcmp(base_a, base_b) == 0;
    /* a missing directory: the names are refused when opened anyway */
    return strcmp(a, b) == 0;
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
