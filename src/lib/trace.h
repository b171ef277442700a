/* SPDX-License-Identifier: MIT */
/*
 * The per-op trace (config.trace_fd, diskio --trace): rows buffered in
 * memory by the timed loop, formatted and written in batches between
 * operations, never inside the timed region (trace.c).  The wal and
 * checkpoint patterns write rows of their own through the same chunked
 * writer.
 */
#ifndef DISKIO_TRACE_H
#define DISKIO_TRACE_H

#include "diskio_internal.h"

#define TRACE_ROWS 4096
/* The CSV headers, the pattern table's (patterns.c): the plain
 * patterns', the wal pattern's and the checkpoint pattern's.  Written by
 * the run before any row (runner_trace_header()): a library caller gets
 * the same complete file as the command. */
#define TRACE_HEADER "op,start_ns,latency_ns,write_ns,sync_ns\n"
#define WAL_TRACE_HEADER                                                                           \
    "op,start_ns,latency_ns,write_ns,sync_ns,job,record_lsn,record_end_lsn,flush_from_lsn,"        \
    "flush_to_lsn,switch_ns\n"
#define CHECKPOINT_TRACE_HEADER                                                                    \
    "op,start_ns,latency_ns,write_ns,sync_ns,checkpoint,file,offset,writeback_ns\n"
struct trace_row {
    uint64_t op, start_ns, latency_ns, write_ns, sync_ns;
};
struct trace {
    int fd;
    int error;          /* first write error, -errno */
    uint64_t origin_ns; /* start_ns is relative to this */
    size_t rows_used;
    struct trace_row rows[TRACE_ROWS];
};

/* Write all of buf to fd (a short write is followed by another, which
 * then says why): 0 or -errno. */
int trace_write_all(int fd, const char *buf, size_t len);
/* Format the buffered trace rows and write them out; the first error. */
int trace_flush(struct trace *t);

/* Formatted rows gathered into chunks and written whole: every trace
 * writer's output (trace_flush(), the wal and checkpoint patterns').
 * Nothing is written once *error is set; the first failure is kept
 * there. */
struct trace_out {
    int fd;
    int *error;
    size_t used;
    char chunk[16384];
};
void trace_out_line(struct trace_out *o, const char *line, size_t len);
void trace_out_end(struct trace_out *o);

#endif
