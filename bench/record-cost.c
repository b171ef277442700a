/* SPDX-License-Identifier: MIT */
/*
 * record-cost: calls diskio_hist_record() N times with varied values, so
 * that `valgrind --tool=callgrind` can count the instructions of the record
 * path (bench/compare-peers --only record does that and divides the
 * inclusive cost of diskio_hist_record by its number of calls).
 *
 * The values are drawn before the timed part from a log-uniform spread
 * between 1 ns and about 17 ms (every magnitude the histogram has buckets
 * for in that range, so both the exact and the log-linear buckets are hit)
 * and replayed from a table, so the caller's loop costs little and none of
 * it is inside diskio_hist_record.
 *
 *   cc -O2 record-cost.c $(pkg-config --cflags --libs libdiskio)
 *   ./record-cost [N]        (default 1000000)
 */
#include <diskio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TABLE 4096

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    static uint64_t values[TABLE];
    uint64_t x = 0x243F6A8885A308D3u;
    for (int i = 0; i < TABLE; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        unsigned magnitude = (unsigned)(x % 25); /* 2^0 .. 2^24 ns */
        uint64_t base = UINT64_C(1) << magnitude;
        values[i] = base + ((x >> 8) & (base - 1)); /* anywhere in [2^m, 2^(m+1)) */
    }

    struct diskio_hist *h;
    if (diskio_hist_new(&h) != 0) {
        fprintf(stderr, "record-cost: diskio_hist_new failed\n");
        return 1;
    }
    for (uint64_t i = 0; i < n; i++)
        diskio_hist_record(h, values[i & (TABLE - 1)]);
    uint64_t in_range = n - diskio_hist_overflow(h);

    uint64_t count = diskio_hist_count(h);
    printf("{\"calls\":%llu,\"recorded\":%llu,\"in_range\":%llu,\"mean_ns\":%.1f}\n",
           (unsigned long long)n, (unsigned long long)count, (unsigned long long)in_range,
           diskio_hist_mean(h));
    diskio_hist_free(h);
    return count == n && in_range == n ? 0 : 1;
}
