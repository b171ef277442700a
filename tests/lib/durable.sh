# SPDX-License-Identifier: MIT
# Helpers for the durability tests: sourced, not run (after
# tests/lib/cli.sh).  A listener (diskio-durable) on loopback with a port
# of its own choosing, and the lying store (tests/durable/lying-store)
# mounted by the test, its "power cut" (SIGKILL of its daemon) and its
# remount from the same backing file.  Everything started is stopped,
# unmounted and removed when the test exits, on every path.

: "${DISKIO_DURABLE:=${top_builddir:-.}/diskio-durable}"
d_store_bin="${top_builddir:-.}/tests/durable/lying-store"
d_lpid=""
d_spid=""
d_mnt="$t_scratch/mnt"
d_acks="$t_scratch/acks"
d_extra_cleanup=""

d_cleanup() {
    [ -n "$d_spid" ] && kill -KILL "$d_spid" 2>/dev/null
    # a dead store's mount cannot even be stat()ed: unmount whatever is
    # there without asking, as long as /proc/mounts lists it
    for _ in 1 2 3 4 5 6 7 8; do
        grep -q " $d_mnt fuse" /proc/mounts 2>/dev/null || break
        fusermount3 -u -z "$d_mnt" 2>/dev/null || umount -l "$d_mnt" 2>/dev/null || break
    done
    [ -n "$d_lpid" ] && kill -TERM "$d_lpid" 2>/dev/null && wait "$d_lpid" 2>/dev/null
    [ -n "$d_extra_cleanup" ] && eval "$d_extra_cleanup"
    t_remove_scratch
}
trap d_cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

d_skip() {
    echo "SKIP: $*"
    exit 77
}

# Skip (77) where the lying store cannot run: no root, no /dev/fuse, no
# fusermount3, or a build without libfuse3 (configure said so).
d_need_fuse() {
    [ "$(id -u)" -eq 0 ] || d_skip "needs root to mount the FUSE store"
    [ -c /dev/fuse ] || d_skip "no /dev/fuse (FUSE is not available)"
    command -v fusermount3 >/dev/null 2>&1 || d_skip "fusermount3 is not installed (fuse3)"
    command -v mountpoint >/dev/null 2>&1 || d_skip "mountpoint is not installed (util-linux)"
    [ -x "$d_store_bin" ] || d_skip "no lying store: built without libfuse3-dev"
}

# d_listen RUNID...: a listener on 127.0.0.1, any free port (d_port),
# recording in $d_acks, expecting the run ids given, with the options in
# $d_listen_opts (e.g. its bounds) if set.
# Its output goes to $d_log ($t_scratch/listener.log for the first, a
# file of its own for each later one).
d_nlisteners=0
d_listen() {
    mkdir -p "$d_acks"
    d_log=$t_scratch/listener.log
    [ "$d_nlisteners" -gt 0 ] && d_log=$t_scratch/listener-$d_nlisteners.log
    d_nlisteners=$((d_nlisteners + 1))
    set -- $(for id in "$@"; do printf -- '--expect %s ' "$id"; done)
    # shellcheck disable=SC2086
    "$DISKIO_DURABLE" listen --dir "$d_acks" --port 0 ${d_listen_opts:-} "$@" >"$d_log" 2>&1 &
    d_lpid=$!
    d_port=""
    for _ in $(seq 100); do
        d_port=$(sed -n 's/^diskio-durable: listening on 127\.0\.0\.1 port \([0-9]*\);.*/\1/p' \
            "$d_log" 2>/dev/null)
        [ -n "$d_port" ] && break
        sleep 0.05
    done
    [ -n "$d_port" ] || { t_fail "the listener did not start: $(cat "$d_log")"; t_done; }
    d_listener="127.0.0.1:$d_port"
}

# d_mount MODE [STORE-OPTIONS...]: the lying store over
# $t_scratch/backing, mounted at $d_mnt, its counters in $t_scratch/stats.
d_mount() {
    # one store at a time: a test that stopped checking half way leaves
    # its store to the next mount's cut
    [ -n "$d_spid" ] && d_power_cut
    mkdir -p "$d_mnt"
    "$d_store_bin" --backing "$t_scratch/backing" --stats "$t_scratch/stats" --mode "$@" \
        "$d_mnt" >"$t_scratch/store.log" 2>&1 &
    d_spid=$!
    for _ in $(seq 100); do
        mountpoint -q "$d_mnt" && return 0
        kill -0 "$d_spid" 2>/dev/null || break
        sleep 0.05
    done
    wait "$d_spid"
    [ $? -eq 77 ] && d_skip "FUSE cannot mount here: $(cat "$t_scratch/store.log")"
    t_fail "the store did not mount: $(cat "$t_scratch/store.log")"
    t_done
}

# The power cut: the store's daemon killed with what its cache held,
# its dead mount taken away.  d_mount again to see what survived.
d_power_cut() {
    [ -n "$d_spid" ] && kill -KILL "$d_spid" 2>/dev/null
    [ -n "$d_spid" ] && wait "$d_spid" 2>/dev/null
    d_spid=""
    fusermount3 -u -z "$d_mnt" 2>/dev/null || umount -l "$d_mnt" 2>/dev/null
}

# The store's counter NAME (dirty_blocks, syncs, lied_syncs, writebacks,
# writes), from its last update.
d_stat() {
    sed -n "s/^$1 //p" "$t_scratch/stats"
}

# d_field KEY FILE: the number after "KEY: " in a verify report.
d_field() {
    sed -n "s/^$1: \([0-9]*\).*/\1/p" "$2"
}

# d_expect_counts REPORT WHAT present=N lost=N torn=N ...: every count
# named is the report's.
d_expect_counts() {
    report=$1; what=$2; shift 2
    d_ok=true
    for kv in "$@"; do
        key=${kv%%=*}; want=${kv#*=}
        case $key in
            acknowledged) line="acknowledged writes" ;;
            present) line="acknowledged and present" ;;
            later) line="acknowledged and present under a later write" ;;
            lost) line="acknowledged and lost" ;;
            torn) line="acknowledged and torn" ;;
            overwritten) line="acknowledged, then overwritten by a later acknowledged write" ;;
            unacknowledged) line="written but never acknowledged" ;;
        esac
        got=$(d_field "$line" "$report")
        if [ "$got" != "$want" ]; then
            t_fail "$what: $line is '$got', expected $want; report: $(cat "$report")"
            d_ok=false
        fi
    done
    $d_ok && t_ok "$what: $*"
}

# d_fake_listen ANSWER RUNID: a hostile listener (tests/lib/fake-listener.py)
# on 127.0.0.1, answering every query with ANSWER (empty, endless, huge,
# trickle); its address in d_fake.  One at a time: a new one replaces the
# last; the last is stopped when the test exits.
d_fpid=""
d_fake_listen() {
    [ -n "$d_fpid" ] && kill "$d_fpid" 2>/dev/null && wait "$d_fpid" 2>/dev/null
    [ -z "$d_fpid" ] && d_extra_cleanup="${d_extra_cleanup:+$d_extra_cleanup; }"'[ -n "$d_fpid" ] && kill "$d_fpid" 2>/dev/null'
    rm -f "$t_scratch/fake.port"
    "${PYTHON3:-python3}" "${top_srcdir:-.}/tests/lib/fake-listener.py" "$t_scratch/fake.port" \
        "$1" "$2" 2>"$t_scratch/fake.log" &
    d_fpid=$!
    for _ in $(seq 100); do
        [ -s "$t_scratch/fake.port" ] && break
        sleep 0.05
    done
    [ -s "$t_scratch/fake.port" ] || { t_fail "the fake listener did not start: $(cat "$t_scratch/fake.log")"; t_done; }
    d_fake="127.0.0.1:$(cat "$t_scratch/fake.port")"
}
