#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the JSON of every kind of run validates against doc/result-schema.json; a wrong field fails.
#
# the real diskio, with small counts, makes every kind of run the
# result format knows: every write and read mode (the uring ones where
# io_uring works; the reads with --verify, --cached, --write-back), the
# patterns (rand, append, create, wal with committers and segment
# switches, checkpoint), --jobs (its own files and --shared-file),
# --repeat, --interval with repetitions,
# --rate, --steady (steady, and not steady over repetitions), --precondition,
# --target (a capacity search of the wal pattern's committers), --percentiles of its own, a suite, --durability against a
# diskio-durable listener on loopback, runs that stop at an error (the
# run's and a job's) and the custom runs of the example programs.  Each
# result validates against the schema (python3-jsonschema, draft
# 2020-12: every object closed, every key required that diskio always
# writes), is read by the analysis package's reader (which refuses a key
# given twice in an object, as two percentiles of one key wrote), and the kinds it
# was made for are in it.  Then results broken one way each (an unknown
# key at each level, a percentile key spelt with a point, a value of the
# wrong type, a required key left out, another schema_version) fail
# validation at the path that was broken.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
"$PYTHON3" -c 'import jsonschema' 2>/dev/null || {
    echo "SKIP: python3-jsonschema is not installed for $PYTHON3"
    echo "      (apt-get install python3-jsonschema; configure with PYTHON=/usr/bin/python3)"
    exit 77
}

out="$t_scratch/results"
dir="$t_scratch/dir"
mkdir "$out" "$dir"
small="--count 20 --size 256k --bs 4k --warmup 2 --quiet"
# run NAME OPTIONS...: diskio's JSON of one kind of run, into $out/NAME.json
run() {
    name=$1
    shift
    # shellcheck disable=SC2086
    t_expect_status 0 "$name" -- "$DISKIO" $small "$@" --output "$out/$name.json" "$dir"
}

# the uring modes where the machine can run io_uring (not: a build
# without liburing, a kernel without io_uring or that disables it)
uring=uring
t_uring_probe
[ -z "$t_uring_why" ] || {
    uring=""
    echo "note: the uring modes are left out: $t_uring_why"
}
# every mode of the library's (tests/mode-facts), the uring ones where
# io_uring works
drop='^$'
[ -n "$uring" ] || drop='^uring'
writes=$(t_modes writes | grep -v "$drop" | paste -sd, -)
reads=$(t_modes reads | grep -v "$drop" | paste -sd, -)
modes="$writes,$reads"
export uring modes
run writes --mode "$writes" --bs 4k,8k
run reads --mode "$reads" --verify
run cached --mode read --cached
run write-back --mode read,direct-read --write-back 50
run rand --mode fdatasync,aio --pattern rand --iodepth 4 --batch 2
run append --mode fsync --pattern append --sync-every 2
run create --mode odsync --pattern create
run jobs --mode "fdatasync,${uring:-aio}" --jobs 1,2
run shared-file --mode fsync --jobs 2 --shared-file
run repeat --mode fdatasync,async --repeat 2
t_expect_status 0 "intervals" -- "$DISKIO" --mode async --runtime 60ms --interval 20ms \
    --repeat 2 --size 256k --bs 4k --quiet --output "$out/intervals.json" "$dir"
run rate --mode fdatasync --rate 2000
run precondition --mode fdatasync --precondition
# --target: a short search (its own points; no --count)
t_expect_status 0 "capacity" -- "$DISKIO" --mode fdatasync --pattern wal --jobs 1,2 \
    --target p99=50ms,time=2s,point=0.2s --size 256k --bs 4k --wal-segment-size 64k --quiet \
    --output "$out/capacity.json" "$dir"
# --steady: a window that is steady at once, and one that never is (in
# two repetitions, each with its own window)
t_expect_status 0 "steady" -- "$DISKIO" --mode async --steady=window=2,range=1000,slope=1000 \
    --runtime 2 --interval 50ms --size 256k --bs 4k --quiet --output "$out/steady.json" "$dir"
t_expect_status 0 "not-steady" -- "$DISKIO" --mode async --steady=window=3,range=1e-9,slope=1e-9 \
    --runtime 200ms --interval 50ms --repeat 2 --size 256k --bs 4k --quiet \
    --output "$out/not-steady.json" "$dir"
run percentiles --mode fsync --percentiles 95,99.999,100,0.001,99.99999999991,99.9900000000001
run wal --mode fdatasync --pattern wal --jobs 2 --wal-segment-size 64k --wal-bytes 4k
run checkpoint --mode fsync --pattern checkpoint --checkpoint-files 2 --checkpoint-pages 8 \
    --checkpoint-flush-after 4 --count 16
t_expect_status 0 "suite" -- "$DISKIO" --suite crystal --suite-runs 2 --suite-max-bs 64k \
    --count 10 --size 1m --quiet --output "$out/suite.json" "$dir"

# runs that stop at an error: a file size limit (no root needed)
t_expect_status 1 "error" -- sh -c "ulimit -f 256 && exec \"\$0\" \"\$@\"" "$DISKIO" --quiet \
    --mode fdatasync --pattern append --size 64m --count 100000 --output "$out/error.json" "$dir"
t_expect_status 1 "job-error" -- sh -c "ulimit -f 256 && exec \"\$0\" \"\$@\"" "$DISKIO" --quiet \
    --mode fdatasync --pattern append --jobs 2 --size 64m --count 100000 \
    --output "$out/job-error.json" "$dir"

# --durability: each write acknowledged to a listener on loopback
if [ -x "$DISKIO_DURABLE" ]; then
    d_listen r1
    t_expect_status 0 "durability" -- "$DISKIO" --durability "$d_listener" --run-id r1 \
        --mode fdatasync --count 20 --size 256k --bs 4k --quiet --output "$out/durability.json" \
        "$t_scratch/durable"
else
    t_unbuilt "$DISKIO_DURABLE"
fi

# custom runs: the example programs linking libdiskio
for example in custom_timing threaded_timing; do
    program="${top_builddir:-.}/examples/$example"
    if [ -x "$program" ]; then
        "$program" "$dir" >"$out/$example.json" 2>"$t_scratch/stderr" ||
            t_fail "$example: exit $?: $(cat "$t_scratch/stderr")"
    else
        t_unbuilt "$program"
    fi
done

"$PYTHON3" - "$out" <<'PY' || t_fail "results against the schema"
import copy, glob, json, os, sys
import schemalib
from diskio_analysis.result import load_result

check = schemalib.validator()
results = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    name = os.path.basename(path)[:-5]
    with open(path, encoding="utf-8") as f:
        results[name] = doc = json.load(f)
    problems = schemalib.errors(check, doc)
    assert not problems, (name, problems[:10])
    load_result(path)           # and the reader takes it
    print(f"ok: {name}: {len(doc['runs'])} runs valid, read")

def runs(name):
    return results[name]["runs"] if name in results else []

# each kind is what its options made it
kinds = {
    "every mode": {r["mode"] for r in runs("writes") + runs("reads")} ==
    set(os.environ["modes"].split(",")),
    "verify": all(r["parameters"]["verify"] for r in runs("reads")),
    "write and sync parts": any(r["latency"]["sync"] for r in runs("writes")),
    "per_job": [len(r["per_job"]) for r in runs("jobs") if r["parameters"]["jobs"] == 2] == [2, 2],
    "repetitions": all(len(r["repetitions"]) == 2 for r in runs("repeat")),
    "intervals": any(iv["repetition"] == 2 for r in runs("intervals")
                     for iv in r["intervals"]["series"]),
    "rate": all(r["rate"] and r["latency"]["service"] for r in runs("rate")),
    "capacity": all(r["capacity"] and r["capacity"]["steps"] and
                    r["capacity"]["steps"][0]["phase"] == "saturation"
                    for r in runs("capacity")),
    "precondition": results["precondition"]["precondition"]["complete"] and
    results["rate"]["precondition"] is None,
    "steady": all(r["steady"]["attained"] and r["steady"]["windows"][0]["latency"]
                  for r in runs("steady")),
    "not steady": all(not r["steady"]["attained"] and len(r["steady"]["windows"]) == 2 and
                      all(w["latency"] is None for w in r["steady"]["windows"])
                      for r in runs("not-steady")),
    "percentiles": {"p95", "p99_999", "p100", "p0_001"} <= set(runs("percentiles")[0]["latency"]["total"]),
    "wal": all(r["wal"] and r["wal"]["segment_switches"] and r["latency"]["switch"]
               for r in runs("wal")),
    "checkpoint": all(r["checkpoint"] for r in runs("checkpoint")),
    "suite": "suite" in results["suite"] and any(row["run"] is None
                                                 for row in results["suite"]["suite"]["rows"]),
    "error": runs("error")[0]["error"]["errno"] is not None,
    "a job's error": runs("job-error")[0]["error"]["job"] is not None and any(
        j["error"] for j in runs("job-error")[0]["per_job"]),
    "durability": "durability" not in results or "durability.run_id" in runs("durability")[0]["params"],
    "custom runs": all(r["parameters"] is None for name in ("custom_timing", "threaded_timing")
                       for r in runs(name)),
}
for kind, present in kinds.items():
    assert present, kind
    print("ok: has", kind)

# broken one way each: validation fails where it was broken
def broken(what, path, change):
    doc = copy.deepcopy(results["rate"])
    change(doc)
    problems = schemalib.errors(check, doc)
    assert problems, f"{what}: validated"
    assert any(p.startswith(path + ":") for p in problems), (what, problems)
    print(f"ok: {what} fails: {problems[0]}")

run0 = lambda d: d["runs"][0]
broken("an unknown top-level key", "(top)", lambda d: d.update(extra=1))
broken("an unknown key in the environment", "environment/target",
       lambda d: d["environment"]["target"].update(fstype="ext4"))
broken("an unknown key in a run", "runs/0", lambda d: run0(d).update(latency_ns=1))
broken("an unknown key in the parameters", "runs/0/parameters",
       lambda d: run0(d)["parameters"].update(queue_depth=1))
broken("an unknown key in rate", "runs/0/rate", lambda d: run0(d)["rate"].update(lag=1))
broken("an unknown key in a HIST", "runs/0/latency/total",
       lambda d: run0(d)["latency"]["total"].update(median=1))
broken("a percentile key with a point", "runs/0/latency/total",
       lambda d: run0(d)["latency"]["total"].update({"p99.9": 1}))
devices = [r["device"] for doc in results.values() for r in doc["runs"] if r["device"]]
if devices:     # none on tmpfs
    broken("depth in the device total", "runs/0/device/total",
           lambda d: run0(d).update(device=dict(devices[0], total=dict(devices[0]["total"],
                                                                       depth=0))))
broken("ops as a string", "runs/0/ops", lambda d: run0(d).update(ops="20"))
broken("a negative count", "runs/0/latency/total/count",
       lambda d: run0(d)["latency"]["total"].update(count=-1))
broken("a bucket of two numbers", "runs/0/latency/total/buckets/0",
       lambda d: run0(d)["latency"]["total"]["buckets"].__setitem__(0, [1, 2]))
broken("rate left out", "runs/0", lambda d: run0(d).pop("rate"))
broken("the summary's p99_9 left out", "runs/0/latency/total",
       lambda d: run0(d)["latency"]["total"].pop("p99_9"))
broken("an unknown verdict", "runs/0/verdicts/0/code",
       lambda d: run0(d).update(verdicts=[{"code": "fast", "message": "m"}]))
broken("schema_version 3", "schema_version", lambda d: d.update(schema_version=3))
PY
t_done
