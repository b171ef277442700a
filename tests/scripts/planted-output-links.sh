#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: run as root, no analysis command follows a link another user planted at its output directory.
#
# User nobody owns u/ and makes u/out, u/plotout and u/lab symbolic
# links to a root-only (0700) directory; root then runs
# diskio-pgphases -o u/out, diskio-plot --outdir u/plotout,
# diskio-fleet --lab u/lab, diskio-compare -o u/out/FILE and
# diskio-correlate -o u/out/FILE.  Each is refused with its documented
# status (pgphases 2, before any cluster is made; plot, compare and
# correlate 1; fleet 3, before any host is run) and a message naming the
# link and what to do, and nothing appears in the root-only directory.
# root's own link in root's own directory is still followed, and a real
# directory of nobody's is written into (by descriptor).  Skips (77)
# without root or without setpriv/runuser and the user nobody.
set -u
: "${top_builddir:?top_builddir not set}" "${top_srcdir:?top_srcdir not set}"
py=${PYTHON3:-python3}
bin=$top_builddir/scripts
fixtures=$top_srcdir/tests/scripts/fixtures
if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: needs root (another user plants the links)"
    exit 77
fi
if ! id nobody >/dev/null 2>&1; then
    echo "SKIP: no user nobody to plant the links"
    exit 77
fi
if command -v setpriv >/dev/null 2>&1; then
    as_nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
elif command -v runuser >/dev/null 2>&1; then
    as_nobody() { runuser -u nobody -- "$@"; }
else
    echo "SKIP: neither setpriv nor runuser to act as nobody"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-planted.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
status=0
fail() { echo "FAIL: $*"; status=1; }

private=$work/root-only
mkdir -m 700 "$private"
u=$work/u
mkdir -m 755 "$u"
chown nobody "$u"
for name in out plotout lab; do
    as_nobody ln -s "$private" "$u/$name" || exit 99
done

# run NAME WANT_STATUS WANT_MESSAGE COMMAND...: refused as said, and
# nothing in the root-only directory
run() {
    what=$1 want=$2 message=$3
    shift 3
    "$@" > "$work/stdout" 2> "$work/err" < /dev/null
    got=$?
    if [ $got -ne "$want" ] || ! grep -qF -- "$message" "$work/err" ||
        grep -q Traceback "$work/err"; then
        fail "$what: status $got (want $want), stderr: $(cat "$work/err")"
    else
        echo "ok: $what refused with status $want and the message"
    fi
    left=$(ls -A "$private")
    [ -z "$left" ] && echo "ok: $what wrote nothing in the root-only directory" ||
        fail "$what wrote into the root-only directory: $left"
    rm -rf "${private:?}"/* "${private:?}"/.[!.]* 2>/dev/null
}

planted() { # LINK: the start of the message for a link planted by nobody
    echo "$1: a symbolic link in a directory another user can write (owner uid $(id -u nobody), mode 0755); not followed;"
}

# diskio-pgphases: stand-in binaries that fail, so a run that got past
# the output directory would fail at initdb and write its partial
# results there; the refusal comes before any cluster is made
mkdir "$work/bin" "$work/store"
for b in initdb pg_ctl postgres psql; do
    printf '#!/bin/sh\nexit 1\n' > "$work/bin/$b"
    chmod 755 "$work/bin/$b"
done
run "diskio-pgphases -o" 2 "$(planted "$u/out") give --output a directory of your own" \
    "$py" "$bin/diskio-pgphases" -o "$u/out" --pg-bindir "$work/bin" --rounds 1 "$work/store"
left=$(ls -A "$work/store")
if [ -z "$left" ] && ! grep -q "cluster in" "$work/err"; then
    echo "ok: diskio-pgphases made no cluster"
else
    fail "diskio-pgphases made a cluster: $left $(cat "$work/err")"
fi

run "diskio-plot --outdir" 1 "$(planted "$u/plotout") give --outdir a directory of your own" \
    "$py" "$bin/diskio-plot" --outdir "$u/plotout" "$fixtures/env-a/result.json"

# diskio-fleet: an ssh that reaches no host (nothing leaves the machine)
mkdir "$work/path"
printf '#!/bin/sh\necho "ssh: connect to host: Connection refused" >&2\nexit 255\n' \
    > "$work/path/ssh"
chmod 755 "$work/path/ssh"
run "diskio-fleet --lab" 3 "$(planted "$u/lab") give --lab a directory of your own" \
    env PATH="$work/path:$PATH" "$py" "$bin/diskio-fleet" -w h1 --lab "$u/lab" \
    --transport ssh -- --count 1

run "diskio-compare -o" 1 "$(planted "$u/out") give --output a file in a directory of your own" \
    "$py" "$bin/diskio-compare" -o "$u/out/compare.txt" \
    "$fixtures/env-a/result.json" "$fixtures/env-b/result.json"

run "diskio-correlate -o" 1 "$(planted "$u/out") give --output a file in a directory of your own" \
    "$py" "$bin/diskio-correlate" -o "$u/out/correlate.txt" \
    "$fixtures/env-a" "$fixtures/env-b"

# root's own link in root's own directory is followed
ln -s "$private" "$work/mine"
if "$py" "$bin/diskio-compare" -o "$work/mine/compare.txt" "$fixtures/env-a/result.json" \
    "$fixtures/env-b/result.json" 2> "$work/err" && [ -s "$private/compare.txt" ]; then
    echo "ok: root's own link in root's directory is followed"
else
    fail "root's own link was not followed: $(cat "$work/err")"
fi

# a real directory of nobody's is written into, every file root's own
as_nobody mkdir "$u/real" || exit 99
if "$py" "$bin/diskio-compare" -o "$u/real/compare.txt" "$fixtures/env-a/result.json" \
    "$fixtures/env-b/result.json" 2> "$work/err" &&
    [ "$(stat -c %u "$u/real/compare.txt")" -eq 0 ]; then
    echo "ok: a real directory of another user's is written by descriptor"
else
    fail "nobody's real directory: $(cat "$work/err")"
fi
exit $status
