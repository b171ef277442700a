#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the check reads a bounded answer: slots for its own blocks, acks per block, a deadline.
#
# --verify-durability does not trust the listener with its memory or its
# time (diskio(1), --verify-durability):
#   - a listener claiming a 32 GiB file for a 5120-byte FILE: the check
#     keeps slots for FILE's own 10 blocks, and the claimed blocks beyond
#     FILE's end are lost writes (exit 4, "of them beyond the end of the
#     file: 999"), under an address-space limit of 256 MiB that the
#     claimed size (1 GiB of slots) would exceed;
#   - a listener streaming acknowledgements forever for a one-block
#     FILE: past 65536 acknowledgements (the most a run writes a block)
#     the check stops, naming the bound (exit 1);
#   - a listener sending an acknowledgement every 50 ms, never DONE: the
#     check stops at its 30-minute deadline, naming it (exit 1); the
#     fault preload runs CLOCK_MONOTONIC 10000 times as fast, so the
#     deadline passes in well under a second of the test's time.
# A run stops at that bound too: a --count above 65536 writes a block (or
# a --size of more than 2^26 blocks) is a usage error (exit 2), and a --runtime run of a one-block file on a
# tmpfs stops after 65536 acknowledgements (exit 1, saying why), its
# file checking durable.  Every check runs under a watchdog (timeout) so
# that a check that does not stop fails instead of hanging.  No root
# needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
t_built "$preload"
command -v timeout >/dev/null 2>&1 || d_skip "timeout (coreutils) is not installed"
# d_cleanup (the EXIT trap) removes t_scratch; the tmpfs directory too
d_extra_cleanup='rm -rf $t_more_scratch'

# check WANT WHAT ARGS...: diskio --verify-durability ARGS, 256 MiB of
# address space at most, stopped after 300 s if it has not stopped itself.
# A sanitizer build reserves terabytes of shadow address space, so there
# the bound is AddressSanitizer's own: no single allocation above 256 MiB
# (the claimed file's slots would be one of 1 GiB), failing as ENOMEM.
check() {
    want=$1
    what=$2
    shift 2
    if [ -n "${DISKIO_SANITIZED:-}" ]; then
        t_expect_status "$want" "$what" -- env \
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=256:allocator_may_return_null=1" \
            timeout -s KILL 300 "$@"
    else
        t_expect_status "$want" "$what" -- sh -c 'ulimit -v 262144 && exec "$@"' sh \
            timeout -s KILL 300 "$@"
    fi
}

# ---- a huge claimed file: memory for FILE's blocks only ----
head -c 5120 /dev/zero >"$t_scratch/small"
d_fake_listen huge big
check 4 "a claimed 32 GiB file for a 5120-byte FILE: the writes beyond it are lost" \
    "$DISKIO" --verify-durability "$d_fake" --run-id big "$t_scratch/small"
grep -q '^acknowledged and lost: 1000$' "$t_scratch/stdout" &&
    grep -q '^of them beyond the end of the file: 999 (the file is 5120 bytes, the run.s was 34359738368)$' \
        "$t_scratch/stdout" && grep -q '^verdict: LOST 1000 acknowledged writes' "$t_scratch/stdout" &&
    t_ok "the report counts the writes beyond FILE's end as lost" ||
    t_fail "report: $(cat "$t_scratch/stdout") $(cat "$t_scratch/stderr")"

# ---- endless acknowledgements: 65536 a block of FILE at most ----
head -c 512 /dev/zero >"$t_scratch/one"
d_fake_listen endless forever
check 1 "endless acknowledgements for a one-block FILE: the check stops" \
    "$DISKIO" --verify-durability "$d_fake" --run-id forever "$t_scratch/one"
grep -q "the listener's answer for run forever holds more than 65536 acknowledgements, 65536 for each 512-byte block of .*/one (it has 1): more than a run makes" \
    "$t_scratch/stderr" && t_ok "the message names the bound" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"

# ---- an answer that never ends: the deadline ----
d_fake_listen trickle slow
check 1 "an answer that trickles on past the deadline: the check stops" \
    env LD_PRELOAD="$preload" DISKIO_TEST_CLOCK_SPEED=10000 \
    "$DISKIO" --verify-durability "$d_fake" --run-id slow "$t_scratch/one"
grep -q "the listener's answer for run slow took more than 30 minutes, the most the check reads it for" \
    "$t_scratch/stderr" && t_ok "the message names the deadline" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"

# ---- a run stops at the bound the check reads ----
t_memory_dir
d_listen capped
t_expect_status 2 "a --count above 65536 writes a block is refused" -- "$DISKIO" \
    --durability "$d_listener" --run-id capped --mode fdatasync --count 65537 --size 4k \
    --bs 4k --quiet "$t_memory"
grep -q -- '--count 65537 writes each of the 1 blocks of --size more than 65536 times' \
    "$t_scratch/stderr" && t_ok "the refusal names the bound" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_status 2 "a --size of more than 2^26 blocks is refused" -- "$DISKIO" \
    --durability "$d_listener" --run-id capped --mode fdatasync --count 5 --size 40g \
    --bs 512 --quiet "$t_memory"
grep -q -- '--size of 83886080 blocks of --bs; a check handles 67108864 at most' \
    "$t_scratch/stderr" && t_ok "the refusal names the bound" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
t_expect_status 1 "a one-block run stops at 65536 acknowledgements" -- "$DISKIO" \
    --durability "$d_listener" --run-id capped --mode fdatasync --runtime 10m --size 4k \
    --bs 4k --quiet "$t_memory"
grep -q '^diskio: durability run capped: 65536 writes acknowledged to .*, 65536 for each block of the test file: the most a check reads' \
    "$t_scratch/stderr" && t_ok "the run says why it stopped" ||
    t_fail "stderr: $(cat "$t_scratch/stderr")"
file=$t_memory/$(ls "$t_memory")
check 0 "its file checks durable" "$DISKIO" --verify-durability "$d_listener" "$file"
d_expect_counts "$t_scratch/stdout" "the capped run" acknowledged=65536 overwritten=65535
t_done
