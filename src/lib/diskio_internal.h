/* SPDX-License-Identifier: MIT */
/* Internals shared by the library's units.  Not installed. */
#ifndef DISKIO_INTERNAL_H
#define DISKIO_INTERNAL_H

#include <sys/types.h>
#include <time.h>

#include "diskio.h"
#include "histogram.h"

#define DISKIO_ALWAYS_INLINE inline __attribute__((always_inline))
#define DISKIO_HIDDEN __attribute__((visibility("hidden")))

/* O_DIRECT needs the buffer, the offset and the length aligned to the
 * device's logical block size; a page (4096) satisfies every device Linux
 * supports, so buffers are always page-aligned. */
#define DISKIO_BUFFER_ALIGN 4096

static DISKIO_ALWAYS_INLINE uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* ---- target ---- */
struct diskio_target {
    char *path;
    char *dir;
    int dir_fd;   /* the directory holding a created file, or -1 */
    char *name;   /* the created file's name within dir, or NULL */
    bool created; /* diskio created the file and removes it */
    bool is_device;
    uint64_t size; /* bytes preallocated, or the device size */
    /*
     * The file or device itself, open from the moment it was created or
     * checked until diskio_target_free(): O_WRONLY for a file (the fill
     * writes through it), O_WRONLY|O_EXCL for a device (which keeps it
     * from being mounted meanwhile).  Every other open goes through
     * /proc/self/fd/<fd>, which reaches this inode whatever happens to
     * the name; dev and ino are what every open and the unlink compare.
     */
    int fd;
    dev_t dev;
    ino_t ino;
};
/* Another open file description of the target with flags (O_WRONLY and
 * the mode's flags): the fd, or -errno, or -DISKIO_E_TARGET_CHANGED when
 * only the path could be used (no /proc) and it leads elsewhere. */
int target_reopen(const struct diskio_target *t, int flags) DISKIO_HIDDEN;
/* Make sure the file holds at least size written bytes. */
/* Fill the file to size bytes with block (NULL: random data of its own) in
 * pieces of block_len, then fsync; -DISKIO_E_INTERRUPTED when stop rises. */
int target_fill(struct diskio_target *t, uint64_t size, const unsigned char *block,
                size_t block_len, const volatile sig_atomic_t *stop) DISKIO_HIDDEN;

/* ---- run ---- */
struct diskio_run {
    struct diskio_run_info info;
    char *name_owned; /* custom runs */
    const char *open_flags_text;
    struct diskio_hist *hist[DISKIO_PART_COUNT];
};
int run_alloc(const char *name, bool parts, bool service, struct diskio_run **out) DISKIO_HIDDEN;

/* ---- environment probe ---- */
struct env_kv {
    const char *key; /* dotted name */
    char *value;     /* NULL: unknown */
};
struct env;
struct env *env_probe(const char *dir) DISKIO_HIDDEN;
const char *env_get(const struct env *env, const char *key) DISKIO_HIDDEN;
int64_t env_get_int(const struct env *env, const char *key) DISKIO_HIDDEN; /* -1 unknown */
void env_free(struct env *env) DISKIO_HIDDEN;

/* ---- result and emitters ---- */
struct diskio_result {
    char *label;
    char start_time[32];
    struct env *env;
    struct diskio_run **runs;
    size_t nruns, cap;
    bool incomplete;
};

/* Summary statistics every emitter prints, in the same order. */
#define SUMMARY_PCTS 5
extern const double summary_pcts[SUMMARY_PCTS] DISKIO_HIDDEN;
extern const char *const summary_pct_keys[SUMMARY_PCTS] DISKIO_HIDDEN;

int emit_json(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;
int emit_csv(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;
int emit_text(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;

#endif
