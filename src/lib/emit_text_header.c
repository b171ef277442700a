/* SPDX-License-Identifier: MIT */
/* The text's environment header: the machine, the kernel, the target's
 * filesystem, the devices under it and their caches, the timer's wake-up
 * and a precondition.  The text in order: emit_text.c. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emit_text.h"

/* The target's device: its name, whether it rotates, its write cache and
 * scheduler. */
static void text_device(FILE *out, const struct env *env)
{
    const char *dev = env_get(env, "target.device.name");
    if (!dev)
        return;
    const char *rot = env_get(env, "target.device.rotational");
    const char *cache = env_get(env, "target.device.write_cache");
    const char *sched = env_get(env, "target.device.scheduler");
    fputs(" on ", out);
    text_show(out, dev);
    fprintf(out, " (%s", rot ? (strcmp(rot, "0") == 0 ? "non-rotational" : "rotational") : "?");
    if (cache) {
        fputs(", ", out);
        text_show(out, cache);
        fputs(" cache", out);
    }
    if (sched) {
        fputs(", scheduler ", out);
        text_show(out, sched);
    }
    fputc(')', out);
}

/* What is under the target's filesystem: a loop device's backing file,
 * an overlay's upper layer, and the devices of a filesystem that has no
 * one device of its own (btrfs over several, md/dm members). */
static void text_layers(FILE *out, const struct env *env)
{
    const struct devstat_set *set = env_devices(env);
    if (!env_get(env, "target.device.name") && set && set->n > 0) {
        for (unsigned depth = 0, shown = 1; shown; depth++) {
            shown = 0;
            for (size_t i = 0; i < set->n; i++) {
                if (set->dev[i].depth != depth)
                    continue;
                fputs(shown++ ? ", " : depth ? "  under them " : "  on devices ", out);
                text_show(out, set->dev[i].name);
            }
            if (shown)
                fputc('\n', out);
        }
    }
    const char *backing = env_get(env, "target.loop.backing_file");
    if (backing) {
        const char *fs = env_get(env, "target.loop.backing_filesystem");
        const char *disk = env_get(env, "target.loop.backing_device");
        fprintf(out, "  loop device over %s (%s%s%s)\n", backing, fs ? fs : "unknown filesystem",
                disk ? " on " : "", disk ? disk : "");
    }
    const char *upper = env_get(env, "target.overlay.upperdir");
    if (upper) {
        const char *fs = env_get(env, "target.overlay.upper_filesystem");
        fprintf(out, "  overlay writing to %s (%s)\n", upper, fs ? fs : "unknown filesystem");
    }
}

/* "a wake-up on another CPU takes 24.8 us (cpuidle haltpoll)": part of
 * every sync's latency that is the machine's, not the storage's. */
static void text_wakeup(FILE *out, const struct env *env)
{
    const char *wakeup = env_get(env, "cpu.wakeup_ns");
    const char *driver = env_get(env, "cpu.idle_driver");
    if (!wakeup)
        return;
    fprintf(out, "a wake-up on another CPU takes %.1f us", strtod(wakeup, NULL) / 1000.0);
    if (driver) {
        fputs(" (cpuidle ", out);
        text_show(out, driver);
        fputc(')', out);
    }
    fputc('\n', out);
}

/* The lines above the table: the version, label and host, the target's
 * filesystem and device (and what is under them), the timer. */
/* diskio --precondition: what was written before the runs. */
static void text_precondition(FILE *out, const struct diskio_result *res)
{
    const struct diskio_precondition *p = &res->precondition;
    if (!res->preconditioned)
        return;
    char size[32], block[32];
    text_size(size, sizeof(size), p->bytes);
    text_size(block, sizeof(block), p->block_size);
    const double seconds = (double)p->duration_ns / 1e9;
    char times[24] = "twice";
    if (p->passes != 2)
        snprintf(times, sizeof(times), "%u times", p->passes);
    fprintf(out, "preconditioned: %s written %s sequentially in %s writes%s, %.3g s", size, times,
            block, p->direct ? " (O_DIRECT)" : "", seconds);
    if (seconds > 0)
        fprintf(out, " (%.1f MB/s)", (double)p->written / 1e6 / seconds);
    fputs(p->complete ? "\n" : "; INCOMPLETE: stopped before its end\n", out);
}

void text_header(FILE *out, const struct diskio_result *res)
{
    const struct env *env = res->env;
    fprintf(out, "diskio %s", diskio_version());
    if (res->label) {
        fputs("  label ", out);
        text_show(out, res->label);
    }
    const char *host = env_get(env, "hostname"), *kernel = env_get(env, "kernel.release");
    if (host) {
        fputs("  on ", out);
        text_show(out, host);
    }
    if (kernel) {
        fputs(" (Linux ", out);
        text_show(out, kernel);
        fputc(')', out);
    }
    fputc('\n', out);
    const char *dir = env_get(env, "target.directory");
    if (dir) {
        const char *fs = env_get(env, "target.filesystem");
        fputs("target ", out);
        text_show(out, dir);
        fputs(": ", out);
        text_show(out, fs ? fs : "unknown filesystem");
        const char *journal = env_get(env, "target.ext4.journal");
        const char *data = env_get(env, "target.ext4.data_mode");
        if (journal)
            fprintf(out, strcmp(journal, "0") == 0 ? " (no journal)" : " (journal, data=%s)",
                    data ? data : "?");
        text_device(out, env);
        fputc('\n', out);
        text_layers(out, env);
    }
    const char *overhead = env_get(env, "timer.overhead_ns");
    const char *clocksource = env_get(env, "timer.clocksource");
    if (overhead) {
        fputs("timer overhead ", out);
        text_show(out, overhead);
        fputs(" ns per clock read", out);
        if (clocksource) {
            fputs(" (clocksource ", out);
            text_show(out, clocksource);
            fputc(')', out);
        }
        fputc('\n', out);
    }
    text_wakeup(out, env);
    text_precondition(out, res);
    fputc('\n', out);
}
