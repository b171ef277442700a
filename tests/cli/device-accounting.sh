#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: each run records what the block devices under the target did, through the whole stack.
#
# every run records what the block devices under the target
# did during its measured ops, and the probe sees through the stack.  On
# two loop devices made here (4096-byte logical sectors): a journaled ext4
# and an ext4 without a journal mounted nobarrier.  fsync and fdatasync
# reach the device (at least one device write and one flush per op where
# the loop device's cache is volatile) and the device's time on the
# flushes lies within the syncs'; async leaves the device idle
# during the run; fdatasync on nobarrier sends no flush and is called
# "not a durable latency" in the JSON and under the text table; the probe
# names the loop device's backing file and the filesystem and disk under
# it, tells the journaled ext4 from the other, and finds the device under
# an overlay's upper layer.  Needs root, losetup and mkfs.ext4; skipped
# otherwise (and the overlay part where overlayfs cannot be mounted).
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
t_loop_fs journaled 160M "" rw
jdev=$t_loop_dev
t_loop_fs nojournal 160M "-O ^has_journal" rw,nobarrier
ndev=$t_loop_dev
jname=${jdev#/dev/}
echo "loop devices: $jname (write cache: $(cat /sys/block/$jname/queue/write_cache)," \
    "fua $(cat /sys/block/$jname/queue/fua)), ${ndev#/dev/}"

t_expect_status 0 "four modes on the journaled ext4" -- "$DISKIO" --mode fsync,fdatasync,async,aio \
    --count 200 --bs 8k --size 8M --format json --output "$t_scratch/j.json" "$t_scratch/journaled"
grep -q "dev I/O/op · flush/op  us/I/O · us/flush" "$t_scratch/stdout" &&
    t_ok "the table shows dev I/O/op · flush/op and the device's us per request" ||
    t_fail "no device column: $(cat "$t_scratch/stdout")"

t_expect_status 0 "fdatasync on ext4 without journal, nobarrier" -- "$DISKIO" --mode fdatasync \
    --count 200 --bs 8k --size 8M --format json --output "$t_scratch/n.json" "$t_scratch/nojournal"
if [ "$(cat /sys/block/${ndev#/dev/}/queue/write_cache)" = "write back" ]; then
    grep -q "fdatasync 8 KiB: syncs did not reach the device: not a durable latency" \
        "$t_scratch/stdout" && t_ok "nobarrier: the verdict is printed under the table" ||
        t_fail "nobarrier: no verdict under the table: $(cat "$t_scratch/stdout")"
fi

# overlayfs: its writes go to the upper layer, here on the journaled ext4
overlay=no
mkdir "$t_scratch/lower" "$t_scratch/journaled/upper" "$t_scratch/journaled/work" \
    "$t_scratch/merged"
if mount -t overlay overlay -o "lowerdir=$t_scratch/lower,upperdir=$t_scratch/journaled/upper,workdir=$t_scratch/journaled/work" \
    "$t_scratch/merged" 2>/dev/null; then
    t_loop_mounts="$t_scratch/merged $t_loop_mounts"
    overlay=yes
    t_expect_status 0 "fdatasync on an overlay over the journaled ext4" -- "$DISKIO" \
        --mode fdatasync --count 100 --bs 8k --size 8M --format json \
        --output "$t_scratch/o.json" "$t_scratch/merged"
else
    echo "note: cannot mount overlayfs here; its checks are skipped"
fi

"${PYTHON3:-python3}" - "$t_scratch" "$jdev" "$ndev" "$overlay" <<'EOF' || t_fail "the result's device figures (above)"
import json, os, sys
scratch, jdev, ndev, overlay = sys.argv[1:]
failures = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)

def cache(dev):
    with open(f"/sys/block/{os.path.basename(dev)}/queue/write_cache") as f:
        return f.read().strip()

j = json.load(open(os.path.join(scratch, "j.json")))
n = json.load(open(os.path.join(scratch, "n.json")))
check(j["schema_version"] == 2, "schema version 2")
runs = {r["mode"]: r for r in j["runs"]}
jname = os.path.basename(jdev)
for mode, r in runs.items():
    dev = r["device"]
    check(dev is not None and dev["devices"][0]["name"] == jname
          and dev["devices"][0]["depth"] == 0, f"{mode}: counted on {jname}")
    if len(dev["devices"]) > 1:
        check(dev["devices"][1]["depth"] == 1 and not dev["devices"][1]["own_io"],
              f"{mode}: the backing file's disk is counted below it")
    t = dev["total"]
    print(f"   {mode}: {t['writes_per_op']:.2f} writes/op, "
          f"{t['merges_per_op']:.2f} merges/op, flushes/op {t['flushes_per_op']}, "
          f"KiB/write {t['kib_per_write']}, verdicts {[v['code'] for v in r['verdicts']]}")
volatile = cache(jdev) == "write back"
for mode in ("fsync", "fdatasync"):
    t = runs[mode]["device"]["total"]
    check(t["writes_per_op"] >= 1.0, f"{mode}: at least one device write per op")
    if volatile and t["flushes"] is not None:
        check(t["flushes_per_op"] >= 0.95, f"{mode}: a device flush per op (volatile cache)")
    check("sync_not_flushed" not in [v["code"] for v in runs[mode]["verdicts"]],
          f"{mode}: no 'syncs did not reach the device' verdict")
    # the device's own time: its requests ran inside the syncs, one at a
    # time (one writer), so the flushes' summed milliseconds cannot exceed
    # the syncs' (the kernel's whole milliseconds: 1 ms of slack)
    sync_ms = runs[mode]["latency"]["sync"]["mean"] * runs[mode]["ops"] / 1e6
    print(f"   {mode}: device {t['write_ms']} ms writing, {t['flush_ms']} ms flushing, "
          f"{t['us_per_write']} us/write, {t['us_per_flush']} us/flush; syncs {sync_ms:.1f} ms")
    check(t["write_ms"] + (t["flush_ms"] or 0) >= 1, f"{mode}: the device's requests took time")
    if t["flushes"] is not None:
        check(t["flush_ms"] <= sync_ms + 1, f"{mode}: the flushes' time lies within the syncs'")
    for kind, count in (("write", t["writes"]), ("flush", t["flushes"])):
        ms, mean = t[f"{kind}_ms"], t[f"us_per_{kind}"]
        check(mean is None if not count or ms is None or ms < 20
              else abs(mean - 1000.0 * ms / count) < 1e-6 * mean,
              f"{mode}: us_per_{kind} is {kind}_ms over the requests, from 20 ms of them")
check(runs["async"]["device"]["total"]["writes_per_op"] < 0.1,
      "async: the device stays (almost) idle during the run")
check(runs["aio"]["device"]["total"]["write_sectors"] > 0, "aio: its O_DIRECT writes are counted")

env = j["environment"]["target"]
check(env["device"]["name"] == jname and env["device"]["logical_block_size"] == 4096,
      "probe: the loop device with its 4096-byte sectors")
check(env["loop"] is not None
      and env["loop"]["backing_file"] == os.path.join(os.path.realpath(scratch), "journaled.img"),
      f"probe: the backing file ({env['loop']})")
check(env["loop"] and env["loop"]["backing_filesystem"] and env["loop"]["backing_mount_point"],
      "probe: the backing file's filesystem and mount point")
check(env["ext4"] == {"journal": True, "data_mode": "ordered"},
      f"probe: journaled ext4, data=ordered ({env['ext4']})")
check([d["name"] for d in env["devices"]][:1] == [jname], "probe: the device list starts at the loop device")
check(all(d["write_cache"] in ("write back", "write through") and d["fua"] in (True, False)
          for d in env["devices"]), "probe: write_cache and fua of every device")
if os.path.exists("/sys/devices/system/clocksource/clocksource0/current_clocksource"):
    check(bool(j["environment"]["timer"]["clocksource"]), "probe: the clocksource")

nenv = n["environment"]["target"]
check(nenv["ext4"] is not None and nenv["ext4"]["journal"] is False
      and nenv["ext4"]["data_mode"] is None, f"probe: ext4 without a journal ({nenv['ext4']})")
nrun = n["runs"][0]
nt = nrun["device"]["total"]
print(f"   nobarrier fdatasync: {nt['writes_per_op']:.2f} writes/op, flushes {nt['flushes']}")
if cache(ndev) == "write back" and nt["flushes"] is not None:
    check(nt["flushes"] == 0, "nobarrier: no flush reached the device")
    check("sync_not_flushed" in [v["code"] for v in nrun["verdicts"]],
          "nobarrier: 'syncs did not reach the device' in the JSON")

if overlay == "yes":
    o = json.load(open(os.path.join(scratch, "o.json")))
    oenv = o["environment"]["target"]
    check(oenv["filesystem"] == "overlay" and oenv["overlay"] is not None
          and oenv["overlay"]["upperdir"] == os.path.join(os.path.realpath(scratch), "journaled", "upper")
          and oenv["overlay"]["upper_filesystem"] == "ext4",
          f"overlay: the upper layer and its filesystem ({oenv['overlay']})")
    check([d["name"] for d in oenv["devices"]][:1] == [jname],
          "overlay: the device under the upper layer is found")
    od = o["runs"][0]["device"]
    check(od is not None and od["total"]["writes_per_op"] >= 1.0,
          "overlay: fdatasync's device writes are counted")
sys.exit(1 if failures else 0)
EOF
t_done
