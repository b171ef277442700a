#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the JSON result of real runs has every field the schema promises, consistent.
#
# the JSON result of a real run (fsync with group commit, aio
# at queue depth 8, a --bs sweep) parses with Python's json module and has
# the fields doc/result-schema.md promises, with consistent numbers.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to parse JSON"; exit 77; }

dir="$t_scratch/dir"
mkdir "$dir"
t_expect_status 0 "diskio --format json" -- "$DISKIO" --mode fsync,async,aio --iodepth 8 \
    --sync-every 2 --bs 4k,64k --count 64 --label "env A" --output "$t_scratch/r.json" \
    --quiet "$dir" || t_done
t_expect_empty_dir "$dir" "test file removed"
[ -s "$t_scratch/stdout" ] && t_fail "--quiet printed to stdout"

"$PYTHON3" - "$t_scratch/r.json" <<'PY' || t_fail "JSON checks"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "diskio-result" and d["schema_version"] == 2
assert d["label"] == "env A" and d["complete"] is True
assert d["tool"]["name"] == "diskio" and d["tool"]["version"]
env = d["environment"]
for key in ("hostname", "kernel", "cpu", "memory_bytes", "timer", "target"):
    assert key in env, key
assert env["target"]["directory"].endswith("/dir")
runs = d["runs"]
assert [(r["mode"], r["parameters"]["block_size"]) for r in runs] == [
    ("fsync", 4096), ("async", 4096), ("aio", 4096),
    ("fsync", 65536), ("async", 65536), ("aio", 65536)], runs
for r in runs:
    p = r["parameters"]
    assert r["ops"] == 64 and p["count"] == 64 and p["runtime_s"] is None
    assert r["bytes"] == 64 * p["block_size"]
    assert r["complete"] and r["error"] is None
    assert abs(r["ops_per_s"] - r["ops"] / (r["duration_ns"] / 1e9)) < 1e-6 * r["ops_per_s"]
    t = r["latency"]["total"]
    assert t["count"] == 64
    assert sum(b[2] for b in t["buckets"]) == 64
    assert t["min"] <= t["p50"] <= t["p90"] <= t["p99"] <= t["p99_9"] <= t["p99_99"] <= t["max"]
    if r["mode"] == "fsync":
        assert p["sync_every"] == 2 and p["open_flags"] == "O_WRONLY"
        assert r["latency"]["write"]["count"] == 64
        assert r["latency"]["sync"]["count"] == 32
    elif r["mode"] == "aio":
        assert p["iodepth"] == 8 and p["open_flags"] == "O_WRONLY|O_DIRECT"
        assert r["latency"]["sync"] is None
print("JSON ok:", len(runs), "runs")
PY
t_done
