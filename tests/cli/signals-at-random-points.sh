#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a signal at any point of any mode leaves an incomplete result and no file behind.
#
# SIGINT or SIGTERM at random points (while preparing the
# file, during warmup, mid-run, aio and uring with requests in flight),
# every mode, many times: the exit status always names the signal, the
# result is valid JSON marked incomplete, and no test file or temporary
# is left behind.  ITERATIONS (default 27) and SEED (default 1) vary it.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read results"; exit 77; }

iterations=${ITERATIONS:-27}
seed=${SEED:-1}
modes=$(t_modes writes | tr '\n' ' ')
# shellcheck disable=SC2086
nmodes=$(set -- $modes; echo $#)
rand_state=$seed
rand() { # R = 0 .. $1-1: a small LCG, so a failing SEED can be replayed
    rand_state=$(( (rand_state * 1103515245 + 12345) % 2147483648 ))
    R=$(( rand_state / 65536 % $1 ))
}

# In memory (the O_DIRECT modes too where tmpfs takes O_DIRECT): the
# subject is where a signal lands, not how fast the disk is.
t_memory_dir
direct_dir=$t_memory
"$DISKIO" --quiet --mode direct --count 1 --size 1m "$t_memory" >/dev/null 2>&1 || direct_dir=$t_scratch

i=0
while [ $i -lt "$iterations" ]; do
    mode=$(echo $modes | cut -d' ' -f$(( i % nmodes + 1 )))
    rand 400; delay_ms=$R
    rand 2; if [ $R -eq 0 ]; then sig=INT; want=130; else sig=TERM; want=143; fi
    # a large file now and then, so that some signals land in preparation
    rand 4; if [ $R -eq 0 ]; then size=512m; else size=8m; fi
    extra=""
    t_modes queued | grep -qxF "$mode" && extra="--iodepth 16"
    dir="$t_memory/run$i"
    t_modes direct | grep -qxF "$mode" && dir="$direct_dir/run$i"
    mkdir "$dir"
    # shellcheck disable=SC2086
    t_spawn "$DISKIO" --mode "$mode" $extra --size $size --runtime 30 --output "$dir.json" \
        "$dir" >/dev/null 2>"$t_scratch/err"
    pid=$t_pid
    # from the test file's creation on, diskio handles the signal; the
    # delay then lands in preparation, warmup or the run
    t_wait_for_file "$dir"
    sleep "$(printf '0.%03d' "$delay_ms")"
    kill -s $sig $pid
    wait $pid
    status=$?
    what="#$i $mode $sig after ${delay_ms} ms (size $size)"
    if [ "$status" -ne "$want" ]; then
        t_fail "$what: exit $status, expected $want: $(cat "$t_scratch/err")"
    elif [ -n "$(ls -A "$dir")" ]; then
        t_fail "$what: left $(ls -A "$dir")"
    elif ls -A "$(dirname "$dir")" | grep -q "diskio-tmp"; then
        t_fail "$what: temporary output left"
    elif ! "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False
for r in d["runs"]:
    assert r["latency"]["total"]["count"] == r["ops"]
print(len(d["runs"]), "run(s),", sum(r["ops"] for r in d["runs"]), "ops kept", end="; ")
' "$dir.json"; then
        t_fail "$what: result not valid and incomplete"
    else
        t_ok "$what: exit $status"
    fi
    rmdir "$dir" 2>/dev/null
    i=$((i + 1))
done
t_done
