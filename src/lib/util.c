/* SPDX-License-Identifier: MIT */
/* Version, error names and the clock. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "diskio_internal.h"

const char *diskio_version(void)
{
    return PACKAGE_VERSION;
}

/* Component by component, major first: packing them into one number
 * (DISKIO_VERSION_HEX's way) would shift a large component into its
 * neighbour's place or overflow. */
bool diskio_check_version(int major, int minor, int micro)
{
    if (major < 0 || minor < 0 || micro < 0)
        return false;
    if (major != DISKIO_VERSION_MAJOR)
        return major < DISKIO_VERSION_MAJOR;
    if (minor != DISKIO_VERSION_MINOR)
        return minor < DISKIO_VERSION_MINOR;
    return micro <= DISKIO_VERSION_MICRO;
}

const char *diskio_strerror(int err)
{
    switch (-err) {
    case 0: return "Success";
    case DISKIO_E_INTERRUPTED: return "Interrupted before the run was complete";
    case DISKIO_E_NO_DIRECT: return "The filesystem does not support O_DIRECT";
    case DISKIO_E_TARGET_EXISTS: return "The target exists and was not created by diskio";
    case DISKIO_E_TARGET_TYPE: return "The target is a symlink, FIFO, socket or character device";
    case DISKIO_E_TARGET_DEVICE: return "The target is a block device";
    case DISKIO_E_SHORT_WRITE: return "A write made no progress";
    case DISKIO_E_TARGET_CHANGED:
        return "The target was replaced, renamed or removed by someone else";
    case DISKIO_E_NO_SPACE: return "The filesystem has too little free space for the test file";
    case DISKIO_E_DEVICE_BUSY: return "The block device is mounted or in use";
    case DISKIO_E_SHORT_READ: return "A read returned no data: the file ended early";
    case DISKIO_E_VERIFY: return "The data read back differs from what was written";
    case DISKIO_E_TARGET_LOCKED: return "Another process holds a lock on the target";
    default:
        /* strerror() may use a shared buffer for unknown numbers;
         * strerrordesc_np() returns static text or NULL */
        if (err < 0 && -err < DISKIO_E_BASE) {
            const char *text = strerrordesc_np(-err);
            if (text)
                return text;
        }
        return "Unknown error";
    }
}

uint64_t diskio_now_ns(void)
{
    return now_ns();
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t diskio_timer_overhead_ns(void)
{
    enum { SAMPLES = 1001 };
    uint64_t deltas[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t first = now_ns();
        uint64_t second = now_ns();
        deltas[i] = second - first;
    }
    qsort(deltas, SAMPLES, sizeof(deltas[0]), compare_u64);
    return deltas[SAMPLES / 2];
}
