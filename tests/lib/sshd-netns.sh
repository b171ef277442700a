# SPDX-License-Identifier: MIT
# sshd servers inside a network namespace of the test's own, with a
# throw-away key: sourced (not run) by the tests that need a real ssh
# server (tests/scripts/fleet-sshd.sh, tests/cli/suite-sshfs.sh).  Nothing
# listens outside the namespace; each sshd gets a private tmpfs /run for
# its privilege separation directory, so nothing outside the test is
# touched.  A session's HOME is an empty directory of the test's, so that
# the login shell runs no rc file of the machine's user (root's
# ~/.bashrc, which bash reads under sshd, can take 0.1 s of CPU a
# session); the client uses the curve25519 key exchange (OpenSSH's
# default, the post-quantum hybrid, costs the client 60 ms of CPU a
# connection, and the key exchange is not what these tests test).  The caller sets $work (a scratch directory) and $ns (the
# namespace's name), calls sshd_netns_cleanup from its EXIT trap, and
# skips (77) when sshd_netns_missing names a missing piece.

sshd_pids=""

# Why the pieces are not there, in $sshd_netns_why (empty when they
# are); $sshd is the sshd found.
sshd_netns_missing() {
    sshd_netns_why=""
    sshd=$(command -v sshd || echo /usr/sbin/sshd)
    if [ "$(id -u)" -ne 0 ]; then
        sshd_netns_why="needs root (network namespace, sshd)"
    elif ! command -v ip >/dev/null 2>&1; then
        sshd_netns_why="ip (iproute2) is not installed"
    elif [ ! -x "$sshd" ]; then
        sshd_netns_why="sshd (openssh-server) is not installed"
    elif ! command -v ssh >/dev/null 2>&1; then
        sshd_netns_why="ssh (openssh-client) is not installed"
    elif ! command -v ssh-keygen >/dev/null 2>&1; then
        sshd_netns_why="ssh-keygen is not installed"
    elif ! command -v unshare >/dev/null 2>&1; then
        sshd_netns_why="unshare (util-linux) is not installed"
    fi
}

# The namespace with its loopback up, and the keys: the client's in
# $work/client_key, authorized by every sshd started here.  0, or 1 with
# the reason on stderr (the namespace cannot be made: skip).
sshd_netns_setup() {
    ip netns add "$ns" || return 1
    ip netns exec "$ns" ip link set lo up || { echo "cannot bring up lo in $ns" >&2; return 1; }
    ssh-keygen -q -t ed25519 -N '' -f "$work/client_key" || return 1
    ssh-keygen -q -t ed25519 -N '' -f "$work/host_key" || return 1
    cp "$work/client_key.pub" "$work/authorized_keys"
    mkdir -p "$work/sshd-home"
    : >"$work/ssh_config"
}

# sshd_netns_start NAME PORT [EXTRA-SSHD-CONFIG-LINE...]: an sshd on
# 127.0.0.1:PORT inside the namespace (sftp included, for sshfs), and a
# Host NAME entry for it in $work/ssh_config (user root, the client key).
sshd_netns_start() {
    local name=$1 port=$2
    shift 2
    {
        cat <<EOS
ListenAddress 127.0.0.1
Port $port
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile $work/sshd-$name.pid
Subsystem sftp internal-sftp
EOS
        # sshd takes the first SetEnv line only: one line for them all
        local setenv="HOME=$work/sshd-home" line
        for line in "$@"; do
            case $line in
            "SetEnv "*) setenv="$setenv ${line#SetEnv }" ;;
            *) echo "$line" ;;
            esac
        done
        echo "SetEnv $setenv"
    } >"$work/sshd-$name.conf"
    ip netns exec "$ns" unshare -m --propagation private sh -c \
        'mount -t tmpfs -o mode=755 tmpfs /run && mkdir -m 755 /run/sshd && exec "$0" -D -e -f "$1"' \
        "$sshd" "$work/sshd-$name.conf" 2>"$work/sshd-$name.log" &
    sshd_pids="$sshd_pids $!"
    cat >>"$work/ssh_config" <<EOS
Host $name
    HostName 127.0.0.1
    Port $port
    User root
    IdentityFile $work/client_key
    IdentitiesOnly yes
    UserKnownHostsFile $work/known_hosts
    StrictHostKeyChecking accept-new
    KexAlgorithms curve25519-sha256
    LogLevel ERROR
EOS
}

# sshd_netns_wait PORT...: until every port listens inside the namespace
# (5 s at most).  0 when they all do.
sshd_netns_wait() {
    local want=$# n=0 port
    for _ in $(seq 1 50); do
        n=0
        for port in "$@"; do
            ip netns exec "$ns" ss -ltn 2>/dev/null | grep -q "127.0.0.1:$port " && n=$((n + 1))
        done
        [ "$n" -eq "$want" ] && return 0
        sleep 0.1
    done
    return 1
}

# Every sshd started here stopped, the namespace removed.
sshd_netns_cleanup() {
    local pidfile pid
    for pidfile in "$work"/sshd-*.pid; do
        [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
    done
    for pid in $sshd_pids; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    sshd_pids=""
    ip netns delete "$ns" 2>/dev/null
}
