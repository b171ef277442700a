#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the durability check and the listener show paths and peer text by the escape rule.
#
# the durability check's messages and reports show every path,
# HOST:PORT value, listener directory and text a peer sent by the one rule
# for untrusted text (doc/result-schema.md, "Strings"): diskio
# --durability's and --verify-durability's messages on stderr, the check's
# report on stdout, and diskio-durable's messages and log.  No terminal
# escape, control or bidi byte of them reaches the terminal raw (each is
# \xHH), and a name that literally holds the four characters \x1b shows as
# \\x1b, so it never looks like one holding ESC.  No root needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON=${PYTHON3:-python3}

esc=$(printf '\033')
bel=$(printf '\007')
rlo=$(printf '\342\200\256') # U+202E RIGHT-TO-LEFT OVERRIDE
hostile="x${esc}[2J${esc}]0;pwned${bel}${rlo}y"
shown='x\x1b[2J\x1b]0;pwned\x07\xe2\x80\xaey'
# a name holding ESC and the four characters \x1b, each shown its own way
both="d${esc}[2J-lit\\x1b"
both_shown='d\x1b[2J-lit\\x1b'

# No byte of FILE is a control character but its line ends, and none is
# U+202E; FILE holds the text as the rule shows it.
check_text() { # file description shown-text
    if od -An -tx1 -v "$1" | tr ' ' '\n' | grep -v '^0a$' |
        grep -q -E '^(0[0-9a-f]|1[0-9a-f]|7f)$'; then
        t_fail "$2: a raw control byte in $(basename "$1"): $(od -c "$1" | head -8)"
    elif grep -q "$rlo" "$1"; then
        t_fail "$2: a raw U+202E in $(basename "$1")"
    elif ! grep -q -F -- "$3" "$1"; then
        t_fail "$2: $(basename "$1") does not show '$3': $(cat "$1")"
    else
        t_ok "$2: shown as $3"
    fi
}

# ---- a run and its check, the listener recording in a hostile directory ----
d_acks="$t_scratch/acks-$both"
d_listen r1
data="$t_scratch/data-$both"
mkdir "$data" "$t_scratch/data2"
t_expect_status 0 "a durability run in a hostile directory" -- \
    "$DISKIO" --durability "$d_listener" --run-id r1 --mode fdatasync --count 20 --size 256k \
    --bs 4k "$data"
check_text "$t_scratch/stderr" "--durability's messages name the test file" "data-$both_shown/"
f=$(ls "$data")
f="$data/$f"
t_expect_status 0 "the check of a file in a hostile directory" -- \
    "$DISKIO" --verify-durability "$d_listener" "$f"
check_text "$t_scratch/stdout" "the check's report names the file" \
    "durability check of $t_scratch/data-$both_shown/"
t_expect_status 5 "a second run of the same id is refused" -- \
    "$DISKIO" --durability "$d_listener" --run-id r1 --mode fdatasync --count 20 --size 256k \
    --bs 4k "$t_scratch/data2"

# ---- --verify-durability FILE ----
t_expect_status 3 "the check of a file that does not exist" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_scratch/$hostile/file"
check_text "$t_scratch/stderr" "--verify-durability FILE" "$shown/file"
t_expect_status 3 "the check of a path holding the text \\x1b" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_scratch/lit\\x1b/file"
check_text "$t_scratch/stderr" "--verify-durability, literal \\x1b" 'lit\\x1b/file'
grep -q -F 'lit\x1b/file' "$t_scratch/stderr" &&
    t_fail "a literal \\x1b shows as an escaped ESC: $(cat "$t_scratch/stderr")"
head -c 65536 /dev/zero >"$t_scratch/$hostile.img"
t_expect_status 5 "the check of a file without records" -- \
    "$DISKIO" --verify-durability "$d_listener" "$t_scratch/$hostile.img"
check_text "$t_scratch/stderr" "a file without records" "$shown.img holds no record"

# ---- the listener's words, relayed ----
# a listener that refuses every query with a text holding a backslash
"$PYTHON" - "$t_scratch/fake.port" <<'PY' &
import os, socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(s.getsockname()[1]))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
s.settimeout(30)
c, _ = s.accept()
c.settimeout(10)
got = b""
while b"\n" not in got:
    part = c.recv(4096)
    if not part:
        break
    got += part
c.sendall(b"NO unknown-run no run a\\x1b[2J here\n")
c.close()
PY
fake=$!
for _ in $(seq 100); do
    [ -s "$t_scratch/fake.port" ] && break
    sleep 0.05
done
t_expect_status 5 "a query the listener refuses" -- \
    "$DISKIO" --verify-durability "127.0.0.1:$(cat "$t_scratch/fake.port")" --run-id r1 "$f"
wait "$fake"
check_text "$t_scratch/stderr" "the listener's text" 'no run a\\x1b[2J here'

# ---- --durability HOST:PORT ----
# a host name that cannot resolve, looked up where no network is (a
# network namespace of its own: nothing leaves the machine)
if unshare -rn true 2>/dev/null; then
    nons="unshare -rn"
elif unshare -n true 2>/dev/null; then
    nons="unshare -n"
else
    nons=""
fi
if [ -n "$nons" ]; then
    # shellcheck disable=SC2086
    t_expect_status 3 "a --durability host that does not resolve" -- \
        $nons "$DISKIO" --durability "$hostile:7211" --run-id r2 --mode fdatasync --count 5 \
        --size 64k "$t_scratch/data2"
    check_text "$t_scratch/stderr" "--durability HOST:PORT" "$shown:7211"
    # shellcheck disable=SC2086
    t_expect_status 3 "a --durability host holding the text \\x1b" -- \
        $nons "$DISKIO" --durability "lit\\x1b:7211" --run-id r2 --mode fdatasync --count 5 \
        --size 64k "$t_scratch/data2"
    check_text "$t_scratch/stderr" "--durability, literal \\x1b" 'lit\\x1b:7211'
else
    echo "skip: no network namespace (unshare -n): an unresolvable host is not looked up"
fi
t_expect_empty_dir "$t_scratch/data2" "refused runs" && t_ok "the refused runs left nothing"

# ---- diskio-durable's own options ----
t_expect_status 3 "the listener's --dir that does not exist" -- \
    "$DISKIO_DURABLE" listen --dir "$t_scratch/$hostile" --port 0 --expect a
check_text "$t_scratch/stderr" "listen --dir" "--dir $t_scratch/$shown:"
t_expect_status 3 "the listener's --dir holding the text \\x1b" -- \
    "$DISKIO_DURABLE" listen --dir "$t_scratch/lit\\x1b" --port 0 --expect a
check_text "$t_scratch/stderr" "listen --dir, literal \\x1b" 'lit\\x1b:'
t_expect_status 2 "a bad --port" -- \
    "$DISKIO_DURABLE" listen --dir "$t_scratch" --port "$hostile" --expect a
check_text "$t_scratch/stderr" "listen --port" "'$shown'"
t_expect_status 2 "a bad --bind" -- \
    "$DISKIO_DURABLE" listen --dir "$t_scratch" --port 0 --expect a --bind "$hostile"
check_text "$t_scratch/stderr" "listen --bind" "'$shown'"
t_expect_status 2 "an unexpected argument" -- \
    "$DISKIO_DURABLE" listen --dir "$t_scratch" --port 0 --expect a "$hostile"
check_text "$t_scratch/stderr" "listen ARGUMENT" "'$shown'"
t_expect_status 2 "an unknown option" -- \
    "$DISKIO_DURABLE" listen --dir "$t_scratch" --port 0 --expect a "--$hostile"
check_text "$t_scratch/stderr" "listen --OPTION" "'--$shown'"

# ---- the listener's log ----
kill -TERM "$d_lpid"
wait "$d_lpid"
d_lpid=""
check_text "$d_log" "the listener's log names its directory" \
    "recording in $t_scratch/acks-$both_shown;"
check_text "$d_log" "the listener's refusal names the run's file" \
    "acks-$both_shown/r1.acks exists"
t_done
