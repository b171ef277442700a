/* SPDX-License-Identifier: MIT */
/* A progress line on stderr while a run longer than a second measures:
 *
 *   /data: fdatasync 8 KiB, run 2 of 6: 1234 ops, p50 103 us, p99 241 us, 1.2 s, ETA 0.8 s
 *   /data: fdatasync 8 KiB, run 1 of 6: filling 64 MiB… 40%
 *
 * one line, redrawn in place ("\r", erase to the end of the line) and cut
 * to the terminal's width so that it never wraps (a wrapped line could
 * not be redrawn in place).
 *
 * The live p50 and p99 come from a copy of the run's histogram taken
 * while the engine records into it (diskio_hist_copy_live()): the
 * engine's record path is untouched (no lock, no atomic, no extra
 * store), and the copy is approximate — a value recorded during the
 * copy may be counted or not — which a display can live with.  The
 * histogram belongs to the run: progress_run_end() takes the lock the
 * copy is made under before the run is freed or merged. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli_msg.h"
#include "cli_progress.h"

#define TICK_NS 50000000L    /* how often the thread looks */
#define REDRAW_NS 250000000u /* how often it draws */

const char *progress_size(char *buf, size_t size, uint64_t bytes)
{
    if (bytes >= (UINT64_C(1) << 30) && bytes % (UINT64_C(1) << 30) == 0)
        snprintf(buf, size, "%" PRIu64 " GiB", bytes >> 30);
    else if (bytes >= (UINT64_C(1) << 20) && bytes % (UINT64_C(1) << 20) == 0)
        snprintf(buf, size, "%" PRIu64 " MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, size, "%" PRIu64 " KiB", bytes >> 10);
    else if (bytes >= (UINT64_C(1) << 20))
        snprintf(buf, size, "%.1f MiB", (double)bytes / 1048576.0);
    else
        snprintf(buf, size, "%" PRIu64 " B", bytes);
    return buf;
}

/* As the table writes latencies: 812 ns, 2.41 us, 1.23 ms. */
static const char *format_ns(char *buf, size_t size, double ns)
{
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1.0, "ns"}, {1e3, "us"}, {1e6, "ms"}, {1e9, "s"}};
    int u = 0;
    while (u < 3 && ns >= units[u + 1].scale)
        u++;
    double v = ns / units[u].scale;
    snprintf(buf, size, "%.*f %s", u == 0 ? 0 : v < 10 ? 2 : v < 100 ? 1 : 0, v, units[u].unit);
    return buf;
}

/* 0.8 s, 12 s, 3m05s, 1h02m */
static const char *format_duration(char *buf, size_t size, double seconds)
{
    if (seconds < 10)
        snprintf(buf, size, "%.1f s", seconds);
    else if (seconds < 60)
        snprintf(buf, size, "%.0f s", seconds);
    else if (seconds < 3600)
        snprintf(buf, size, "%dm%02ds", (int)(seconds / 60), (int)seconds % 60);
    else
        snprintf(buf, size, "%dh%02dm", (int)(seconds / 3600), (int)(seconds / 60) % 60);
    return buf;
}

/* Characters (not bytes) of UTF-8 text. */
static size_t text_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* The last width characters of s, after "…" when cut. */
static void tail_to_width(char *out, size_t size, const char *s, size_t width)
{
    size_t have = text_width(s);
    if (have <= width) {
        snprintf(out, size, "%s", s);
        return;
    }
    if (width < 2) {
        out[0] = '\0';
        return;
    }
    const char *p = s;
    for (size_t skip = have - (width - 1); *p; p++) {
        if (((unsigned char)*p & 0xc0) != 0x80) {
            if (skip == 0)
                break; /* the first character kept */
            skip--;
        }
    }
    snprintf(out, size, "\u2026%s", p);
}

/* The first width characters of s. */
static void cut_to_width(char *s, size_t width)
{
    size_t n = 0;
    for (char *p = s; *p; p++) {
        if (((unsigned char)*p & 0xc0) != 0x80 && n++ == width) {
            *p = '\0';
            return;
        }
    }
}

static size_t terminal_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* What the run has done: the fill, or the ops with live percentiles,
 * elapsed time and ETA.  Under p->lock. */
static void describe(struct progress *p, struct diskio_hist *copy, uint64_t now, char *buf,
                     size_t size, char *tight, size_t tight_size)
{
    tight[0] = '\0';
    uint64_t filled = p->filled, total = p->fill_total;
    const struct diskio_hist *live = p->live;
    if (p->step) {
        char sz[32];
        snprintf(buf, size, "%s of %s written, %.0f%%", progress_size(sz, sizeof(sz), filled),
                 progress_size(tight, tight_size, total),
                 total ? 100.0 * (double)filled / (double)total : 0.0);
        tight[0] = '\0';
        return;
    }
    if (!live && filled > 0 && filled < total) {
        /* the fill is its own step, not the run's ops */
        char sz[32];
        snprintf(buf, size, "filling %s\u2026 %.0f%%", progress_size(sz, sizeof(sz), total),
                 100.0 * (double)filled / (double)total);
        return;
    }
    uint64_t ops = p->ops;
    if (!live && ops == 0) {
        char sz[32];
        if (p->measure_start_ns)
            snprintf(buf, size, "finishing");
        else if (filled > 0 && filled >= total)
            /* the fill's fsync, then the warmup */
            snprintf(buf, size, "filled %s, syncing", progress_size(sz, sizeof(sz), total));
        else
            snprintf(buf, size, "warming up");
        return;
    }
    /* several jobs publish no histogram (theirs are merged and freed
     * inside the run): their ops, elapsed time and ETA without p50/p99 */
    if (!p->measure_start_ns)
        p->measure_start_ns = now;
    double elapsed = (double)(now - p->measure_start_ns) / 1e9;
    size_t n = (size_t)snprintf(buf, size, "%" PRIu64 " ops", ops);
    if (copy && live) {
        diskio_hist_copy_live(copy, live);
        if (diskio_hist_count(copy) > 0) {
            static const double pcts[] = {50.0, 99.0};
            uint64_t v[2];
            char a[32], b[32];
            diskio_hist_percentiles(copy, pcts, v, 2);
            n += (size_t)snprintf(buf + n, size - n, ", p50 %s, p99 %s",
                                  format_ns(a, sizeof(a), (double)v[0]),
                                  format_ns(b, sizeof(b), (double)v[1]));
        }
    }
    /* the end comes at runtime or at count (at the rate so far),
     * whichever is first */
    bool known = false;
    double eta = 0;
    if (p->runtime_ns) {
        eta = (double)p->runtime_ns / 1e9 - elapsed;
        known = true;
    }
    if (p->count && ops > 0 && elapsed > 0) {
        double by_count = (double)(p->count > ops ? p->count - ops : 0) / ((double)ops / elapsed);
        if (!known || by_count < eta)
            eta = by_count;
        known = true;
    }
    /* tight: the same without the elapsed time, for a narrow terminal */
    snprintf(tight, tight_size, "%.*s", (int)(n < size ? n : size - 1), buf);
    if (n < size) {
        char e[32];
        n += (size_t)snprintf(buf + n, size - n, ", %s", format_duration(e, sizeof(e), elapsed));
    }
    if (known) {
        char r[32];
        format_duration(r, sizeof(r), eta > 0 ? eta : 0);
        size_t t = strlen(tight);
        snprintf(tight + t, tight_size - t, ", ETA %s", r);
        if (n < size)
            snprintf(buf + n, size - n, ", ETA %s", r);
    }
}

static void draw(struct progress *p, struct diskio_hist *copy, uint64_t now)
{
    char state[160], tight[160], line[1400];
    describe(p, copy, now, state, sizeof(state), tight, sizeof(tight));
    char body[320];
    if (p->step)
        snprintf(body, sizeof(body), "%s: %s", p->what, state);
    else
        snprintf(body, sizeof(body), "%s, run %u of %u: %s", p->what, p->run, p->runs, state);
    /* the figures come first: the target gets what is left of the width
     * (its end, after "…"), or is left out, and then the elapsed time */
    size_t width = terminal_width() - 1, used = text_width(body) + 2;
    if (used + 10 <= width) {
        char where[1200];
        tail_to_width(where, sizeof(where), p->where, width - used);
        snprintf(line, sizeof(line), "%s: %s", where, body);
    } else if (used - 2 <= width || !tight[0]) {
        snprintf(line, sizeof(line), "%s", body);
    } else {
        snprintf(line, sizeof(line), "%s, run %u of %u: %s", p->what, p->run, p->runs, tight);
    }
    cut_to_width(line, width);
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    p->printed = true;
}

void *progress_main(void *arg)
{
    struct progress *p = arg;
    struct diskio_hist *copy = NULL;
    if (diskio_hist_new(&copy) != 0)
        copy = NULL; /* no live percentiles, the rest still shows */
    uint64_t last_draw = 0;
    while (!p->done) {
        struct timespec pause = {0, TICK_NS};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&p->lock);
        uint64_t now = diskio_now_ns();
        if (p->active && !p->done) {
            if ((p->live || p->ops > 0) && !p->measure_start_ns)
                p->measure_start_ns = now;
            if (now - p->run_start_ns >= 1000000000u && now - last_draw >= REDRAW_NS) {
                draw(p, copy, now);
                last_draw = now;
            }
        }
        pthread_mutex_unlock(&p->lock);
    }
    diskio_hist_free(copy);
    return NULL;
}

static void clear_line(struct progress *p)
{
    if (p->printed) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->printed = false;
    }
}

int progress_start(struct progress *p, const char *target)
{
    int rc = pthread_mutex_init(&p->lock, NULL);
    if (rc != 0)
        return rc;
    p->target = target;
    /* shown by the one rule for untrusted text (cli_msg.h); a very long
     * path: its end, which the line shows (escaped, a byte takes up to 4) */
    size_t len = strlen(target);
    (void)display_escape(p->where, sizeof(p->where), len > 250 ? target + len - 250 : target);
    rc = pthread_create(&p->thread, NULL, progress_main, p);
    if (rc != 0) {
        pthread_mutex_destroy(&p->lock);
        return rc;
    }
    p->running = true;
    return 0;
}

void progress_run_start(struct progress *p, const struct diskio_config *cfg, unsigned run,
                        unsigned runs)
{
    if (!p->running)
        return;
    /* as the table's row label reads: "fdatasync/8", "aio qd32 rand" */
    char bs[32], qual[64] = "", pattern[24] = "";
    if (cfg->sync_every > 1)
        snprintf(qual, sizeof(qual), "/%u", cfg->sync_every);
    if (cfg->iodepth > 1 || cfg->batch > 1)
        snprintf(qual, sizeof(qual), cfg->batch > 1 ? " qd%u batch%u" : " qd%u", cfg->iodepth,
                 cfg->batch);
    const struct diskio_pattern_info *info = diskio_pattern_info(cfg->pattern);
    if (info && info->named_in_label)
        snprintf(pattern, sizeof(pattern), " %s", diskio_pattern_name(cfg->pattern));
    char jobs[32] = ""; /* "×4 jobs", "×4 jobs 1 file" */
    if (cfg->jobs > 1)
        snprintf(jobs, sizeof(jobs), " \u00d7%u jobs%s", cfg->jobs,
                 cfg->shared_file ? " 1 file" : "");
    pthread_mutex_lock(&p->lock);
    snprintf(p->what, sizeof(p->what), "%s%s%s%s %s", diskio_mode_name(cfg->mode), qual, pattern,
             jobs, progress_size(bs, sizeof(bs), cfg->block_size));
    p->run = run;
    p->runs = runs;
    p->ops = 0;
    p->filled = 0;
    p->live = NULL;
    p->fill_total = cfg->file_size;
    p->count = cfg->count;
    p->runtime_ns = cfg->runtime_ns;
    p->run_start_ns = diskio_now_ns();
    p->measure_start_ns = 0;
    p->active = true;
    pthread_mutex_unlock(&p->lock);
}

void progress_step_start(struct progress *p, const char *what, uint64_t total)
{
    if (!p->running)
        return;
    pthread_mutex_lock(&p->lock);
    snprintf(p->what, sizeof(p->what), "%s", what);
    p->filled = 0;
    p->fill_total = total;
    p->live = NULL;
    p->ops = 0;
    p->run_start_ns = diskio_now_ns();
    p->measure_start_ns = 0;
    p->step = true;
    p->active = true;
    pthread_mutex_unlock(&p->lock);
}

void progress_run_end(struct progress *p)
{
    if (!p->running)
        return;
    pthread_mutex_lock(&p->lock);
    p->active = false;
    p->step = false;
    p->live = NULL;
    clear_line(p);
    pthread_mutex_unlock(&p->lock);
}

void progress_stop(struct progress *p)
{
    if (!p->running)
        return;
    p->done = true;
    pthread_join(p->thread, NULL);
    clear_line(p);
    pthread_mutex_destroy(&p->lock);
    p->running = false;
}
