/* SPDX-License-Identifier: MIT */
/* Internals shared by the library's units.  Not installed. */
#ifndef DISKIO_INTERNAL_H
#define DISKIO_INTERNAL_H

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
};
/* Make sure the file holds at least size written bytes. */
/* Fill the file to size bytes with block (NULL: random data of its own) in
 * pieces of block_len, then fsync; -DISKIO_E_INTERRUPTED when stop rises. */
int target_fill(struct diskio_target *t, uint64_t size, const unsigned char *block,
                size_t block_len, const volatile sig_atomic_t *stop) DISKIO_HIDDEN;

/* ---- run ---- */

/* Summary statistics every emitter prints, in the same order. */
#define SUMMARY_PCTS 5
extern const double summary_pcts[SUMMARY_PCTS] DISKIO_HIDDEN;
extern const char *const summary_pct_keys[SUMMARY_PCTS] DISKIO_HIDDEN;

/* One part's figures in one repetition (a histogram reduced to what the
 * emitters print, so a run of many repetitions stays small). */
struct part_summary {
    bool present;
    uint64_t count, min_ns, max_ns;
    double mean_ns, stddev_ns;
    uint64_t pct_ns[SUMMARY_PCTS];
};
struct run_repetition {
    uint64_t ops, bytes, duration_ns, start_ns;
    bool complete;
    struct part_summary parts[DISKIO_PART_COUNT];
};

struct diskio_run {
    struct diskio_run_info info;
    char *name_owned; /* custom runs */
    const char *open_flags_text;
    struct diskio_hist *hist[DISKIO_PART_COUNT];
    struct run_repetition *reps; /* NULL until the first diskio_run_merge() */
    size_t nreps;
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

/* Strings in the output (emit_string.c).  utf8_decode: the code point of
 * the UTF-8 sequence at s (NUL-terminated) and its length in *len, or -1
 * for an ill-formed one with its maximal subpart (at least 1 byte) in
 * *len.  display_unsafe: cp is a control character (C0, DEL, C1), U+2028,
 * U+2029 or a bidirectional formatting character, which no output shows
 * as it is.  display_write: s for a terminal or a CSV cell; printable
 * UTF-8 as it is, every byte of an ill-formed sequence or an unsafe
 * character as \xHH, '"' doubled when csv; returns the bytes written. */
int32_t utf8_decode(const unsigned char *s, size_t *len) DISKIO_HIDDEN;
bool display_unsafe(int32_t cp) DISKIO_HIDDEN;
size_t display_write(FILE *out, const char *s, bool csv) DISKIO_HIDDEN;

int emit_json(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;
int emit_csv(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;
int emit_text(const struct diskio_result *res, FILE *out) DISKIO_HIDDEN;

#endif
