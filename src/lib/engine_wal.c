/* SPDX-License-Identifier: MIT */
/*
 * The wal pattern: PostgreSQL's WAL as it is written (PostgreSQL 15's
 * xlog.c: XLogFlush, XLogWrite, issue_xlog_fsync, XLogFileInitInternal,
 * InstallXLogFileSegment; fd.c: durable_rename).
 *
 * Every op is a commit.  Its record (config.wal_bytes, 8-byte aligned)
 * is reserved at the WAL's insert position, which also skips the header
 * at the start of every page (24 bytes; 40 on a segment's first page),
 * and the commit then waits until the WAL is durable up to the record's
 * end.  If nobody is flushing, the committer flushes: it writes every
 * page from the one holding the durable end to the one holding the
 * insert position (everything queued, its own record and whatever other
 * committers reserved meanwhile) in one pwrite per segment, and syncs it
 * the mode's way (fdatasync or fsync after the write; none with O_DSYNC,
 * O_SYNC or O_DIRECT|O_DSYNC, whose write is durable by itself; none at
 * all for async).  The page that is filling is written again by every
 * flush until it is full.  Committers that find a flush under way wait
 * on a condition variable and look again when it ends: WALWriteLock's
 * group commit.  The lock, the wait and the flush are the commit's
 * latency, as PostgreSQL's commit pays them; formatting and allocation
 * are not in it (the pages come from a buffer filled before the run, of
 * which a flush stamps the first 16 bytes it adds).
 *
 * A flush that reaches a segment's end syncs that segment and switches
 * to the next, timed on its own (DISKIO_PART_SWITCH) and inside the
 * commit's latency: the full segment is closed, and the next one is
 * either created (a new file written with zeros, 32 pages per pwritev,
 * fsynced, renamed into place durably: the file fsynced, renamed, fsynced
 * again under its new name, the directory fsynced) or recycled (the
 * oldest segment renamed durably, as a checkpoint recycles it), then
 * opened with the mode's flags.  A segment no longer needed is removed
 * after its commit's clock stopped (PostgreSQL removes them at its
 * checkpoints).
 *
 * The segments are files beside the target, made, renamed and removed
 * by the run through the target's own-file slots (target_aux_*), never
 * over an existing name, and all removed when the run ends.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "engine_loop.h"
#include "engine_slow.h"
#include "gate.h"
#include "pipeline.h"
#include "trace.h"

/* XLogPageHeaderData and XLogLongPageHeaderData (MAXALIGNed) */
#define WAL_SHORT_HEADER 24u
#define WAL_LONG_HEADER 40u
#define WAL_FIRST_SEGMENT 1u
/* PostgreSQL's WAL buffers are at most 16 MiB by default; a flush never
 * needs more, and a segment up to this size maps onto it whole */
#define WAL_BUFFER_MAX (UINT64_C(16) << 20)
/* PG_IOV_MAX: the zero-fill writes this many pages per pwritev */
#define WAL_ZERO_IOV 32
/* the segments need three of the target's own-file slots */
#define WAL_SLOTS 3u
#define WAL_TRACE_HEADER                                                                           \
    "op,start_ns,latency_ns,write_ns,sync_ns,job,record_lsn,record_end_lsn,flush_from_lsn,"        \
    "flush_to_lsn,switch_ns\n"
#define WAL_TRACE_ROWS 1024

struct wal_trace_row {
    uint64_t op, start_ns, latency_ns, write_ns, sync_ns, job, rec_start, rec_end, flush_from,
        flush_to, switch_ns;
};

/* What one flush did, for its committer's trace row. */
struct wal_flush {
    uint64_t write_ns, sync_ns, switch_ns;
    unsigned retired; /* a segment's slot to remove after the commit */
};

struct wal;

/* One committer: its own histogram, counters and trace rows; at a
 * fixed rate its share of the schedule (every njobs-th op, from its
 * index on) and what it saw of it. */
struct wal_job {
    struct wal *w;
    unsigned index;
    struct diskio_hist *total, *warm_total;
    struct pacing pace;
    uint64_t done, end_ns, error_op, fail_ns;
    int error;
    const char *error_during;
    volatile uint64_t progress;
    struct wal_trace_row *rows;
    size_t rows_used;
    pthread_t thread;
    bool started;
};

struct wal {
    const struct diskio_config *cfg;
    const struct mode_ops *ops;
    struct diskio_target *target;
    uint64_t page, segsize;
    int (*sync_fn)(int); /* the mode's sync call after the writes, or NULL */

    /* the WAL's shared state, under lock */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint64_t insert_lsn;  /* the next record goes here */
    uint64_t flushed_lsn; /* durable up to here */
    bool flushing;        /* a committer is writing and syncing */
    bool failed;          /* a flush failed: every committer stops */
    unsigned retired;     /* a finished segment's slot to remove, or 0 */
    unsigned slots_used;  /* bit i: slot_ids[i] holds a segment */
    unsigned slot_ids[WAL_SLOTS];
    /* several committers: started together (gate.h), as jobs are */
    struct start_gate gate;

    /* the flusher's own: only the committer that set flushing touches
     * them (the lock hands them over from one flusher to the next) */
    int fd;             /* the open segment, or -1 */
    uint64_t segno;     /* its number */
    unsigned slot;      /* its slot, or 0 */
    unsigned spare;     /* wal_recycle: the segment to recycle next, or 0 */
    uint64_t last_page; /* the last page written (page number), or UINT64_MAX */
    uint64_t flushes_total;
    unsigned char *buf;
    uint64_t buf_size;
    unsigned char *zeros;                  /* one page of zeros */
    struct diskio_hist *write, *sync, *sw; /* the phase's parts */
    /* the warmup's parts (write, sync, switch), by DISKIO_PART_* */
    struct diskio_hist *warm[DISKIO_PART_COUNT];
    struct diskio_wal_counts counts;
    int error;
    const char *error_during;

    /* trace (config.trace_fd): rows per job, written out under trace_lock */
    pthread_mutex_t trace_lock;
    int trace_error;
    uint64_t trace_origin_ns;
    bool tracing;
    bool single;             /* one committer: its progress is the caller's */
    uint64_t spin_margin_ns; /* a pause spins its last this much */

    const volatile sig_atomic_t *stop;
    volatile uint64_t *progress;
    volatile uint64_t progress_sink; /* progress when the caller wants none */
    const struct wal_job *jobs;      /* the committers (wal_jobs_new) */
    unsigned njobs;
};

/* ---- files ---- */

static void segment_name(const struct wal *w, uint64_t segno, char *out, size_t size)
{
    snprintf(out, size, "%.80s.wal%016" PRIX64, w->target->name, segno);
}

static struct diskio_target *slot_file(const struct wal *w, unsigned slot)
{
    return w->target->job_files[slot];
}

/* The segments' slots are handed out under w->lock (slots_used), so a
 * committer removing a retired segment after its commit and the next
 * flusher never touch the same slot. */
static unsigned slot_take(struct wal *w)
{
    unsigned slot = 0;
    pthread_mutex_lock(&w->lock);
    for (unsigned i = 0; i < WAL_SLOTS && !slot; i++)
        if (!(w->slots_used & (1u << i))) {
            slot = w->slot_ids[i];
            w->slots_used |= 1u << i;
        }
    pthread_mutex_unlock(&w->lock);
    return slot;
}

/* Remove slot's segment and give the slot back. */
static void slot_release(struct wal *w, unsigned slot)
{
    if (w->target->job_files[slot])
        (void)target_aux_remove(w->target, slot);
    pthread_mutex_lock(&w->lock);
    for (unsigned i = 0; i < WAL_SLOTS; i++)
        if (w->slot_ids[i] == slot)
            w->slots_used &= ~(1u << i);
    pthread_mutex_unlock(&w->lock);
}

/* The segment a switch retired, if nobody removed it yet: taken (0:
 * none), for the caller to remove. */
static unsigned retired_take(struct wal *w)
{
    pthread_mutex_lock(&w->lock);
    unsigned slot = w->retired;
    w->retired = 0;
    pthread_mutex_unlock(&w->lock);
    return slot;
}

static int do_sync(int fd, int (*sync_fn)(int))
{
    return sync_fn(fd) == 0 ? 0 : sync_retry(fd, sync_fn);
}

/* fsync_fname(): open, fsync, close. */
static int fsync_file(struct diskio_target *f)
{
    int fd = target_reopen(f, O_WRONLY);
    if (fd < 0)
        return fd;
    int rc = do_sync(fd, fsync);
    close(fd);
    return rc;
}

static int fsync_dir(const struct wal *w)
{
    int fd = openat(w->target->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    int rc = do_sync(fd, fsync);
    close(fd);
    return rc;
}

/* durable_rename(): the file fsynced, renamed, fsynced under its new
 * name, the directory fsynced. */
static int durable_rename(struct wal *w, struct diskio_target *f, uint64_t segno)
{
    char name[TARGET_NAME_MAX];
    segment_name(w, segno, name, sizeof(name));
    int rc = fsync_file(f);
    if (rc == 0)
        rc = target_aux_rename(f, name);
    if (rc == 0)
        rc = fsync_file(f);
    if (rc == 0)
        rc = fsync_dir(w);
    return rc;
}

/* XLogFileInitInternal(): a new file filled with zeros (32 pages per
 * pwritev), fsynced, then installed as segment segno. */
static int segment_create(struct wal *w, unsigned slot, uint64_t segno)
{
    struct diskio_target *f;
    int rc = target_aux_create(w->target, slot, &f);
    if (rc < 0)
        return rc;
    struct iovec iov[WAL_ZERO_IOV];
    for (unsigned i = 0; i < WAL_ZERO_IOV; i++)
        iov[i] = (struct iovec){.iov_base = w->zeros, .iov_len = (size_t)w->page};
    for (uint64_t at = 0; at < w->segsize && rc == 0;) {
        uint64_t pages = (w->segsize - at) / w->page;
        int n = pages < WAL_ZERO_IOV ? (int)pages : WAL_ZERO_IOV;
        ssize_t got = pwritev(f->fd, iov, n, (off_t)at);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            rc = got < 0 ? -errno : -DISKIO_E_SHORT_WRITE;
        else if ((uint64_t)got % w->page != 0)
            rc = -DISKIO_E_SHORT_WRITE;
        else
            at += (uint64_t)got;
    }
    if (rc == 0)
        rc = do_sync(f->fd, fsync);
    if (rc == 0)
        rc = durable_rename(w, f, segno);
    return rc;
}

/* The open segment closed, segment segno made (created or recycled) and
 * opened with the mode's flags.  *retired: a slot no longer needed. */
static int segment_switch(struct wal *w, uint64_t segno, unsigned *retired)
{
    if (w->fd >= 0) {
        /* XLogFileClose(): with O_DIRECT (wal_level minimal) the pages
         * are dropped from the cache too */
        if (w->ops->direct)
            (void)posix_fadvise(w->fd, 0, 0, POSIX_FADV_DONTNEED);
        close(w->fd);
        w->fd = -1;
    }
    unsigned slot;
    int rc;
    if (w->spare) {
        /* recycled: the oldest segment renamed, the full one kept as the
         * next to recycle */
        slot = w->spare;
        rc = durable_rename(w, slot_file(w, slot), segno);
        w->spare = w->slot;
    } else {
        /* a segment retired by an earlier switch still there (segments
         * of a few pages): removed now */
        unsigned old = retired_take(w);
        if (old)
            slot_release(w, old);
        slot = slot_take(w);
        rc = slot ? segment_create(w, slot, segno) : -EBUSY;
        if (w->slot)
            *retired = w->slot;
    }
    w->slot = slot;
    w->segno = segno;
    if (rc == 0) {
        int fd = target_open_for_mode(slot_file(w, slot), w->ops, w->cfg);
        if (fd < 0)
            rc = fd;
        else
            w->fd = fd;
    }
    return rc;
}

/* ---- the WAL ---- */

/* The end of a record of n bytes reserved at lsn: 8-byte aligned, page
 * headers skipped where a page begins; *start: where the record begins
 * (after the header of a page it opens). */
static uint64_t reserve(const struct wal *w, uint64_t lsn, uint64_t n, uint64_t *start)
{
    uint64_t left = (n + 7) & ~UINT64_C(7);
    if (lsn % w->page == 0)
        lsn += lsn % w->segsize == 0 ? WAL_LONG_HEADER : WAL_SHORT_HEADER;
    *start = lsn;
    while (left > 0) {
        if (lsn % w->page == 0)
            lsn += lsn % w->segsize == 0 ? WAL_LONG_HEADER : WAL_SHORT_HEADER;
        uint64_t room = w->page - lsn % w->page;
        uint64_t take = left < room ? left : room;
        lsn += take;
        left -= take;
    }
    return lsn;
}

static int write_range(struct wal *w, uint64_t from, uint64_t to, uint64_t *write_ns)
{
    while (from < to) {
        uint64_t at = (from % w->segsize) % w->buf_size;
        uint64_t len = to - from;
        if (len > w->buf_size - at)
            len = w->buf_size - at; /* XLogWrite too writes up to its buffers' end */
        const uint64_t t0 = now_ns();
        ssize_t n = pwrite(w->fd, w->buf + at, (size_t)len, (off_t)(from % w->segsize));
        if ((uint64_t)n != len)
            n = write_rest(w->fd, w->buf + at, len, from % w->segsize, n);
        const uint64_t t1 = now_ns();
        if (n < 0) {
            w->error_during = "write";
            return (int)n;
        }
        hist_record(w->write, t1 - t0);
        *write_ns += t1 - t0;
        w->counts.writes++;
        from += len;
    }
    return 0;
}

static int sync_segment(struct wal *w, uint64_t *sync_ns)
{
    if (!w->sync_fn)
        return 0;
    const uint64_t t0 = now_ns();
    int rc = do_sync(w->fd, w->sync_fn);
    const uint64_t t1 = now_ns();
    if (rc < 0) {
        w->error_during = "sync";
        return rc;
    }
    hist_record(w->sync, t1 - t0);
    *sync_ns += t1 - t0;
    w->counts.syncs++;
    return 0;
}

/* XLogWrite(): [from, to) made durable, from the page holding from. */
static int flush(struct wal *w, uint64_t from, uint64_t to, struct wal_flush *fl)
{
    w->flushes_total++;
    w->counts.flushes++;
    uint64_t pos = from - from % w->page;
    while (pos < to) {
        const uint64_t segno = pos / w->segsize;
        if (segno != w->segno) {
            const uint64_t t0 = now_ns();
            int rc = segment_switch(w, segno, &fl->retired);
            const uint64_t t1 = now_ns();
            if (rc < 0) {
                w->error_during = "segment";
                return rc;
            }
            hist_record(w->sw, t1 - t0);
            fl->switch_ns += t1 - t0;
            w->counts.segment_switches++;
        }
        const uint64_t seg_end = (segno + 1) * w->segsize;
        uint64_t end = (to + w->page - 1) / w->page * w->page;
        if (end > seg_end)
            end = seg_end;
        /* what this flush adds begins with a stamp: where, and which
         * flush, so every write of a page differs from the last */
        const uint64_t added = from > pos ? from : pos;
        const uint64_t at = (added % w->segsize) % w->buf_size;
        if (added + 16 <= end && at + 16 <= w->buf_size) {
            const uint64_t stamp[2] = {added, w->flushes_total};
            memcpy(w->buf + at, stamp, sizeof(stamp));
        }
        const uint64_t first_page = pos / w->page;
        w->counts.pages += (end - pos) / w->page;
        if (first_page == w->last_page)
            w->counts.page_rewrites++;
        w->last_page = (end - 1) / w->page;
        int rc = write_range(w, pos, end, &fl->write_ns);
        /* issue_xlog_fsync(): a segment finished, or the flush done */
        if (rc == 0)
            rc = sync_segment(w, &fl->sync_ns);
        if (rc < 0)
            return rc;
        pos = end;
    }
    return 0;
}

/* ---- trace ---- */

static void trace_out(struct wal *w, struct wal_job *job)
{
    struct trace_out o = {.fd = w->cfg->trace_fd, .error = &w->trace_error};
    pthread_mutex_lock(&w->trace_lock);
    for (size_t i = 0; i < job->rows_used; i++) {
        const struct wal_trace_row *r = &job->rows[i];
        char line[256];
        int n = snprintf(line, sizeof(line),
                         "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                         ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                         r->op, r->start_ns, r->latency_ns, r->write_ns, r->sync_ns, r->job,
                         r->rec_start, r->rec_end, r->flush_from, r->flush_to, r->switch_ns);
        trace_out_line(&o, line, (size_t)n);
    }
    trace_out_end(&o);
    pthread_mutex_unlock(&w->trace_lock);
    job->rows_used = 0;
}

/* ---- committers ---- */

struct wal_phase {
    uint64_t limit, deadline_ns;
    bool measured;
};

static void job_fail(struct wal_job *job, int error, const char *during, uint64_t op)
{
    job->error = error;
    job->error_during = during;
    job->error_op = op;
    job->fail_ns = now_ns();
}

/* The committer's phase is over after done commits: when it ended, its
 * last trace rows written, and a failure (not a stop) told to the other
 * committers, which stop too. */
static DISKIO_ALWAYS_INLINE void commit_loop_end(struct wal *w, struct wal_job *job, uint64_t done,
                                                 const bool tracing)
{
    job->done = done;
    job->end_ns = now_ns();
    if (tracing && job->rows_used)
        trace_out(w, job);
    if (job->error && job->error != -DISKIO_E_INTERRUPTED) {
        pthread_mutex_lock(&w->lock);
        w->failed = true;
        pthread_cond_broadcast(&w->changed);
        pthread_mutex_unlock(&w->lock);
    }
}

/* Commit until the phase's count or deadline, a stop or a failure. */
static void commit_loop(struct wal *w, struct wal_job *job, const struct wal_phase *ph)
{
    struct diskio_hist *const total = ph->measured ? job->total : job->warm_total;
    const uint64_t wal_bytes = w->cfg->wal_bytes;
    const bool tracing = ph->measured && w->tracing;
    /* a fixed rate: each commit waits for when it is due, and its latency
     * counts from then (coordinated omission corrected, pacing_op()) */
    const bool paced = ph->measured && w->cfg->rate_interval_ns;
    uint64_t op = 0;
    while (op < ph->limit) {
        if (*w->stop) {
            job_fail(job, -DISKIO_E_INTERRUPTED, "interrupted", op);
            break;
        }
        if (paced && !wait_until(job->pace.due_ns, ph->deadline_ns, w->spin_margin_ns, w->stop)) {
            if (*w->stop)
                continue; /* the check above records the interruption */
            break;        /* the next commit falls due after the deadline */
        }
        struct wal_flush fl = {0, 0, 0, 0};
        uint64_t flush_from = 0, flush_to = 0;
        int rc = 0;
        const uint64_t start_ns = now_ns();
        pthread_mutex_lock(&w->lock);
        uint64_t rec_start;
        const uint64_t rec_end = reserve(w, w->insert_lsn, wal_bytes, &rec_start);
        w->counts.insert_bytes += rec_end - w->insert_lsn;
        w->insert_lsn = rec_end;
        while (w->flushed_lsn < rec_end && !w->failed) {
            if (w->flushing) {
                pthread_cond_wait(&w->changed, &w->lock);
                continue;
            }
            w->flushing = true;
            flush_from = w->flushed_lsn;
            flush_to = w->insert_lsn;
            pthread_mutex_unlock(&w->lock);
            rc = flush(w, flush_from, flush_to, &fl);
            pthread_mutex_lock(&w->lock);
            w->flushing = false;
            if (rc < 0) {
                w->failed = true;
                w->error = rc;
            } else {
                w->flushed_lsn = flush_to;
            }
            if (fl.retired)
                w->retired = fl.retired;
            pthread_cond_broadcast(&w->changed);
        }
        const bool failed = w->failed;
        pthread_mutex_unlock(&w->lock);
        const uint64_t end_ns = now_ns();
        if (failed) {
            if (rc < 0)
                job_fail(job, rc, w->error_during, op);
            else
                job_fail(job, -DISKIO_E_INTERRUPTED, "interrupted", op);
            break;
        }
        hist_record(total, paced ? pacing_op(&job->pace, start_ns, end_ns) : end_ns - start_ns);
        op++;
        job->progress = op;
        if (w->single)
            *w->progress = op;
        if (tracing) {
            job->rows[job->rows_used++] = (struct wal_trace_row){op - 1,
                                                                 start_ns - w->trace_origin_ns,
                                                                 end_ns - start_ns,
                                                                 fl.write_ns,
                                                                 fl.sync_ns,
                                                                 job->index,
                                                                 rec_start,
                                                                 rec_end,
                                                                 flush_from,
                                                                 flush_to,
                                                                 fl.switch_ns};
            if (job->rows_used == WAL_TRACE_ROWS)
                trace_out(w, job);
        }
        /* the segment this commit's switch retired, removed after its
         * clock stopped (unless the next switch took care of it) */
        if (fl.retired) {
            unsigned slot = retired_take(w);
            if (slot)
                slot_release(w, slot);
        }
        if (end_ns >= ph->deadline_ns)
            break;
        /* the transaction's own work until its next commit: exactly the
         * pause asked for, from this commit's end (see pause_begin()) */
        if (w->cfg->wal_gap_ns &&
            !wait_until(end_ns + w->cfg->wal_gap_ns, ph->deadline_ns, w->spin_margin_ns, w->stop) &&
            !*w->stop)
            break;
    }
    commit_loop_end(w, job, op, tracing);
}

/* The phase's parts (by DISKIO_PART_*): the flushers record into these. */
static void set_parts(struct wal *w, struct diskio_hist *const *parts)
{
    w->write = parts[DISKIO_PART_WRITE];
    w->sync = parts[DISKIO_PART_SYNC];
    w->sw = parts[DISKIO_PART_SWITCH];
}

/* Whether a flush failed (every committer stops). */
static bool wal_failed(struct wal *w)
{
    pthread_mutex_lock(&w->lock);
    const bool failed = w->failed;
    pthread_mutex_unlock(&w->lock);
    return failed;
}

/* A fixed rate: the committer's first commit due at start_ns and its
 * place in the schedule (the committers take the ops due in turn), the
 * next ones every njobs intervals. */
static void pace_from(struct wal_job *job, uint64_t start_ns)
{
    const struct wal *w = job->w;
    const uint64_t interval = w->cfg->rate_interval_ns;
    job->pace.interval_ns = interval * w->njobs;
    job->pace.due_ns = start_ns + interval * job->index;
    job->pace.prev_end_ns = 0;
}

/* A committer's thread: its warmup with the others', then its measured
 * commits with the others', each step opened by the caller's thread
 * through the gate. */
static void *job_main(void *arg)
{
    struct wal_job *job = arg;
    struct wal *w = job->w;
    struct start_gate *g = &w->gate;
    if (gate_arrive(g, &g->ready, &g->warm_go) && w->cfg->warmup > 0) {
        struct wal_phase warm = {w->cfg->warmup, UINT64_MAX, false};
        commit_loop(w, job, &warm);
    }
    if (gate_arrive(g, &g->warmed, &g->go) && !wal_failed(w) && !job->error) {
        struct wal_phase ph = {w->cfg->count ? w->cfg->count : UINT64_MAX, g->deadline_ns, true};
        job->error = 0;
        job->done = 0;
        pace_from(job, g->start_ns);
        commit_loop(w, job, &ph);
    }
    gate_leave(g, &g->done);
    return NULL;
}

/* The caller's round while it waits at the gate: the committers'
 * progress summed for it. */
static void wal_round(void *ctx)
{
    const struct wal *w = ctx;
    const struct wal_job *jobs = w->jobs;
    uint64_t sum = 0;
    for (unsigned j = 0; j < w->njobs; j++)
        sum += jobs[j].progress;
    *w->progress = sum;
}

/* ---- the run ---- */

static void release_segments(struct wal *w)
{
    if (w->fd >= 0) {
        close(w->fd);
        w->fd = -1;
    }
    for (unsigned i = 0; i < WAL_SLOTS; i++)
        if (w->slots_used & (1u << i))
            slot_release(w, w->slot_ids[i]);
}

static int trace_header(int fd)
{
    static const char header[] = WAL_TRACE_HEADER;
    return trace_write_all(fd, header, sizeof(header) - 1);
}

/* The WAL of a run: its segments' slots and space, its buffer (filled
 * before the run) and a page of zeros; the trace's header written.  0 or
 * -errno (*out is freed by wal_free() either way). */
static int wal_new(const struct diskio_config *cfg, struct diskio_target *target, struct wal **out)
{
    static const volatile sig_atomic_t never_stop = 0;
    const unsigned n = cfg->jobs ? cfg->jobs : 1;
    struct wal *w = calloc(1, sizeof(*w));
    *out = w;
    if (!w)
        return -ENOMEM;
    *w = (struct wal){
        .cfg = cfg,
        .ops = mode_ops_of(cfg->mode),
        .target = target,
        .page = cfg->block_size,
        .segsize = cfg->wal_segment_size,
        .sync_fn = mode_sync_fn(mode_ops_of(cfg->mode)),
        .lock = PTHREAD_MUTEX_INITIALIZER,
        .changed = PTHREAD_COND_INITIALIZER,
        .gate = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER},
        .trace_lock = PTHREAD_MUTEX_INITIALIZER,
        .fd = -1,
        .last_page = UINT64_MAX,
        .tracing = cfg->trace_fd >= 0,
        .single = n == 1,
        .stop = cfg->stop ? cfg->stop : &never_stop,
    };
    w->progress = cfg->progress ? cfg->progress : &w->progress_sink;
    /* rows are written only by the measured commits */
    w->trace_error = w->tracing ? trace_header(cfg->trace_fd) : 0;
    w->buf_size = w->segsize < WAL_BUFFER_MAX ? w->segsize : WAL_BUFFER_MAX;
    /* three free own-file slots, from the last: the checkpoint pattern's
     * and the jobs' files take them from the first */
    for (unsigned s = DISKIO_JOBS_MAX - 1, i = 0; s > 0 && i < WAL_SLOTS; s--)
        if (!target->job_files[s])
            w->slot_ids[i++] = s;
    if (!w->slot_ids[WAL_SLOTS - 1])
        return -EBUSY;
    /* the current segment, the next one and (recycling) the spare */
    int rc = diskio_target_check_space(target, 3 * w->segsize, NULL, NULL, NULL);
    if (rc < 0 || (rc = fill_buffer(&w->buf, w->buf_size, cfg->seed + 0x9e3779b97f4a7c15u)) < 0)
        return rc;
    w->zeros = calloc(1, (size_t)w->page);
    return w->zeros ? 0 : -ENOMEM;
}

/* The committers, each with its histograms (and trace rows).  0 or
 * -ENOMEM (*out is freed by wal_free() either way). */
static int wal_jobs_new(struct wal *w, unsigned n, struct wal_job **out)
{
    struct wal_job *jobs = calloc(n, sizeof(*jobs));
    *out = jobs;
    if (!jobs)
        return -ENOMEM;
    w->jobs = jobs;
    w->njobs = n;
    for (unsigned j = 0; j < n; j++) {
        int rc;
        jobs[j].w = w;
        jobs[j].index = j;
        if ((rc = diskio_hist_new(&jobs[j].total)) < 0 ||
            (rc = diskio_hist_new(&jobs[j].warm_total)) < 0)
            return rc;
        struct pacing *p = &jobs[j].pace;
        if (w->cfg->rate_interval_ns &&
            ((rc = diskio_hist_new(&p->service)) < 0 || (rc = diskio_hist_new(&p->lag)) < 0 ||
             (rc = diskio_hist_new(&p->late_start)) < 0))
            return rc;
        if (w->tracing && !(jobs[j].rows = calloc(WAL_TRACE_ROWS, sizeof(*jobs[j].rows))))
            return -ENOMEM;
    }
    return 0;
}

/* The warmup's parts and the run's record, with the switch part and
 * (several committers) room for each one's figures. */
static int wal_run_new(struct wal *w, unsigned n, struct diskio_run **out)
{
    static const enum diskio_part parts[] = {DISKIO_PART_WRITE, DISKIO_PART_SYNC,
                                             DISKIO_PART_SWITCH};
    int rc = 0;
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && rc == 0; i++)
        rc = diskio_hist_new(&w->warm[parts[i]]);
    if (rc == 0)
        rc = run_new(w->cfg, w->ops, w->cfg->file_size, true, out);
    if (rc == 0)
        rc = diskio_hist_new(&(*out)->hist[DISKIO_PART_SWITCH]);
    if (rc == 0 && n > 1 && !((*out)->jobs = calloc(n, sizeof(*(*out)->jobs))))
        rc = -ENOMEM;
    return rc;
}

static void wal_free(struct wal *w, struct wal_job *jobs, unsigned n)
{
    if (!w)
        return;
    release_segments(w);
    for (unsigned j = 0; jobs && j < n; j++) {
        diskio_hist_free(jobs[j].total);
        diskio_hist_free(jobs[j].warm_total);
        diskio_hist_free(jobs[j].pace.service);
        diskio_hist_free(jobs[j].pace.lag);
        diskio_hist_free(jobs[j].pace.late_start);
        free(jobs[j].rows);
    }
    free(jobs);
    for (int p = 0; p < DISKIO_PART_COUNT; p++)
        diskio_hist_free(w->warm[p]);
    free(w->buf);
    free(w->zeros);
    free(w);
}

/* The first segment, made as PostgreSQL makes one, and with wal_recycle
 * one more to recycle (untimed).  The WAL starts at the first segment's
 * beginning. */
static int wal_first_segment(struct wal *w)
{
    unsigned spare = 0, retired = 0;
    int rc;
    if (w->cfg->wal_recycle) {
        spare = slot_take(w);
        if ((rc = segment_create(w, spare, 0)) < 0)
            return rc;
    }
    set_parts(w, w->warm);
    if ((rc = segment_switch(w, WAL_FIRST_SEGMENT, &retired)) < 0)
        return rc;
    w->spare = spare;
    w->insert_lsn = w->flushed_lsn = WAL_FIRST_SEGMENT * w->segsize;
    return 0;
}

/* The committers through their warmup: the caller itself, or threads
 * started together (their warmups too).  Returns how many committers
 * run. */
static unsigned wal_warm(struct wal *w, struct wal_job *jobs, unsigned n)
{
    if (n == 1) {
        if (w->cfg->warmup > 0) {
            struct wal_phase warm = {w->cfg->warmup, UINT64_MAX, false};
            commit_loop(w, &jobs[0], &warm);
        }
        return 1;
    }
    unsigned started = 0;
    for (unsigned j = 0; j < n; j++) {
        if (pthread_create(&jobs[j].thread, NULL, job_main, &jobs[j]) != 0)
            break;
        jobs[j].started = true;
        started++;
    }
    struct start_gate *g = &w->gate;
    pthread_mutex_lock(&g->lock);
    gate_wait(g, &g->ready, started, wal_round, w);
    g->abort = started < n;
    gate_open(g, &g->warm_go);
    gate_wait(g, &g->warmed, started, wal_round, w);
    g->abort = g->abort || wal_failed(w) || *w->stop;
    pthread_mutex_unlock(&g->lock);
    return started;
}

/* The measured commits from start_ns: the caller's own (recorded straight
 * into the run), or the committers' released together and waited for. */
static void wal_measure(struct wal *w, struct wal_job *jobs, unsigned n, unsigned started,
                        bool warm_failed, uint64_t start_ns, struct diskio_run *run)
{
    const struct diskio_config *cfg = w->cfg;
    const uint64_t deadline_ns = cfg->runtime_ns ? start_ns + cfg->runtime_ns : UINT64_MAX;
    if (n == 1) {
        diskio_hist_free(jobs[0].total);
        jobs[0].total = run->hist[DISKIO_PART_TOTAL];
        if (!warm_failed) {
            if (cfg->live_hist)
                *cfg->live_hist = run->hist[DISKIO_PART_TOTAL];
            struct wal_phase ph = {cfg->count ? cfg->count : UINT64_MAX, deadline_ns, true};
            pace_from(&jobs[0], start_ns);
            commit_loop(w, &jobs[0], &ph);
            if (cfg->live_hist)
                *cfg->live_hist = NULL;
        }
        return;
    }
    struct start_gate *g = &w->gate;
    pthread_mutex_lock(&g->lock);
    g->start_ns = start_ns;
    g->deadline_ns = deadline_ns;
    g->abort = g->abort || warm_failed;
    gate_open(g, &g->go);
    gate_wait(g, &g->done, started, wal_round, w);
    pthread_mutex_unlock(&g->lock);
    for (unsigned j = 0; j < n; j++)
        if (jobs[j].started)
            pthread_join(jobs[j].thread, NULL);
}

/* The run's error: the committer that failed first, else (a missing
 * thread, or) an interruption; 0 when none. */
static int wal_error(struct wal *w, const struct wal_job *jobs, unsigned n, unsigned started,
                     bool warm_failed, uint64_t ops, struct diskio_run_info *info)
{
    int error = 0, error_job = -1;
    for (unsigned j = 0; j < n; j++) {
        if (!jobs[j].error || jobs[j].error == -DISKIO_E_INTERRUPTED)
            continue;
        if (error_job < 0 || jobs[j].fail_ns < jobs[error_job].fail_ns)
            error_job = (int)j;
    }
    if (error_job >= 0) {
        error = jobs[error_job].error;
        info->error_op = warm_failed ? 0 : jobs[error_job].error_op;
        info->error_during = jobs[error_job].error_during;
    } else if (started < n) {
        error = -EAGAIN;
        info->error_during = "thread";
    } else {
        for (unsigned j = 0; j < n && !error; j++)
            if (jobs[j].error) {
                error = jobs[j].error;
                info->error_op = jobs[j].error_op;
                info->error_during = jobs[j].error_during;
            }
    }
    if (!error && w->trace_error) {
        error = w->trace_error;
        info->error_during = "trace";
        info->error_op = ops;
    }
    info->error_job = n > 1 ? error_job : -1;
    return error;
}

/* The run's outcome and each committer's figures (several: merged into
 * the run's total).  Returns the run's error. */
static int wal_outcome(struct wal *w, struct wal_job *jobs, unsigned n, unsigned started,
                       bool warm_failed, uint64_t start_ns, struct diskio_run *run)
{
    struct diskio_run_info *info = &run->info;
    uint64_t end_ns = start_ns, ops = 0;
    for (unsigned j = 0; j < n; j++) {
        if (jobs[j].end_ns > end_ns)
            end_ns = jobs[j].end_ns;
        ops += warm_failed ? 0 : jobs[j].done;
    }
    if (warm_failed)
        end_ns = start_ns;
    const int error = wal_error(w, jobs, n, started, warm_failed, ops, info);
    info->error = error;
    info->complete = error == 0;
    w->counts.commits = ops;
    info->wal = w->counts;
    info->ops = ops;
    info->bytes = w->counts.pages * w->page;
    info->duration_ns = end_ns - start_ns;
    info->start_ns = start_ns;
    if (n == 1) {
        jobs[0].total = NULL; /* the run's own */
        return error;
    }
    for (unsigned j = 0; j < n; j++) {
        struct run_job *rj = &run->jobs[j];
        rj->ops = warm_failed ? 0 : jobs[j].done;
        rj->bytes = 0;
        rj->duration_ns = jobs[j].end_ns > start_ns ? jobs[j].end_ns - start_ns : 0;
        rj->error = jobs[j].error;
        rj->error_op = jobs[j].error_op;
        rj->error_during = jobs[j].error_during;
        (void)diskio_hist_merge(run->hist[DISKIO_PART_TOTAL], jobs[j].total);
        rj->hist = jobs[j].total;
        jobs[j].total = NULL;
    }
    run->njobs = n;
    return error;
}

/*
 * The pause between a committer's commits (--wal-gap) stands for the
 * transaction's own work, and it must last what was asked: a nanosleep
 * overshoots by the timer slack (50 us by default) and the wake-up
 * latency, about 80 us here for a 50 us pause, and the sharing of
 * flushes among committers hangs on how the pause compares with a flush.
 * So the committers (threads inherit the slack of the thread that makes
 * them) sleep with a slack of 1 ns until shortly before the pause ends
 * and spin the rest, as a paced run does, and the margin is measured,
 * not guessed.  Returns the caller's slack to restore, or -1.
 */
static int pause_begin(struct wal *w)
{
    const struct diskio_config *cfg = w->cfg;
    if (cfg->wal_gap_ns)
        return precise_sleep_begin(PRECISE_SPIN_MAX_NS, &w->spin_margin_ns);
    if (!cfg->rate_interval_ns)
        return -1;
    /* a fixed rate: as a paced run's (pacing_begin()), each committer's
     * wait spinning at most a quarter of its interval */
    uint64_t cap = cfg->rate_interval_ns * (cfg->jobs ? cfg->jobs : 1) / 4;
    return precise_sleep_begin(cap < PRECISE_SPIN_MAX_NS ? cap : PRECISE_SPIN_MAX_NS,
                               &w->spin_margin_ns);
}

/* A fixed rate: every committer's service times into the run's, and how
 * well the schedule was kept (pacing_record()). */
static void wal_pacing_outcome(struct wal *w, struct wal_job *jobs, unsigned n,
                               struct diskio_run *run)
{
    struct diskio_hist *lag = NULL, *late = NULL;
    if (diskio_hist_new(&lag) < 0 || diskio_hist_new(&late) < 0) {
        diskio_hist_free(lag);
        return;
    }
    struct pacing_seen seen = {.lag = lag,
                               .late_start = late,
                               .spin_margin_ns = w->spin_margin_ns,
                               .stream_interval_ns = w->cfg->rate_interval_ns * n};
    for (unsigned j = 0; j < n; j++) {
        const struct pacing *p = &jobs[j].pace;
        (void)diskio_hist_merge(run->hist[DISKIO_PART_SERVICE], p->service);
        (void)diskio_hist_merge(lag, p->lag);
        (void)diskio_hist_merge(late, p->late_start);
        seen.max_lag_ns = p->max_lag_ns > seen.max_lag_ns ? p->max_lag_ns : seen.max_lag_ns;
        seen.backlog_ops += p->backlog_ops;
        if (p->backlog_max_ns > seen.backlog_max_ns)
            seen.backlog_max_ns = p->backlog_max_ns;
    }
    pacing_record(&run->info, &seen);
    diskio_hist_free(lag);
    diskio_hist_free(late);
}

int engine_run_wal(const struct diskio_config *cfg, struct diskio_target *target,
                   struct diskio_run **out)
{
    const unsigned n = cfg->jobs ? cfg->jobs : 1;
    struct diskio_run *run = NULL;
    struct wal_job *jobs = NULL;
    struct wal *w = NULL;
    int old_slack = -1;

    /* the segments are made beside a file diskio created */
    if (!target->created || target->is_device)
        return -EINVAL;
    int rc = wal_new(cfg, target, &w);
    if (rc == 0)
        rc = wal_jobs_new(w, n, &jobs);
    if (rc == 0)
        rc = wal_run_new(w, n, &run);
    if (rc != 0)
        goto done;
    old_slack = pause_begin(w);
    if ((rc = wal_first_segment(w)) < 0) {
        /* the segments could not be made: nothing was measured */
        run->info.error = rc;
        run->info.error_during = "segment";
        run->info.complete = false;
        *out = run;
        run = NULL;
        goto done;
    }
    const unsigned started = wal_warm(w, jobs, n);
    /* the warmup's failure is the run's, with nothing measured */
    bool warm_failed = w->failed || started < n;
    for (unsigned j = 0; j < n; j++)
        if (jobs[j].error)
            warm_failed = true;

    memset(&w->counts, 0, sizeof(w->counts));
    set_parts(w, run->hist);
    /* the devices' counters around the measured commits (no interference
     * probe: what it takes as a run's own device I/O does not count the
     * segments' zero-fill) */
    struct run_probe probe = {.interference = false};
    probe_begin(&probe, target);
    const uint64_t start_ns = now_ns();
    w->trace_origin_ns = start_ns;
    wal_measure(w, jobs, n, started, warm_failed, start_ns, run);
    probe_end(&probe, target);
    rc = wal_outcome(w, jobs, n, started, warm_failed, start_ns, run);
    if (cfg->rate_interval_ns && run->info.ops > 0)
        wal_pacing_outcome(w, jobs, n, run);
    release_segments(w);
    probe_record(run, &probe, target);
    *out = run;
    run = NULL;

done:
    pacing_end(old_slack);
    wal_free(w, jobs, n);
    diskio_run_free(run);
    return rc;
}
