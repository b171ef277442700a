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
 *
 * Elsewhere (sshfs and other FUSE filesystems, NFS) it is written under a
 * temporary name, DIR/.NAME.diskio-tmp.PID: hidden, and not ending like
 * a result, so that it is never taken for one.  It stays open, and it is
 * published by its descriptor, never by its name: linkat() from the
 * descriptor to NAME (which fails rather than replace), then the
 * temporary name removed only while it still refers to diskio's own
 * file.  Whoever swaps the temporary name for a file or symlink of their
 * own during the run gets nothing published: the link is made to the
 * inode diskio wrote.  A SIGKILL between the link and the removal leaves
 * the temporary name beside the result; the next run writing NAME names
 * it as a leftover (out_report_leftovers()).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_msg.h"
#include "cli_output.h"

#define TMP_MARK ".diskio-tmp."

/* temporary files being written, for a second signal to remove: each
 * only while its name still refers to diskio's file */
static const char *volatile pending_tmp[OUT_FILE_SLOTS];
static volatile dev_t pending_dev[OUT_FILE_SLOTS];
static volatile ino_t pending_ino[OUT_FILE_SLOTS];

/* Whether name is the file dev/ino (never following a symlink). */
static bool name_is(const char *name, dev_t dev, ino_t ino)
{
    struct stat st;
    return fstatat(AT_FDCWD, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == dev &&
           st.st_ino == ino;
}

void out_file_unlink_pending(void)
{
    for (int i = 0; i < OUT_FILE_SLOTS; i++) {
        const char *name = pending_tmp[i];
        if (name && name_is(name, pending_dev[i], pending_ino[i]))
            unlink(name);
    }
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

/* The directory of path ("." or "/" included), malloc()ed, and its last
 * component in *base. */
static char *dir_name(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    return !slash          ? strdup(".")
           : slash == path ? strdup("/")
                           : strndup(path, (size_t)(slash - path));
}

/* The temporary name of path: DIR/.NAME.diskio-tmp.PID; malloc()ed. */
static char *temp_name(const char *path)
{
    const char *base;
    char *dir = dir_name(path, &base);
    if (!dir)
        return NULL;
    size_t len = strlen(path) + 64;
    char *name = malloc(len);
    if (name)
        snprintf(name, len, "%s/.%s" TMP_MARK "%ld", dir, base, (long)getpid());
    free(dir);
    return name;
}

/* An unnamed file in path's directory (O_TMPFILE), or -1 when the
 * filesystem (or kernel) has none, or when the temporary name would be
 * too long there (it is the name a result is kept under when path
 * cannot be had, and the one --force renames from): the caller then uses
 * the named temporary, which also reports a directory that is missing or
 * not writable, or the name that is too long. */
static int open_unnamed(const char *path)
{
#ifdef O_TMPFILE
    const char *base;
    char *dir = dir_name(path, &base);
    if (!dir)
        return -1;
    char suffix[48];
    int suffix_len = snprintf(suffix, sizeof(suffix), "." TMP_MARK "%ld", (long)getpid());
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

/* Remember which inode f is: the temporary name is removed, and the
 * published name trusted, only while they refer to it. */
static int remember(struct out_file *f, int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -errno;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    return 0;
}

/* The directory an output file goes in, created with its missing parents
 * (mode 0777 less the umask) as mkdir -p does: the analysis commands
 * create their output directories the same way (outputs.py), so a result
 * can be written into a new directory by either.  A component that
 * exists and is not a directory (or a symlink to one) is refused.  0, or
 * -1 with a message naming the path given. */
static int make_output_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    char *dir = strndup(path, (size_t)(slash - path));
    if (!dir) {
        cli_msg("out of memory");
        return -1;
    }
    int rc = 0;
    /* each prefix ending before a '/', then the whole directory */
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        struct stat st;
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            cli_msg("cannot create %s: cannot create the directory %s: %s; check the path and "
                    "the permissions of its parent",
                    path, dir, strerror(errno));
            rc = -1;
        } else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            cli_msg("cannot create %s: %s is not a directory; give a file name in a directory",
                    path, dir);
            rc = -1;
        }
        *p = saved;
        if (rc != 0 || saved == '\0')
            break;
    }
    free(dir);
    return rc;
}

int out_file_open(struct out_file *f, const char *path, bool force)
{
    f->path = path;
    f->tmp_path = NULL;
    if (!out_file_allowed(path, force) || make_output_dir(path) != 0)
        return -1;
    int unnamed = open_unnamed(path);
    if (unnamed >= 0) {
        f->stream = remember(f, unnamed) == 0 ? fdopen(unnamed, "w") : NULL;
        if (f->stream)
            return 0;
        close(unnamed);
    }
    f->tmp_path = temp_name(path);
    if (!f->tmp_path) {
        cli_msg("out of memory");
        return -1;
    }
    int fd = open(f->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        /* name the user's path, and the temporary beside it only when it
         * is the one in the way */
        int err = errno;
        if (err == EEXIST)
            cli_msg("cannot create %s: its temporary name %s is taken by a file diskio did not "
                    "make; remove it if it is not needed",
                    path, f->tmp_path);
        else
            cli_msg("cannot create %s: %s; %s", path, strerror(err),
                    err == ENAMETOOLONG
                        ? "choose a shorter name (diskio writes it first as .NAME" TMP_MARK
                          "PID beside it, 20 bytes or so longer)"
                        : "check that its directory exists and is writable");
        free(f->tmp_path);
        f->tmp_path = NULL;
        return -1;
    }
    f->stream = remember(f, fd) == 0 ? fdopen(fd, "w") : NULL;
    if (!f->stream) {
        cli_msg("cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(f->tmp_path);
        free(f->tmp_path);
        f->tmp_path = NULL;
        return -1;
    }
    pending_dev[f->slot] = f->dev;
    pending_ino[f->slot] = f->ino;
    pending_tmp[f->slot] = f->tmp_path;
    return 0;
}

/* Remove f's temporary name if it is still diskio's file: true when it
 * was, or is already gone by diskio's own hand. */
static bool remove_temp(struct out_file *f)
{
    pending_tmp[f->slot] = NULL;
    if (!f->tmp_path)
        return true;
    bool ours = name_is(f->tmp_path, f->dev, f->ino);
    if (ours)
        unlink(f->tmp_path);
    free(f->tmp_path);
    f->tmp_path = NULL;
    return ours;
}

void out_file_discard(struct out_file *f)
{
    if (f->stream) {
        fclose(f->stream);
        f->stream = NULL;
    }
    (void)remove_temp(f);
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

/* Give the file open at fd (named or not) the name name: linkat() fails
 * with EEXIST rather than replace anything, and links the inode itself,
 * whatever is at its other names by now.  By descriptor where diskio may
 * (CAP_DAC_READ_SEARCH), else through /proc/self/fd.  0 or -errno. */
static int link_by_fd(int fd, const char *name)
{
    if (linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0)
        return 0;
    if (errno != ENOENT)
        return -errno;
    char proc[64];
    snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 ? 0 : -errno;
}

/* The errors of a filesystem without hard links. */
static bool no_hard_links(int rc)
{
    return rc == -EPERM || rc == -ENOSYS || rc == -EOPNOTSUPP;
}

/* out_file_commit() for a file written without a name (O_TMPFILE); rc
 * is what writing and syncing it came to.  Closing it without a link
 * releases it: nothing is left under any name. */
static enum out_saved commit_unnamed(struct out_file *f, bool force, int rc)
{
    const int fd = fileno(f->stream);
    enum out_saved saved = OUT_SAVED;
    char *kept = force && rc == 0 ? temp_name(f->path) : NULL;
    if (rc != 0) {
        cli_msg("could not write %s: %s; %s. Nothing was left under that name or a "
                "temporary one.",
                f->path, strerror(-rc), out_write_hint(-rc));
        saved = OUT_LOST;
    } else if (force && !kept) {
        cli_msg("out of memory; %s was not saved", f->path);
        saved = OUT_LOST;
    } else if (force) {
        /* replace path in one step: linked under the temporary name, then
         * renamed over it (while that name is still diskio's file) */
        if ((rc = link_by_fd(fd, kept)) == -EEXIST) {
            cli_msg("could not replace %s: its temporary name %s is taken by a file diskio did "
                    "not make, which was left alone; nothing was saved under either name",
                    f->path, kept);
            saved = OUT_LOST;
        } else if (rc < 0) {
            cli_msg("could not give %s its name: %s (linking it in as %s); nothing was saved",
                    f->path, strerror(-rc), kept);
            saved = OUT_LOST;
        } else if (!name_is(kept, f->dev, f->ino)) {
            cli_msg("could not replace %s: its temporary name %s was replaced by another program "
                    "at the moment diskio linked it in (left alone); nothing was saved",
                    f->path, kept);
            saved = OUT_LOST;
        } else if (rename(kept, f->path) != 0) {
            cli_msg("could not rename %s to %s: %s; the complete file is %s: rename it yourself",
                    kept, f->path, strerror(errno), kept);
            saved = OUT_KEPT;
        }
    } else if ((rc = link_by_fd(fd, f->path)) == -EEXIST) {
        kept = temp_name(f->path);
        if (kept && link_by_fd(fd, kept) == 0) {
            cli_msg("%s appeared during the run and was left alone; the complete file is %s: "
                    "rename it yourself, or add --force next time to replace it",
                    f->path, kept);
            saved = OUT_KEPT;
        } else {
            cli_msg("%s appeared during the run and was left alone, and %s is taken too; "
                    "nothing was saved under either name",
                    f->path, kept ? kept : "its temporary name");
            saved = OUT_LOST;
        }
    } else if (rc < 0) {
        cli_msg("could not give %s its name: %s; nothing was saved", f->path, strerror(-rc));
        saved = OUT_LOST;
    }
    free(kept);
    fclose(f->stream);
    f->stream = NULL;
    return saved;
}

/* out_file_commit() for a file written under its temporary name, still
 * open: published by its descriptor (see the top of this file). */
static enum out_saved commit_named(struct out_file *f, bool force)
{
    const int fd = fileno(f->stream);
    const char *tmp = f->tmp_path;
    enum out_saved saved = OUT_KEPT;
    int rc;
    if (force) {
        /* rename() is the only way to replace a name: only from a name
         * that is still diskio's file, and the result checked after */
        if (!name_is(tmp, f->dev, f->ino)) {
            if (link_by_fd(fd, f->path) == 0) {
                saved = OUT_SAVED; /* the name was free after all */
            } else {
                cli_msg("could not put %s in place: its temporary name %s was replaced or "
                        "removed by another program during the run (left alone); nothing was "
                        "saved",
                        f->path, tmp);
                saved = OUT_LOST;
            }
        } else if (rename(tmp, f->path) != 0) {
            cli_msg("could not rename %s to %s: %s; the complete file is %s: rename it yourself",
                    tmp, f->path, strerror(errno), tmp);
        } else if (name_is(f->path, f->dev, f->ino)) {
            saved = OUT_SAVED;
        } else {
            cli_msg("%s is not the file diskio wrote: another program replaced its temporary "
                    "name at the moment diskio put it in place; nothing was saved, check %s",
                    f->path, f->path);
            saved = OUT_LOST;
        }
        pending_tmp[f->slot] = NULL;
        free(f->tmp_path);
        f->tmp_path = NULL;
    } else if ((rc = link_by_fd(fd, f->path)) == 0) {
        saved = OUT_SAVED;
        if (!remove_temp(f))
            cli_msg("warning: %s is in place; its temporary name beside it was replaced by "
                    "another program during the run and was left alone",
                    f->path);
    } else if (rc == -EEXIST && name_is(tmp, f->dev, f->ino)) {
        cli_msg("%s appeared during the run and was left alone; the complete file is %s: "
                "rename it yourself, or add --force next time to replace it",
                f->path, tmp);
    } else if ((no_hard_links(rc) || rc == -ENOENT) && name_is(tmp, f->dev, f->ino)) {
        /* No hard links here (or, ENOENT, no way to link by descriptor:
         * neither CAP_DAC_READ_SEARCH nor /proc): by name, the only way
         * left, from a name checked to be diskio's file a moment before,
         * never replacing. */
        if (renameat2(AT_FDCWD, tmp, AT_FDCWD, f->path, RENAME_NOREPLACE) == 0) {
            saved = OUT_SAVED;
        } else if (errno == EEXIST) {
            cli_msg("%s appeared during the run and was left alone; the complete file is %s: "
                    "rename it yourself, or add --force next time to replace it",
                    f->path, tmp);
        } else if (errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP) {
            cli_msg("cannot put %s in place: its filesystem supports neither renaming without "
                    "replacing (RENAME_NOREPLACE) nor hard links (%s); the complete file is %s: "
                    "rename it yourself, or add --force, which renames over an existing file",
                    f->path, strerror(-rc), tmp);
        } else {
            cli_msg("could not rename %s to %s: %s; the complete file is %s: rename it yourself",
                    tmp, f->path, strerror(errno), tmp);
        }
        if (saved == OUT_SAVED) {
            pending_tmp[f->slot] = NULL;
            free(f->tmp_path);
            f->tmp_path = NULL;
        }
    } else if (!name_is(tmp, f->dev, f->ino)) {
        cli_msg("could not put %s in place: %s, and its temporary name %s was replaced or "
                "removed by another program during the run; nothing was saved",
                f->path, strerror(-rc), tmp);
        saved = OUT_LOST;
    } else {
        cli_msg("could not give %s its name: %s; the complete file is %s: rename it yourself",
                f->path, strerror(-rc), tmp);
    }
    if (saved == OUT_KEPT) {
        /* it stays under the temporary name, which the message gave */
        pending_tmp[f->slot] = NULL;
        free(f->tmp_path);
        f->tmp_path = NULL;
    } else if (saved == OUT_LOST && f->tmp_path) {
        (void)remove_temp(f);
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
    if (rc != 0) {
        cli_msg("could not write %s: %s; %s. Nothing was left under that name or a "
                "temporary one.",
                f->path, strerror(-rc), out_write_hint(-rc));
        out_file_discard(f);
        return OUT_LOST;
    }
    return commit_named(f, force);
}

void out_report_leftovers(const char *path)
{
    const char *base;
    char *dir = dir_name(path, &base);
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        free(dir);
        return;
    }
    struct stat result;
    bool have_result = lstat(path, &result) == 0;
    const size_t base_len = strlen(base), mark_len = strlen(TMP_MARK);
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *n = e->d_name;
        if (n[0] != '.' || strncmp(n + 1, base, base_len) != 0 ||
            strncmp(n + 1 + base_len, TMP_MARK, mark_len) != 0)
            continue;
        const char *digits = n + 1 + base_len + mark_len;
        char *end;
        long pid = strtol(digits, &end, 10);
        if (*digits < '0' || *digits > '9' || *end || pid <= 0 || pid == (long)getpid())
            continue;
        /* a diskio still running writes it now */
        if (kill((pid_t)pid, 0) == 0 || errno == EPERM)
            continue;
        struct stat st;
        bool twin = have_result && fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                    st.st_dev == result.st_dev && st.st_ino == result.st_ino;
        if (twin)
            cli_msg("warning: %s/%s is a second name of %s, left by a diskio (process %ld) that "
                    "was killed as it put the file in place; remove it",
                    dir, n, path, pid);
        else
            cli_msg("warning: %s/%s was left by a diskio (process %ld) that was killed or could "
                    "not put %s in place; it may be incomplete: look at it, then remove it",
                    dir, n, pid, path);
    }
    closedir(d);
    free(dir);
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
    struct stat dir_a, dir_b, file_a, file_b;
    const char *base_a, *base_b;
    /* two names of one existing file (hard links; a symlink is followed,
     * though an output is refused at one anyway) */
    if (stat(a, &file_a) == 0 && stat(b, &file_b) == 0 && file_a.st_dev == file_b.st_dev &&
        file_a.st_ino == file_b.st_ino)
        return true;
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
