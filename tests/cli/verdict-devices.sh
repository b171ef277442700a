#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the device verdicts say each thing once and say where it comes from.
#
# the device verdicts say each thing once and say where it
# comes from.  On ext4 on a loop device made here over a file of the
# build tree's filesystem: uncached reads (read, direct-read) whose loop
# device read from its backing file in the page cache (the disk under it
# read next to nothing) are called backing_cached, in one line naming both
# modes, the loop device and the disk under it; with losetup --direct-io
# (the disk reads what the loop device reads) they are not.  Syncs faster
# than a rotational disk turns are one line for every syncing mode, naming
# the rotational device and, for a virtio disk, that its rotational flag
# is the hypervisor's default.  On a loop device over a file in tmpfs,
# marked rotational: the syncs' line says the flag is the loop driver's,
# and uncached reads are backing_cached (its backing file in tmpfs).
# Needs root, losetup and mkfs.ext4 (skipped otherwise).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}

t_loop_fs fs 160M
loop=${t_loop_dev#/dev/}
extra_mounts=""
extra_loops=""
cleanup() {
    for m in $extra_mounts; do umount "$m" 2>/dev/null; done
    for l in $extra_loops; do losetup -d "$l" 2>/dev/null; done
    umount "$t_scratch/tm" 2>/dev/null
    t_loop_cleanup
}
trap cleanup EXIT

# foreign_reads JSON: for each run whose disks under the loop device read
# a tenth or more of what the loop device read (others read them
# meanwhile), "mode: DISK read N of the loop device's M bytes"; else empty
foreign_reads() {
    "$PYTHON3" -c 'import json, sys
doc = json.load(open(sys.argv[1]))
for r in doc["runs"]:
    devs = (r.get("device") or {}).get("devices") or []
    top = sum(d["read_sectors"] for d in devs if d.get("depth") == 0) * 512
    for d in devs:
        if d.get("depth", 0) > 0 and top and d["read_sectors"] * 512 >= 0.1 * top:
            print("%s: %s read %d of the loop device\x27s %d bytes"
                  % (r["mode"], d["name"], d["read_sectors"] * 512, top))' "$1"
}

# verdict_codes JSON: "mode:code,code mode:code" for each run
verdict_codes() {
    "$PYTHON3" -c 'import json, sys
doc = json.load(open(sys.argv[1]))
print(" ".join(r["mode"] + ":" + ",".join(v["code"] for v in r["verdicts"]) for r in doc["runs"]))' "$1"
}
under=$("$PYTHON3" -c 'import json, sys
print(" ".join(d["name"] for d in json.load(sys.stdin)["environment"]["target"]["devices"]
               if d["depth"] > 0))' <<EOF
$("$DISKIO" --mode async --count 1 --warmup 0 --quiet --format json "$t_scratch/fs")
EOF
)

# ---- uncached reads from a backing file in the page cache ----
t_expect_status 0 "read, direct-read on the loop filesystem" -- "$DISKIO" --mode read,direct-read \
    --bs 64k --size 32m --count 200 --warmup 0 -o "$t_scratch/reads.json" "$t_scratch/fs"
if [ -z "$under" ]; then
    echo "note: nothing under $loop (the build tree is not on a block device): no backing disk to read"
else
    codes=$(verdict_codes "$t_scratch/reads.json")
    # The verdict needs the disk under the loop device to have read next
    # to nothing (under a tenth of what the loop device read); other
    # processes reading that disk meanwhile take the evidence away, and
    # then the verdict rightly stays silent: the run's own counters say so.
    foreign=$(foreign_reads "$t_scratch/reads.json")
    case $codes in
    *"read:"*backing_cached*"direct-read:"*backing_cached*)
        t_ok "both uncached read runs are backing_cached ($codes)"
        lines=$(grep -c "uncached reads came from memory" "$t_scratch/stdout")
        line=$(grep "uncached reads came from memory" "$t_scratch/stdout")
        if [ "$lines" -eq 1 ] && case $line in "read and direct-read 64 KiB: "*) true ;; *) false ;; esac &&
            case $line in *"($loop: the loop device; "*": the disk under it)") true ;; *) false ;; esac; then
            t_ok "one line names both modes, $loop and the disk under it"
        else
            t_fail "the backing_cached line ($lines): $line"
        fi ;;
    *) if [ -n "$foreign" ]; then
           echo "note: not backing_cached ($codes), and rightly: $foreign"
       else
           t_fail "uncached reads of a cached backing file: verdicts $codes"
       fi ;;
    esac
fi

# ---- the same reads through losetup --direct-io: from the disk ----
truncate -s 160M "$t_scratch/dio.img"
dio=$(losetup --sector-size 4096 --direct-io=on -f --show "$t_scratch/dio.img" 2>/dev/null)
if [ -n "$dio" ] && [ "$(cat "/sys/block/${dio#/dev/}/loop/dio" 2>/dev/null)" = 1 ] && [ -n "$under" ]; then
    extra_loops="$dio"
    mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$dio" >/dev/null 2>&1
    mkdir "$t_scratch/dio"
    mount "$dio" "$t_scratch/dio" && extra_mounts="$t_scratch/dio"
    t_expect_status 0 "read, direct-read through losetup --direct-io" -- "$DISKIO" \
        --mode read,direct-read --bs 64k --size 32m --count 200 --warmup 0 \
        -o "$t_scratch/dio.json" "$t_scratch/dio"
    codes=$(verdict_codes "$t_scratch/dio.json")
    case $codes in
    *backing_cached*) t_fail "reads the disk made are called backing_cached: $codes" ;;
    *) t_ok "reads the disk under the loop device made are not backing_cached ($codes)" ;;
    esac
else
    [ -n "$dio" ] && losetup -d "$dio"
    echo "note: no loop device with direct I/O here: that part is not checked"
fi

# ---- syncs faster than a disk turns: one line for every mode ----
t_expect_status 0 "the durable modes on the loop filesystem" -- "$DISKIO" \
    --mode "$(t_modes durable | paste -sd, -)" --count 50 --warmup 1 \
    -o "$t_scratch/syncs.json" "$t_scratch/fs"
flagged=$("$PYTHON3" -c 'import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
names = [r["mode"] for r in runs if any(v["code"] == "cache_ack" for v in r["verdicts"])]
print(", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names))' \
    "$t_scratch/syncs.json")
lines=$(grep -c "syncs faster than one revolution" "$t_scratch/stdout")
line=$(grep "syncs faster than one revolution" "$t_scratch/stdout")
if [ -z "$flagged" ]; then
    [ "$lines" -eq 0 ] && t_ok "no run is cache_ack here (no rotational disk): no line" ||
        t_fail "a cache_ack line without a cache_ack run: $line"
else
    case $line in
    "$flagged 8 KiB: "*) [ "$lines" -eq 1 ] && t_ok "one line for $flagged" ||
        t_fail "$lines cache_ack lines" ;;
    *) t_fail "the cache_ack line does not name $flagged once: $line" ;;
    esac
    for leaf in $under; do
        if [ "$(basename "$(readlink "/sys/block/$leaf/device/driver" 2>/dev/null)")" = virtio_blk ]; then
            case $line in
            *"($leaf is a virtual disk (virtio): its rotational flag is the hypervisor's default, not the medium's)")
                t_ok "the line says $leaf's rotational flag is the hypervisor's" ;;
            *) t_fail "the line does not say $leaf is a virtio disk: $line" ;;
            esac
        fi
    done
fi

# ---- a loop device over tmpfs, its rotational flag set ----
mkdir "$t_scratch/tm" "$t_scratch/tfs"
if mount -t tmpfs -o size=160m tmpfs "$t_scratch/tm"; then
    truncate -s 120M "$t_scratch/tm/img"
    tloop=$(losetup --sector-size 4096 -f --show "$t_scratch/tm/img")
    extra_loops="$extra_loops $tloop"
    mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$tloop" >/dev/null 2>&1
    mount "$tloop" "$t_scratch/tfs" && extra_mounts="$t_scratch/tfs $extra_mounts"
    if echo 1 >"/sys/block/${tloop#/dev/}/queue/rotational" 2>/dev/null; then
        t_expect_status 0 "fsync, fdatasync on a rotational loop device over tmpfs" -- "$DISKIO" \
            --mode fsync,fdatasync --count 50 --warmup 1 "$t_scratch/tfs"
        grep -qF "fsync and fdatasync 8 KiB: syncs faster than one revolution" "$t_scratch/stdout" &&
            grep -qF "(${tloop#/dev/} is a loop device: its rotational flag is the loop driver's, not a disk's)" \
                "$t_scratch/stdout" &&
            t_ok "the line says the rotational flag is the loop driver's" ||
            t_fail "loop over tmpfs: $(grep 'syncs faster' "$t_scratch/stdout")"
    else
        echo "note: ${tloop#/dev/}'s rotational flag cannot be set: not checked"
    fi
    t_expect_status 0 "uncached reads on a loop device over tmpfs" -- "$DISKIO" --mode read \
        --bs 64k --size 32m --count 100 --warmup 0 "$t_scratch/tfs"
    grep -qF "read 64 KiB: uncached reads came from memory" "$t_scratch/stdout" &&
        grep -qF "(${tloop#/dev/}: its backing file in tmpfs)" "$t_scratch/stdout" &&
        t_ok "uncached reads of a loop device over tmpfs are from memory" ||
        t_fail "loop over tmpfs, reads: $(tail -n 2 "$t_scratch/stdout")"
else
    echo "note: cannot mount a tmpfs here: the loop over tmpfs is not checked"
fi
t_done
