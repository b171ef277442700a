#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a file planted at the test file's name while diskio runs is never written nor removed.
#
# a file planted at the test file's name while diskio runs is
# never written and never removed.  A hard link to a victim file (ln -f)
# or another file renamed onto the name (mv), at different moments of a
# three-mode run (during the fill, in a run, between runs): the victim's
# contents are unchanged, it still exists under both names, diskio
# measures its own file to the end (every run complete) and says that the
# name was replaced.  The same when /proc is not mounted (root: a private
# mount namespace hides it), where diskio stops with a clear message
# instead.  An existing file swapped for another between diskio's check
# and its open (--force) is refused, and neither file is written.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read results"; exit 77; }

victim="$t_scratch/victim"
printf 'precious data, not diskio blocks\n' > "$victim"
want=$(cksum < "$victim")

# plant WAY DELAY: start a run, wait for its test file, wait DELAY s, then
# plant (ln -f of the victim, or mv of a copy of it) at the test file's name
plant() {
    how=$1; delay=$2
    dir="$t_scratch/d-$how-$delay"
    err="$dir.err"
    mkdir "$dir"
    rm -f "$dir.json"
    t_spawn "$DISKIO" --mode fsync,fdatasync,osync --runtime 0.5 --size 8m --quiet \
        --output "$dir.json" "$dir" >"$dir.out" 2>"$err"
    pid=$t_pid
    t_wait_for_file "$dir"
    name=$(ls -A "$dir")
    sleep "$delay"
    case $how in
    ln) ln -f "$victim" "$dir/$name" ;;
    mv) cp "$victim" "$dir.moved" && mv -f "$dir.moved" "$dir/$name" ;;
    esac
    wait $pid
    status=$?
    what="$how at ${delay}s"
    [ "$(cksum < "$victim")" = "$want" ] && t_ok "$what: victim unchanged" ||
        t_fail "$what: the victim was written"
    [ -f "$dir/$name" ] && [ "$(cksum < "$dir/$name")" = "$want" ] &&
        t_ok "$what: the planted name is left, unchanged" ||
        t_fail "$what: the planted name was removed or written"
    [ "$status" -eq 0 ] || t_fail "$what: exit $status: $(cat "$err")"
    "$PYTHON3" - "$dir.json" <<'PY' && t_ok "$what: three complete runs of its own file" ||
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is True and len(d["runs"]) == 3, d["complete"]
assert all(r["complete"] and r["ops"] > 0 for r in d["runs"])
PY
        t_fail "$what: runs not complete"
    grep -q "was replaced" "$err" && grep -q "$name" "$err" &&
        t_ok "$what: says the name was replaced" ||
        t_fail "$what: no warning: $(cat "$err")"
    rm -f "$dir/$name"
    [ -z "$(ls -A "$dir")" ] || t_fail "$what: left $(ls -A "$dir")"
    [ -f "$victim" ] || t_fail "$what: victim removed"
}

# 0 s: while the 8 MiB file is filled; 0.25 s: in the first run; 0.55 s
# and 1.05 s: about when the second and third runs open the file (on a
# busy machine the moments shift; every moment must hold the same).  The
# ln and the mv of each moment run side by side, each in a subshell that
# writes what it found to a log of its own and exits with its count of
# failures.
for delay in 0 0.25 0.55 1.05; do
    for how in ln mv; do
        (trap - EXIT; plant $how $delay; exit $t_failures) \
            >"$t_scratch/plant-$how-$delay.log" 2>&1 &
        eval "pid_$how=\$!"
    done
    for how in ln mv; do
        eval "wait \$pid_$how"
        t_failures=$((t_failures + $?))
        cat "$t_scratch/plant-$how-$delay.log"
    done
done

# Without /proc, the file is reopened by path and its inode compared:
# the run that finds another file there stops with a clear message.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare -m --propagation private true 2>/dev/null; then
    dir="$t_scratch/noproc"
    mkdir "$dir"
    unshare -m --propagation private sh -c '
        mount -t tmpfs none /proc || exit 99
        exec "$@"' sh "$DISKIO" --mode fsync,fdatasync,osync --runtime 1 --size 1m --quiet \
        --output "$dir.json" "$dir" >"$t_scratch/out" 2>"$t_scratch/err" &
    pid=$!
    t_wait_for_file "$dir"
    name=$(ls -A "$dir")
    sleep 0.5
    ln -f "$victim" "$dir/$name"
    wait $pid
    status=$?
    [ "$(cksum < "$victim")" = "$want" ] && t_ok "no /proc: victim unchanged" ||
        t_fail "no /proc: the victim was written"
    [ "$status" -eq 1 ] && grep -q "replaced" "$t_scratch/err" &&
        t_ok "no /proc: the next run stops with a message (exit 1)" ||
        t_fail "no /proc: exit $status: $(cat "$t_scratch/err")"
    [ -f "$dir/$name" ] || t_fail "no /proc: the planted name was removed"
    "$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False and len(d["runs"]) == 1 and d["runs"][0]["complete"]
' "$dir.json" && t_ok "no /proc: the run made before is kept" || t_fail "no /proc: result"
    rm -f "$dir/$name"
else
    echo "note: not root or no unshare: the case without /proc was not run"
fi

# --force: the file checked is the file written, or nothing is
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
if [ -f "$preload" ]; then
    dir="$t_scratch/force"
    mkdir "$dir"
    printf 'file the user named\n' > "$dir/named"
    printf 'file swapped in\n' > "$t_scratch/swapped"
    swapped=$(cksum < "$t_scratch/swapped")
    t_expect_status 3 "--force: a file swapped in after the check is refused" -- \
        env LD_PRELOAD="$preload" DISKIO_TEST_SWAP_AFTER_LSTAT="$dir/named" \
        DISKIO_TEST_SWAP_WITH="$t_scratch/swapped" \
        "$DISKIO" --force --mode fsync --count 5 --size 64k --quiet "$dir/named"
    grep -q "changed while diskio opened it" "$t_scratch/stderr" ||
        t_fail "--force swap message: $(cat "$t_scratch/stderr")"
    [ "$(cksum < "$dir/named")" = "$swapped" ] && t_ok "--force: swapped-in file unchanged" ||
        t_fail "--force: the swapped-in file was written"
else
    t_unbuilt "$preload"
fi
t_done
