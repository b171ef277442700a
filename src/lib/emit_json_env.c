/* SPDX-License-Identifier: MIT */
/* The JSON document's environment object: the machine, the kernel, the
 * target's filesystem and what lies under it (ext4's journal, a loop
 * device's backing file, overlayfs's upper directory, the device stack
 * with its caches), as env.c and devstat.c found them.  The document:
 * emit_json.c. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emit_json.h"

/* An environment value that is an integer, or null. */
static void env_int(FILE *out, const struct env *env, const char *key)
{
    const char *v = env_get(env, key);
    if (v && *v && strspn(v, "0123456789") == strlen(v))
        fputs(v, out);
    else
        fputs("null", out);
}

static void env_bool(FILE *out, const struct env *env, const char *key)
{
    const char *v = env_get(env, key);
    fputs(!v ? "null" : strcmp(v, "0") == 0 ? "false" : "true", out);
}

static void env_str(FILE *out, const struct env *env, const char *key)
{
    json_string(out, env_get(env, key));
}

static void json_flag(FILE *out, signed char v)
{
    fputs(v < 0 ? "null" : v ? "true" : "false", out);
}

/* An object of env keys prefix.NAME, or null when the first is unknown. */
static void env_group(FILE *out, const struct env *env, const char *prefix,
                      const char *const *names, size_t n, const char *bool_name)
{
    char key[96];
    snprintf(key, sizeof(key), "%s.%s", prefix, names[0]);
    if (!env_get(env, key)) {
        fputs("null", out);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(key, sizeof(key), "%s.%s", prefix, names[i]);
        fprintf(out, "%s\"%s\": ", i ? ", " : "{", names[i]);
        if (bool_name && strcmp(names[i], bool_name) == 0)
            env_bool(out, env, key);
        else
            env_str(out, env, key);
    }
    fputs("}", out);
}

/* Schema 2: what is under the target's filesystem. */
static void emit_target_layers(FILE *out, const struct env *env)
{
    static const char *const ext4[] = {"journal", "data_mode"};
    static const char *const loop[] = {"backing_file", "backing_filesystem", "backing_mount_point",
                                       "backing_device"};
    static const char *const overlay[] = {"upperdir", "upper_filesystem", "upper_mount_point"};
    fputs(",\n      \"ext4\": ", out);
    env_group(out, env, "target.ext4", ext4, 2, "journal");
    fputs(",\n      \"loop\": ", out);
    env_group(out, env, "target.loop", loop, 4, NULL);
    fputs(",\n      \"overlay\": ", out);
    env_group(out, env, "target.overlay", overlay, 3, NULL);
    fputs(",\n      \"devices\": [", out);
    const struct devstat_set *set = env ? env_devices(env) : NULL;
    for (size_t i = 0; set && i < set->n; i++) {
        const struct devstat_dev *d = &set->dev[i];
        fputs(i ? ",\n        {\"name\": " : "\n        {\"name\": ", out);
        json_string(out, d->name);
        fprintf(out, ", \"depth\": %u, \"leaf\": %s, \"own_io\": %s, \"write_cache\": ", d->depth,
                d->leaf ? "true" : "false", d->own_io ? "true" : "false");
        json_string(out, d->write_cache < 0 ? NULL
                         : d->write_cache   ? "write back"
                                            : "write through");
        fputs(", \"fua\": ", out);
        json_flag(out, d->fua);
        fputs(", \"rotational\": ", out);
        json_flag(out, d->rotational);
        fputs("}", out);
    }
    fputs(set && set->n ? "\n      ]" : "]", out);
}

void json_environment(FILE *out, const struct env *env)
{
    fputs("  \"environment\": {\n    \"hostname\": ", out);
    env_str(out, env, "hostname");
    fputs(",\n    \"machine_id\": ", out);
    env_str(out, env, "machine_id");
    fputs(",\n    \"boot_id\": ", out);
    env_str(out, env, "boot_id");
    fputs(",\n    \"kernel\": {\"sysname\": ", out);
    env_str(out, env, "kernel.sysname");
    fputs(", \"release\": ", out);
    env_str(out, env, "kernel.release");
    fputs(", \"version\": ", out);
    env_str(out, env, "kernel.version");
    fputs(", \"machine\": ", out);
    env_str(out, env, "kernel.machine");
    fputs("},\n    \"cpu\": {\"model\": ", out);
    env_str(out, env, "cpu.model");
    fputs(", \"cores\": ", out);
    env_int(out, env, "cpu.cores");
    fputs(", \"idle_driver\": ", out);
    env_str(out, env, "cpu.idle_driver");
    fputs(", \"wakeup_ns\": ", out);
    env_int(out, env, "cpu.wakeup_ns");
    fputs("},\n    \"memory_bytes\": ", out);
    env_int(out, env, "memory_bytes");
    fputs(",\n    \"timer\": {\"clock\": ", out);
    env_str(out, env, "timer.clock");
    fputs(", \"resolution_ns\": ", out);
    env_int(out, env, "timer.resolution_ns");
    fputs(", \"overhead_ns\": ", out);
    env_int(out, env, "timer.overhead_ns");
    fputs(", \"clocksource\": ", out);
    env_str(out, env, "timer.clocksource");
    fputs("},\n    \"target\": {\n      \"directory\": ", out);
    env_str(out, env, "target.directory");
    static const char *const target_strings[] = {"filesystem", "mount_point", "mount_source",
                                                 "mount_options", "super_options"};
    char key[64];
    for (size_t i = 0; i < sizeof(target_strings) / sizeof(target_strings[0]); i++) {
        snprintf(key, sizeof(key), "target.%s", target_strings[i]);
        fprintf(out, ",\n      \"%s\": ", target_strings[i]);
        env_str(out, env, key);
    }
    fputs(",\n      \"device\": ", out);
    if (!env_get(env, "target.device.name")) {
        fputs("null", out);
    } else {
        fputs("{\"name\": ", out);
        env_str(out, env, "target.device.name");
        fputs(", \"partition\": ", out);
        env_str(out, env, "target.device.partition");
        fputs(", \"rotational\": ", out);
        env_bool(out, env, "target.device.rotational");
        fputs(", \"scheduler\": ", out);
        env_str(out, env, "target.device.scheduler");
        fputs(", \"write_cache\": ", out);
        env_str(out, env, "target.device.write_cache");
        fputs(", \"logical_block_size\": ", out);
        env_int(out, env, "target.device.logical_block_size");
        fputs(", \"physical_block_size\": ", out);
        env_int(out, env, "target.device.physical_block_size");
        fputs(", \"model\": ", out);
        env_str(out, env, "target.device.model");
        fputs(", \"fua\": ", out);
        env_bool(out, env, "target.device.fua");
        fputs("}", out);
    }
    emit_target_layers(out, env);
    fputs("\n    }\n  },\n", out);
}
