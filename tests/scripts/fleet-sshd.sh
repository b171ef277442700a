#!/bin/bash
# Description: diskio-fleet collects every host's result through real ssh, pdsh and clush.
#
# diskio-fleet against real sshd servers: three sshd started
# by this test on loopback ports inside its own network namespace (nothing
# listens outside it), with a throw-away key.  Each "host" runs the built
# diskio in a directory of its own.  Through ssh, pdsh and clush: every
# host's result lands in LAB/HOST/result.json labelled with the host's
# name and diskio-compare's table ends the output; a host whose sshd is
# stopped is reported unreachable (exit 1) while the others are collected;
# a diskio failure on one host is reported with diskio's exit status and
# diskio's own message, through ssh, pdsh and clush alike (never only the
# engine's "ssh exited with exit code 3"); a hostile argument reaches
# diskio as one word and runs nothing remotely.
# --pgphases brings a (stand-in) diskio-pgphases' files back beside the
# result.  Root only; skips (77) without ip netns, sshd or ssh.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-$(cd "$here/../.." && pwd)}
python=${PYTHON3:-python3}
fleet="$top_builddir/scripts/diskio-fleet"

# the namespace, the keys and the sshd servers (shared with other tests)
. "$here/../lib/sshd-netns.sh"

skip() { echo "SKIP: $*"; exit 77; }
sshd_netns_missing
[ -z "$sshd_netns_why" ] || skip "$sshd_netns_why"
[ -n "${DISKIO:-}" ] && [ -x "$DISKIO" ] ||
    { echo "FAIL: \$DISKIO (${DISKIO:-unset}) is not an executable diskio, yet make check builds it"; exit 1; }

ns="diskio-fleet-$$"
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-fleet-test.XXXXXX") || exit 1
cleanup() {
    sshd_netns_cleanup
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

failures=0
check() {   # check DESCRIPTION COMMAND...
    local what=$1; shift
    if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}

sshd_netns_setup || skip "cannot create the network namespace and keys"

# the "remote" diskio: the built one, run in the host's own directory
# (sshd's SetEnv says which), so that each host measures its own target;
# the hosts' TMPDIR is this test's, so that the remote temporaries it
# checks for are its own, not those of another run of it on this machine
cat >"$work/remote-diskio" <<EOS
#!/bin/sh
cd "\$FLEET_HOME" || exit 3
ls -d "\${TMPDIR:-/tmp}"/diskio-fleet.* >>tmp-seen 2>/dev/null
exec "$DISKIO" "\$@"
EOS
chmod +x "$work/remote-diskio"

ports="22201 22202 22203"
i=0
for port in $ports; do
    i=$((i + 1))
    mkdir -p "$work/home-db$i/target" "$work/remote-tmp"
    sshd_netns_start "db$i" "$port" "SetEnv FLEET_HOME=$work/home-db$i TMPDIR=$work/remote-tmp"
done
# wait for the three to listen (inside the namespace)
sshd_netns_wait $ports
n=$(ip netns exec "$ns" ss -ltn 2>/dev/null | grep -c '127.0.0.1:2220[123]')
check "the three sshd listen inside the namespace" test "$n" -eq 3
check "none of them listens outside it" \
    test -z "$(ss -ltn 2>/dev/null | grep '127.0.0.1:2220[123]')"

fleet() {   # fleet LAB OUT [FLEET ARGS...] -- [DISKIO ARGS...]
    local lab=$1 out=$2; shift 2
    ip netns exec "$ns" "$python" "$fleet" -F "$work/ssh_config" \
        --diskio "$work/remote-diskio" --lab "$work/$lab" --timeout 120 "$@" \
        >"$work/$out.out" 2>"$work/$out.err"
}
label_of() { "$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["label"])' "$1"; }
diskio_args="--mode fsync,async --count 20 --size 256k target"
# The engines' runs of one case are independent (each its own lab and
# outputs; every diskio makes a file of its own in the host's target):
# fleet_bg starts one in the background, fleet_wait waits for them all,
# status_of OUT says how one ended.
bg_pids=""
fleet_bg() {
    local out=$2
    (fleet "$@"; echo $? >"$work/$out.status") &
    bg_pids="$bg_pids $!"
}
fleet_wait() {
    local pid
    for pid in $bg_pids; do wait "$pid"; done
    bg_pids=""
}
status_of() { cat "$work/$1.status" 2>/dev/null || echo none; }

transports=ssh
for transport in pdsh clush; do
    if command -v $transport >/dev/null 2>&1; then
        transports="$transports $transport"
    else
        echo "skip $transport: not installed"
    fi
done

start=$(date +%s)
for transport in $transports; do
    # shellcheck disable=SC2086
    fleet_bg "lab-$transport" "$transport" --transport $transport -w 'db[1-3]' -- $diskio_args
done
fleet_wait
for transport in $transports; do
    status=$(status_of "$transport")
    check "$transport: three reachable hosts exit 0" test "$status" -eq 0
    [ "$status" -eq 0 ] || cat "$work/$transport.out" "$work/$transport.err" "$work"/lab-$transport/*/diskio.log
    for h in db1 db2 db3; do
        r="$work/lab-$transport/$h/result.json"
        check "$transport: $h's result collected" test -s "$r"
        check "$transport: $h's result labelled $h" test "$(label_of "$r" 2>/dev/null)" = "$h"
    done
    check "$transport: the summary names every host ok" \
        test "$(grep -c '^  db[123]  *ok ' "$work/$transport.out")" -eq 3
    check "$transport: diskio-compare's table ends the output" \
        grep -q "^db2 vs db1" "$work/$transport.out"
    check "$transport: the remote temporary was made in the hosts' TMPDIR" \
        grep -q "^$work/remote-tmp/diskio-fleet\." "$work/home-db1/tmp-seen"
    check "$transport: no remote temporary left behind" \
        test -z "$(ls -A "$work/remote-tmp")"
done

# --pgphases: a stand-in diskio-pgphases (PostgreSQL is not what is
# tested here) writes its files where --output says; they come back
cat >"$work/remote-pgphases" <<'EOS'
#!/bin/sh
out=
for a in "$@"; do [ "$prev" = --output ] && out=$a; prev=$a; done
mkdir -p "$out" || exit 3
printf '%s\n' "$@" >"$out/q_time.csv"
echo "phase,wal" >"$out/wal.csv"
echo '{}' >"$out/settings.json"
EOS
chmod +x "$work/remote-pgphases"
for transport in $transports; do
    # shellcheck disable=SC2086
    fleet_bg "lab-pg-$transport" "pg-$transport" --transport $transport -w 'db[1-2]' \
        --pgphases "target --sf 0.1" --diskio-pgphases "$work/remote-pgphases" -- $diskio_args
done
fleet_wait
for transport in $transports; do
    check "$transport --pgphases: exit 0" test "$(status_of "pg-$transport")" -eq 0
    for h in db1 db2; do
        check "$transport --pgphases: $h's q_time.csv, wal.csv and settings.json beside its result" \
            test -s "$work/lab-pg-$transport/$h/q_time.csv" -a -s "$work/lab-pg-$transport/$h/wal.csv" \
            -a -s "$work/lab-pg-$transport/$h/settings.json" -a -s "$work/lab-pg-$transport/$h/result.json"
    done
    check "$transport --pgphases: its arguments as given" \
        test "$(head -3 "$work/lab-pg-$transport/db1/q_time.csv" | tr '\n' ' ')" = "target --sf 0.1 "
done

# one --label for every host: one environment, nothing to compare; the
# hosts all gave their results, so the status is 0
# shellcheck disable=SC2086
fleet lab-onelabel onelabel --transport ssh -w 'db[1-2]' -- --label same $diskio_args
check "one --label for every host: exit 0" test $? -eq 0
check "one --label for every host: a line says why there is no comparison" \
    grep -q "^no comparison: " "$work/onelabel.out"
check "one --label for every host: both results kept with that label" \
    test "$(label_of "$work/lab-onelabel/db2/result.json" 2>/dev/null)" = same

# a diskio failure on one host: db2's target is a directory of /proc,
# where no test file can be made (diskio's exit status 3)
rmdir "$work/home-db2/target"
ln -s /proc/self "$work/home-db2/target"
for transport in $transports; do
    # shellcheck disable=SC2086
    fleet_bg "lab-fail-$transport" "fail-$transport" --transport $transport -w 'db1,db2' -- $diskio_args
done
fleet_wait
for transport in $transports; do
    check "$transport: a host whose diskio fails: exit 1" test "$(status_of "fail-$transport")" -eq 1
    check "$transport: its failure is reported with diskio's exit status and diskio's own message" \
        grep -qE '^  db2  *failed +diskio exit status 3: diskio: ' "$work/fail-$transport.out"
    check "$transport: the other host is still collected" \
        test -s "$work/lab-fail-$transport/db1/result.json"
done
rm "$work/home-db2/target"; mkdir "$work/home-db2/target"

# a host whose sshd is stopped
kill "$(cat "$work/sshd-db3.pid")"
for _ in $(seq 1 50); do
    ip netns exec "$ns" ss -ltn | grep -q '127.0.0.1:22203' || break
    sleep 0.1
done
for transport in $transports; do
    # shellcheck disable=SC2086
    fleet_bg "lab-down-$transport" "down-$transport" --transport $transport -w 'db[1-3]' -- $diskio_args
done
fleet_wait
for transport in $transports; do
    check "$transport: a stopped sshd makes exit 1" test "$(status_of "down-$transport")" -eq 1
    check "$transport: db3 is reported unreachable" \
        grep -qE '^  db3  *unreachable' "$work/down-$transport.out"
    check "$transport: db1 and db2 are still collected" \
        test -s "$work/lab-down-$transport/db1/result.json" -a -s "$work/lab-down-$transport/db2/result.json"
    check "$transport: db3 has no result" test ! -e "$work/lab-down-$transport/db3/result.json"
    check "$transport: the comparison of the two others is there" \
        grep -q "^db2 vs db1" "$work/down-$transport.out"
done

# a hostile argument is one word on the host and for every local shell on
# the way: nothing runs
hostile="x\$(touch $work/pwned)\`touch $work/pwned3\`;touch $work/pwned2 'y\""
for transport in $transports; do
    # shellcheck disable=SC2086
    fleet_bg "lab-hostile-$transport" "hostile-$transport" --transport $transport -w db1 -- \
        --label "$hostile" $diskio_args
done
fleet_wait
for transport in $transports; do
    check "$transport: a hostile label runs no command, here or on the host" \
        test ! -e "$work/pwned" -a ! -e "$work/pwned2" -a ! -e "$work/pwned3"
    check "$transport: it reaches diskio as it was given" \
        test "$(label_of "$work/lab-hostile-$transport/db1/result.json" 2>/dev/null)" = "$hostile"
done

echo "fleet runs took $(( $(date +%s) - start )) s"
if [ $failures -ne 0 ]; then
    echo "$failures check(s) failed"
    for f in "$work"/*.out "$work"/*.err "$work"/sshd-*.log; do echo "== $f"; cat "$f"; done
    exit 1
fi
echo "all checks passed"
