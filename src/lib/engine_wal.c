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
 *
 * This file: the segments, the WAL's flush and the committers' loop; the
 * shared state is engine_wal.h's, and a run from start to end (set-up,
 * warmup, measured commits, outcome) is engine_wal_run.c's.
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
#include "engine_wal.h"
#include "pipeline.h"
#include "trace.h"

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
unsigned wal_slot_take(struct wal *w)
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
void wal_slot_release(struct wal *w, unsigned slot)
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
int wal_segment_create(struct wal *w, unsigned slot, uint64_t segno)
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
int wal_segment_switch(struct wal *w, uint64_t segno, unsigned *retired)
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
            wal_slot_release(w, old);
        slot = wal_slot_take(w);
        rc = slot ? wal_segment_create(w, slot, segno) : -EBUSY;
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
            int rc = wal_segment_switch(w, segno, &fl->retired);
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
void wal_commit_loop(struct wal *w, struct wal_job *job, const struct wal_phase *ph)
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
        *job->progress = op;
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
                wal_slot_release(w, slot);
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
void wal_set_parts(struct wal *w, struct diskio_hist *const *parts)
{
    w->write = parts[DISKIO_PART_WRITE];
    w->sync = parts[DISKIO_PART_SYNC];
    w->sw = parts[DISKIO_PART_SWITCH];
}

/* Whether a flush failed (every committer stops). */
bool wal_failed(struct wal *w)
{
    pthread_mutex_lock(&w->lock);
    const bool failed = w->failed;
    pthread_mutex_unlock(&w->lock);
    return failed;
}

/* A fixed rate: the committer's first commit due at start_ns and its
 * place in the schedule (the committers take the ops due in turn), the
 * next ones every njobs intervals. */
void wal_pace_from(struct wal_job *job, uint64_t start_ns)
{
    const struct wal *w = job->w;
    const uint64_t interval = w->cfg->rate_interval_ns;
    job->pace.interval_ns = interval * w->njobs;
    job->pace.due_ns = start_ns + interval * job->index;
    job->pace.prev_end_ns = 0;
}
