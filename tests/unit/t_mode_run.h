/* SPDX-License-Identifier: MIT */
/* Running a mode on a fresh file and reading the blocks back: the helpers
 * check_every_mode, check_run_options, check_target_refusals and
 * check_mode_table share.  Each block a run writes carries a stamp (its
 * intended offset, its op number); t_run() runs a config on a new file in
 * a new directory and hands the file to a check before diskio removes it.
 * The O_DIRECT modes' files go where the filesystem takes O_DIRECT: under
 * the build directory, else the source tree (DISKIO_SRCDIR), else
 * /var/tmp; none taking it fails the case. */
#ifndef T_MODE_RUN_H
#define T_MODE_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>

#include "diskio.h"
#include "t_helpers.h"

#define BS 4096

/* NULL when a fresh directory under parent takes O_DIRECT (as the
 * library opens a target for an O_DIRECT mode), else why not. */
static inline const char *t_refuses_direct(const char *parent)
{
    char *dir = t_mkdtemp_in(parent, "direct");
    if (!dir)
        return strerror(errno);
    struct diskio_target *t;
    int rc = diskio_target_open(dir, BS, 0, &t);
    if (rc == 0) {
        rc = diskio_target_check_mode(t, DISKIO_MODE_DIRECT);
        diskio_target_free(t);
    }
    rmdir(dir);
    free(dir);
    return rc == 0 ? NULL : diskio_strerror(rc);
}

/* Where the O_DIRECT modes' cases make their files: the first of the
 * build directory, the source tree and /var/tmp whose filesystem takes
 * O_DIRECT (a build directory in tmpfs or ramfs may refuse it).  None
 * taking it fails the case, naming each directory and why: those cases
 * are what proves the O_DIRECT modes write what they claim. */
static inline const char *t_direct_parent(void)
{
    static const char *const tried[] = {".", DISKIO_SRCDIR, "/var/tmp"};
    static const char *found;
    char *why = NULL, cwd[PATH_MAX];
    size_t size = 0;
    if (found)
        return found;
    FILE *f = open_memstream(&why, &size);
    ck_assert_ptr_nonnull(f);
    for (size_t i = 0; i < sizeof(tried) / sizeof(tried[0]) && !found; i++) {
        const char *problem = t_refuses_direct(tried[i]);
        if (!problem)
            found = tried[i];
        else
            fprintf(f, "%s%s: %s", i ? "; " : "",
                    i == 0 && getcwd(cwd, sizeof(cwd)) ? cwd : tried[i], problem);
    }
    fclose(f);
    if (found && *why)
        fprintf(stderr, "the O_DIRECT cases run under %s (%s)\n", found, why);
    ck_assert_msg(found != NULL,
                  "no directory tried takes O_DIRECT, so the O_DIRECT modes cannot be tested (%s)",
                  why);
    free(why);
    return found;
}

/* A fresh directory for a run of mode: for an O_DIRECT mode where the
 * filesystem takes it (t_direct_parent()), else under the build
 * directory. */
static inline char *t_mkdtemp_for(enum diskio_mode mode, const char *tag)
{
    if (!diskio_mode_is_direct(mode))
        return t_mkdtemp(tag);
    const char *parent = t_direct_parent();
    char *dir = t_mkdtemp_in(parent, tag);
    ck_assert_msg(dir != NULL, "mkdtemp under %s: %s", parent, strerror(errno));
    return dir;
}

struct stamp {
    uint64_t offset, op;
};

static inline struct stamp t_read_stamp(int fd, uint64_t offset)
{
    struct stamp s = {UINT64_MAX, UINT64_MAX};
    ck_assert_int_eq(pread(fd, &s, sizeof(s), (off_t)offset), (ssize_t)sizeof(s));
    return s;
}

/* Run cfg with the hooks opts (NULL: none) on a new file in a new
 * directory; call check(fd, size) on the file before diskio removes it.
 * Returns the run (caller frees). */
static inline struct diskio_run *t_run_opts(const struct diskio_config *cfg,
                                            const struct diskio_run_options *opts,
                                            void (*check)(const struct diskio_config *, int, off_t))
{
    char *dir = t_mkdtemp_for(cfg->mode, "modes");
    struct diskio_target *t;
    ck_assert_int_eq(diskio_target_open(dir, cfg->file_size, 0, &t), 0);
    struct diskio_run *run = NULL;
    int rc = diskio_run_execute_opts(cfg, opts, t, &run);
    ck_assert_msg(rc == 0, "%s: %s", diskio_mode_name(cfg->mode), diskio_strerror(rc));
    ck_assert_ptr_nonnull(run);
    int fd = open(diskio_target_path(t), O_RDONLY);
    ck_assert_int_ge(fd, 0);
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    if (check)
        check(cfg, fd, st.st_size);
    close(fd);
    diskio_target_free(t);
    t_rmdir_empty(dir); /* the test file is gone */
    return run;
}

/* t_run_opts() with no hooks */
static inline struct diskio_run *t_run(const struct diskio_config *cfg,
                                       void (*check)(const struct diskio_config *, int, off_t))
{
    return t_run_opts(cfg, NULL, check);
}

/* seq over a file of B blocks with N ops: block k holds the last op that
 * hit it, op = k + B * floor((N - 1 - k) / B). */
static inline void check_seq_stamps(const struct diskio_config *cfg, int fd, off_t size)
{
    uint64_t blocks = cfg->file_size / cfg->block_size;
    uint64_t ops = cfg->count + cfg->warmup;
    ck_assert_uint_eq((uint64_t)size, cfg->file_size);
    for (uint64_t k = 0; k < blocks && k < ops; k++) {
        struct stamp s = t_read_stamp(fd, k * cfg->block_size);
        ck_assert_uint_eq(s.offset, k * cfg->block_size);
        uint64_t last = k + blocks * ((ops - 1 - k) / blocks);
        /* warmup ops and measured ops are numbered from 0 each */
        uint64_t expected = last >= cfg->warmup ? last - cfg->warmup : last;
        ck_assert_msg(s.op == expected, "%s: block %llu has op %llu, expected %llu",
                      diskio_mode_name(cfg->mode), (unsigned long long)k, (unsigned long long)s.op,
                      (unsigned long long)expected);
    }
}

static inline void t_config(struct diskio_config *cfg, enum diskio_mode mode)
{
    diskio_config_init(cfg);
    cfg->mode = mode;
    cfg->block_size = BS;
    cfg->file_size = 16 * BS;
    cfg->count = 40; /* wraps the 16-block file twice and a half */
    cfg->warmup = 0;
}

#endif
