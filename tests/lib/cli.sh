# SPDX-License-Identifier: MIT
# Helpers for the command-level tests: sourced, not run.
# Each test prints what it checks; exit 0 pass, 1 fail, 77 skip.

: "${DISKIO:=${top_builddir:-.}/diskio}"
t_failures=0

# A scratch directory under the build tree (a real filesystem, not tmpfs),
# removed when the test exits (with the directories in t_more_scratch).
t_scratch=$(mktemp -d "${PWD}/t-cli.XXXXXX") || exit 99
t_more_scratch=""
trap 't_remove_scratch' EXIT
t_remove_scratch() {
    # shellcheck disable=SC2086
    rm -rf "$t_scratch" $t_more_scratch
}

# t_memory_dir: sets t_memory to a new directory on a filesystem in memory
# (/dev/shm, a tmpfs), removed when the test exits.  For what is diskio's
# own behaviour (a schedule, a stall a preload injects), not the disk's:
# no other program's I/O makes its syncs slow.  Skips (77) where there is
# no such filesystem to write to.
t_memory_dir() {
    t_memory=$(mktemp -d "${DISKIO_TEST_MEMORY_DIR:-/dev/shm}/diskio-t.XXXXXX" 2>/dev/null) ||
        { echo "SKIP: no writable /dev/shm (set DISKIO_TEST_MEMORY_DIR to a tmpfs directory)"; exit 77; }
    t_more_scratch="$t_more_scratch $t_memory"
}

# t_modes [FACT]: the library's modes (with FACT: durable, syncs, direct,
# queued, reads, writes or wal, those that have it), one a line, in the
# library's order, as its mode table says (tests/lib/mode-facts.c): a
# test asks rather than lists the modes.
t_modes() {
    "${top_builddir:-.}/tests/mode-facts" "$@" ||
        { echo "FAIL: tests/mode-facts $*: not built or failed" >&2; exit 1; }
}

t_fail() {
    echo "FAIL: $*" >&2
    t_failures=$((t_failures + 1))
}

# t_unbuilt FILE: fails the test for FILE, missing though make check
# builds it (Makefile.am: the programs and commands, check_PROGRAMS,
# check_LTLIBRARIES such as tests/.libs/fault-preload.so): the build is
# broken, which is never the machine's reason to skip a case or to pass
# with a note.  t_built FILE: the same as a guard, ending the test there.
t_unbuilt() {
    t_fail "$1 is missing, yet make check builds it (Makefile.am): this build is broken"
}
t_built() {
    [ -e "$1" ] || { t_unbuilt "$1"; t_done; }
}

# t_direct_dir [DIR]: sets t_direct to a new directory on a filesystem
# that takes O_DIRECT, removed when the test exits: under DIR if given,
# else the build directory, else the source tree, else /var/tmp (ramfs,
# and tmpfs before Linux 6.6, refuse O_DIRECT).  When none takes it the
# test fails naming each: its O_DIRECT checks would otherwise test nothing.
t_direct_dir() {
    t_tried=""
    for t_parent in "$@" "$PWD" "${top_srcdir:-.}" /var/tmp; do
        if ! t_direct=$(mktemp -d "$t_parent/t-direct.XXXXXX" 2>/dev/null); then
            t_tried="$t_tried $t_parent: cannot make a directory there;"
            continue
        fi
        t_more_scratch="$t_more_scratch $t_direct"
        dd if=/dev/zero of="$t_direct/probe" bs=4096 count=1 oflag=direct 2>/dev/null &&
            rm -f "$t_direct/probe" && return 0
        t_tried="$t_tried $t_parent: refuses O_DIRECT;"
    done
    t_fail "no directory tried takes O_DIRECT, so the O_DIRECT modes cannot be checked:$t_tried"
    t_done
}

# t_uring_probe: sets t_uring_why to why io_uring cannot run here (the
# machine's reason: tests/lib/t_uring.h, by tests/uring-why), empty where
# it can.
t_uring_probe() {
    t_built "${top_builddir:-.}/tests/uring-why"
    t_uring_why=$("${top_builddir:-.}/tests/uring-why") ||
        { t_fail "tests/uring-why: exit $?"; t_done; }
}

t_ok() {
    echo "ok: $*"
}

# t_expect_status WANT DESCRIPTION -- command...
t_expect_status() {
    want=$1; what=$2; shift 3
    "$@" >"$t_scratch/stdout" 2>"$t_scratch/stderr"
    got=$?
    if [ "$got" -ne "$want" ]; then
        t_fail "$what: exit $got, expected $want; stderr: $(cat "$t_scratch/stderr")"
        return 1
    fi
    t_ok "$what (exit $got)"
}

# Fails when a directory holds anything.
t_expect_empty_dir() {
    if [ -n "$(ls -A "$1")" ]; then
        t_fail "$2: $1 is not empty: $(ls -A "$1" | tr '\n' ' ')"
        return 1
    fi
}

# Start a command in the background with SIGINT, SIGQUIT and SIGHUP at
# their default action: sh starts background jobs with the first two
# ignored, a suite run under nohup(1) has the third ignored, and diskio,
# like any well-behaved program, leaves an inherited "ignore" alone.
# Sets t_pid.
t_spawn() {
    "${PYTHON3:-python3}" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGQUIT, signal.SIG_DFL)
signal.signal(signal.SIGHUP, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@" &
    t_pid=$!
}

# Wait (up to 5 s) until a directory holds something: diskio has
# installed its signal handlers before it creates its test file.
t_wait_for_file() {
    t_waited=0
    while [ -z "$(ls -A "$1" 2>/dev/null)" ] && [ $t_waited -lt 100 ]; do
        sleep 0.05
        t_waited=$((t_waited + 1))
    done
}

t_done() {
    if [ "$t_failures" -ne 0 ]; then
        echo "$t_failures check(s) failed"
        exit 1
    fi
    exit 0
}

# t_loop_fs NAME SIZE [MKFS-OPTIONS [MOUNT-OPTIONS]]: an ext4 (4096-byte
# blocks, initialised whole: no lazy init writing during a run) on a loop device with 4096-byte logical sectors over a SIZE file
# in the scratch directory (in memory, t_memory_dir's, when the test set
# t_loop_in_memory=1: the loop device then counts only the test's I/O
# and no other program's I/O slows it), mounted at $t_scratch/NAME
# (MOUNT-OPTIONS, default rw); sets t_loop_dev.  Skips the test (77) without root,
# losetup, mkfs.ext4 or loop devices.  Every mount and loop device made is
# undone when the test exits, on every path; a test that mounts more on
# top adds the mount point to the front of t_loop_mounts.
t_loop_mounts=""
t_loop_devs=""
t_loop_cleanup() {
    for m in $t_loop_mounts; do umount "$m" 2>/dev/null; done
    for l in $t_loop_devs; do losetup -d "$l" 2>/dev/null; done
    t_loop_mounts=""
    t_loop_devs=""
    t_remove_scratch
}
t_loop_fs() {
    [ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for loop devices"; exit 77; }
    for t_tool in losetup mkfs.ext4 mount umount truncate; do
        command -v "$t_tool" >/dev/null 2>&1 || { echo "SKIP: $t_tool not found"; exit 77; }
    done
    [ -e /sys/block ] || { echo "SKIP: no /sys/block"; exit 77; }
    trap t_loop_cleanup EXIT
    trap 'exit 130' INT TERM HUP
    t_loop_img="$t_scratch/$1.img"
    if [ "${t_loop_in_memory:-0}" = 1 ]; then
        [ -n "${t_memory:-}" ] || t_memory_dir
        t_loop_img="$t_memory/$1.img"
    fi
    truncate -s "$2" "$t_loop_img"
    t_loop_dev=$(losetup --sector-size 4096 -f --show "$t_loop_img" 2>/dev/null) ||
        { echo "SKIP: cannot make a loop device here"; exit 77; }
    t_loop_devs="$t_loop_devs $t_loop_dev"
    # shellcheck disable=SC2086
    # inode tables and journal zeroed now, not by ext4lazyinit in the
    # background while a test counts the device's writes
    mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 ${3:-} "$t_loop_dev" \
        >/dev/null 2>&1 ||
        { t_fail "mkfs.ext4 ${3:-} $t_loop_dev"; t_done; }
    mkdir "$t_scratch/$1"
    mount -o "${4:-rw}" "$t_loop_dev" "$t_scratch/$1" || { t_fail "mount $t_loop_dev"; t_done; }
    t_loop_mounts="$t_scratch/$1 $t_loop_mounts"
}
