#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the check says durable only when an acknowledged write was checked; none is a mismatch.
#
# "verdict: durable" is a claim about acknowledged writes, so it needs at
# least one to have been checked.  A run the listener registered but
# that acknowledged nothing (its first sync failed: the fault preload
# fails it with EIO) is a mismatch (exit 5), with a sentence saying the
# listener holds no acknowledged write of it and what to do: against the
# file of another run (whose records the message names) and against its
# own file alike.  A hostile listener answering "RUN ID 512 5120 -" and
# "DONE 0 1" (no acknowledgement at all) gets the same answer for any
# file, never "durable".  A run that acknowledged writes still checks
# durable against its own file.  No root needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
preload="${top_builddir:-.}/tests/.libs/fault-preload.so"
t_built "$preload"

mkdir "$t_scratch/other" "$t_scratch/zero"
d_listen other zero
t_expect_status 0 "a run of 10 acknowledged writes" -- "$DISKIO" --durability "$d_listener" \
    --run-id other --mode fdatasync --count 10 --size 40k --bs 4k --quiet "$t_scratch/other"
other=$t_scratch/other/$(ls "$t_scratch/other")
t_expect_status 1 "a run whose first sync fails acknowledges nothing" -- env LD_PRELOAD="$preload" \
    DISKIO_TEST_FAIL_AT=1 DISKIO_TEST_FAIL_ERRNO=5 "$DISKIO" --durability "$d_listener" \
    --run-id zero --mode fdatasync --pattern create --count 5 --size 40k --bs 4k --quiet \
    "$t_scratch/zero"
grep -q '^diskio: durability run zero: 0 writes acknowledged' "$t_scratch/stderr" &&
    t_ok "the run says it acknowledged nothing" || t_fail "stderr: $(cat "$t_scratch/stderr")"
zero=$t_scratch/zero/$(ls "$t_scratch/zero")

# no_verdict WHAT ARGS...: exit 5, the sentence, and no verdict at all
no_verdict() {
    what=$1
    shift
    t_expect_status 5 "$what: a mismatch" -- "$DISKIO" --verify-durability "$@"
    grep -q 'the listener holds no acknowledged write of run [a-z0-9]*: .* nothing of .* can be checked: it is neither durable nor lost' \
        "$t_scratch/stderr" && grep -q 'check the run id .*; if it is right, make a new run' \
        "$t_scratch/stderr" && t_ok "$what: the message says why and what to do" ||
        t_fail "$what: stderr: $(cat "$t_scratch/stderr")"
    grep -q 'verdict' "$t_scratch/stdout" && t_fail "$what: a verdict: $(cat "$t_scratch/stdout")" ||
        t_ok "$what: no verdict"
}

no_verdict "run zero against another run's file" "$d_listener" --run-id zero "$other"
grep -q "holds records of another run (10 blocks)" "$t_scratch/stderr" &&
    t_ok "it names the other run's records" || t_fail "stderr: $(cat "$t_scratch/stderr")"
no_verdict "run zero against its own file" "$d_listener" --run-id zero "$zero"
t_expect_status 0 "the run that acknowledged writes checks durable" -- \
    "$DISKIO" --verify-durability "$d_listener" "$other"
grep -q '^verdict: durable' "$t_scratch/stdout" && t_ok "verdict: durable" ||
    t_fail "report: $(cat "$t_scratch/stdout")"

# ---- a hostile listener: a run of no acknowledgement for any file ----
d_fake_listen empty r3
no_verdict "a listener answering DONE 0 1, another run's file" "$d_fake" --run-id r3 "$other"
head -c 5120 /dev/zero >"$t_scratch/zeros"
no_verdict "a listener answering DONE 0 1, a file of zeros" "$d_fake" --run-id r3 \
    "$t_scratch/zeros"
t_done
