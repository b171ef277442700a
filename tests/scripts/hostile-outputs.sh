#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the analysis commands say so when their output cannot be written, and leave nothing.
#
# the analysis commands say so when their output cannot be
# written (standard output full or closed: status 1, one line, no
# traceback), and diskio-plot stopped by SIGTERM leaves neither its
# temporary directory nor a half-written image behind (status 143).
set -u
: "${top_builddir:?top_builddir not set}" "${top_srcdir:?top_srcdir not set}"
py=${PYTHON3:-python3}
bin=$top_builddir/scripts
fixtures=$top_srcdir/tests/scripts/fixtures
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-hostile.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
expect() { # what want_status want_stderr_pattern (stderr in $work/err)
    got=$1 want=$2 pattern=$3
    if [ "$got" -ne "$want" ] || ! grep -q "$pattern" "$work/err" || grep -q Traceback "$work/err"; then
        fail "$4: status $got (want $want), stderr: $(cat "$work/err")"
    else
        echo "ok: $4"
    fi
}

if [ -w /dev/full ]; then
    $py "$bin/diskio-correlate" "$fixtures/env-a" "$fixtures/env-b" > /dev/full 2> "$work/err"
    expect $? 1 "cannot write to standard output: No space left on device" "correlate > /dev/full"
    $py "$bin/diskio-compare" "$fixtures/env-a/result.json" "$fixtures/env-b/result.json" \
        > /dev/full 2> "$work/err"
    expect $? 1 "cannot write to standard output" "compare > /dev/full"
fi
$py "$bin/diskio-compare" "$fixtures/env-a/result.json" "$fixtures/env-b/result.json" \
    >&- 2> "$work/err"
expect $? 1 "standard output is closed" "compare >&-"
# an error with stderr full too: the status still tells, and no traceback
$py "$bin/diskio-correlate" "$fixtures/env-a" /nonexistent > /dev/null 2> /dev/full
[ $? -eq 1 ] && echo "ok: correlate with a bad ENVDIR and stderr full: 1" ||
    fail "correlate with stderr full did not exit 1"

# diskio-plot stopped while gnuplot draws
mkdir "$work/tmp" "$work/out"
cat > "$work/slow-gnuplot" <<'SH'
#!/bin/sh
touch "$GNUPLOT_STARTED"
exec sleep 30
SH
chmod +x "$work/slow-gnuplot"
TMPDIR=$work/tmp GNUPLOT=$work/slow-gnuplot GNUPLOT_STARTED=$work/started \
    $py "$bin/diskio-plot" --outdir "$work/out" "$fixtures/env-a/result.json" \
    > /dev/null 2> "$work/err" &
pid=$!
i=0
while [ ! -e "$work/started" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$work/started" ] || fail "diskio-plot never started gnuplot"
kill -TERM $pid
wait $pid
expect $? 143 "interrupted by SIGTERM" "plot on SIGTERM"
left=$(find "$work/tmp" "$work/out" -mindepth 1)
[ -z "$left" ] && echo "ok: plot on SIGTERM left nothing behind" ||
    fail "plot on SIGTERM left: $left"
exit $status
