/* SPDX-License-Identifier: MIT */
/*
 * The wire protocol's lines (diskio-durable(1), PROTOCOL): bounded line
 * reading, words, numbers, the acknowledgement line, HOST:PORT.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "durable.h"

int durable_split(char *line, char **words, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (*p == ' ' || *p == '\0' || n == max)
            return -1; /* an empty word, or one too many */
        words[n++] = p;
        p = strchr(p, ' ');
        if (!p)
            return n;
        *p++ = '\0';
    }
}

bool durable_parse_u64(const char *text, uint64_t *out)
{
    uint64_t v = 0;
    size_t n = 0;
    for (; text[n]; n++) {
        if (text[n] < '0' || text[n] > '9' || n == 20)
            return false;
        const uint64_t d = (uint64_t)(text[n] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (n == 0)
        return false;
    *out = v;
    return true;
}

bool durable_parse_crc(const char *text, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 8; i++) {
        const char c = text[i];
        uint32_t d;
        if (c >= '0' && c <= '9')
            d = (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (uint32_t)(c - 'a' + 10);
        else
            return false;
        v = v << 4 | d;
    }
    if (text[8] != '\0')
        return false;
    *out = v;
    return true;
}

/* Decimal digits of v at out; returns how many.  No locale, no printf:
 * this is formatted once per acknowledged write. */
static size_t put_u64(char *out, uint64_t v)
{
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

size_t durable_format_ack(char *out, uint64_t seq, uint64_t offset, uint32_t crc)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    out[n++] = 'A';
    out[n++] = ' ';
    n += put_u64(out + n, seq);
    out[n++] = ' ';
    n += put_u64(out + n, offset);
    out[n++] = ' ';
    for (int i = 7; i >= 0; i--)
        out[n++] = hex[(crc >> (4 * i)) & 0xf];
    out[n++] = '\n';
    return n;
}

/* ---- bounded lines ---- */

/* The line last returned (and its LF) leaves the buffer before anything
 * else happens to it. */
static void drop_taken(struct durable_in *in)
{
    if (in->taken == 0)
        return;
    memmove(in->buf, in->buf + in->taken, in->used - in->taken);
    in->used -= in->taken;
    in->taken = 0;
}

int durable_in_line(struct durable_in *in, char **line)
{
    drop_taken(in);
    for (size_t i = 0; i < in->used; i++) {
        const unsigned char c = (unsigned char)in->buf[i];
        if (c == '\n') {
            in->buf[i] = '\0';
            in->taken = i + 1;
            *line = in->buf;
            return 1;
        }
        /* printable ASCII only: nothing a terminal or a log would act on */
        if (c < 0x20 || c > 0x7e || i + 1 >= DURABLE_LINE_MAX)
            return -1;
    }
    return 0;
}

char *durable_in_space(struct durable_in *in, size_t *room)
{
    drop_taken(in);
    *room = sizeof(in->buf) - in->used;
    return in->buf + in->used;
}

void durable_in_added(struct durable_in *in, size_t n)
{
    in->used += n;
}

int durable_split_hostport(const char *text, char *host, size_t host_size, char *port,
                           size_t port_size, bool allow_zero)
{
    const char *colon;
    const char *h = text;
    size_t hlen;
    if (text[0] == '[') {
        const char *close = strchr(text, ']');
        if (!close || close[1] != ':')
            return -1;
        h = text + 1;
        hlen = (size_t)(close - h);
        colon = close + 1;
    } else {
        colon = strrchr(text, ':');
        if (!colon || memchr(text, ':', (size_t)(colon - text)))
            return -1; /* IPv6 needs its brackets */
        hlen = (size_t)(colon - text);
    }
    const char *p = colon + 1;
    uint64_t v;
    if (hlen == 0 || hlen >= host_size || !durable_parse_u64(p, &v) || v > 65535 ||
        (v == 0 && !allow_zero) || strlen(p) >= port_size || (p[0] == '0' && p[1] != '\0'))
        return -1;
    memcpy(host, h, hlen);
    host[hlen] = '\0';
    memcpy(port, p, strlen(p) + 1);
    return 0;
}

bool durable_boot_id_valid(const char *id)
{
    for (int i = 0; i < DURABLE_BOOT_ID_LEN; i++) {
        const char c = id[i];
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return id[DURABLE_BOOT_ID_LEN] == '\0';
}

int durable_boot_id(char *out)
{
    const int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    char buf[DURABLE_BOOT_ID_LEN + 2];
    ssize_t got;
    do
        got = read(fd, buf, sizeof(buf));
    while (got < 0 && errno == EINTR);
    const int err = got < 0 ? errno : 0;
    close(fd);
    if (got < 0)
        return -err;
    /* the id and a newline */
    if (got != DURABLE_BOOT_ID_LEN + 1 || buf[DURABLE_BOOT_ID_LEN] != '\n')
        return -EPROTO;
    buf[DURABLE_BOOT_ID_LEN] = '\0';
    if (!durable_boot_id_valid(buf))
        return -EPROTO;
    memcpy(out, buf, DURABLE_BOOT_ID_LEN + 1);
    return 0;
}
