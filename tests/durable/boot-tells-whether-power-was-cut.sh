#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the check says whether the machine rebooted since the run, from the run's boot id.
#
# a durability run sends its boot id (Linux's
# /proc/sys/kernel/random/boot_id) before its first acknowledgement, the
# listener records it in the run's file and answers it to a check.
# Checked without a reboot, the check says no power cut happened to this
# machine and its durable verdict says nothing about the cache is shown;
# with the listener's file saying another boot (as after a reboot), it
# says the machine rebooted and the verdict is plain; a run that sent no
# boot id (an older diskio) is said to be undecidable.  The count of
# acknowledged writes reads "N (of 4 KiB each; ...)".  The listener takes
# BOOT once, before the first acknowledgement, and refuses it after one.
# No root needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON=${PYTHON3:-python3}
[ -r /proc/sys/kernel/random/boot_id ] || d_skip "this kernel has no /proc/sys/kernel/random/boot_id"
boot=$(cat /proc/sys/kernel/random/boot_id)
mkdir "$t_scratch/data"
d_listen b1 late

t_expect_status 0 "a run" -- "$DISKIO" --durability "$d_listener" --run-id b1 --mode fdatasync \
    --count 20 --size 256k --bs 4k --quiet "$t_scratch/data"
file=$t_scratch/data/$(ls "$t_scratch/data")
sed -n 2p "$d_acks/b1.acks" | grep -qx "BOOT $boot" &&
    t_ok "the listener recorded the run's boot id, before its acknowledgements" ||
    t_fail "b1.acks: $(head -n 3 "$d_acks/b1.acks")"

# ---- no reboot since the run ----
t_expect_status 0 "the check without a reboot" -- \
    "$DISKIO" --verify-durability "$d_listener" "$file"
grep -q '^note: no power cut happened to this machine: it has not rebooted since the run' \
    "$t_scratch/stdout" && t_ok "it says no power cut happened to this machine" ||
    t_fail "report: $(cat "$t_scratch/stdout")"
grep -qx 'verdict: durable (but no power cut since the run: nothing about the cache is shown)' \
    "$t_scratch/stdout" && t_ok "its verdict says nothing about the cache is shown" ||
    t_fail "report: $(cat "$t_scratch/stdout")"
grep -q '^acknowledged writes: 20 (of 4 KiB each; the run ended and said so)$' \
    "$t_scratch/stdout" && t_ok "the count reads as a count, with the record's size" ||
    t_fail "report: $(cat "$t_scratch/stdout")"

# ---- as after a reboot: the listener's file holds another boot ----
other=00000000-1111-2222-3333-444444444444
sed -i "2s/^BOOT .*/BOOT $other/" "$d_acks/b1.acks"
t_expect_status 0 "the check after a reboot" -- \
    "$DISKIO" --verify-durability "$d_listener" "$file"
grep -q '^note: this machine has rebooted since the run (its boot id changed)' \
    "$t_scratch/stdout" && grep -qx 'verdict: durable' "$t_scratch/stdout" &&
    t_ok "it says the machine rebooted, and the verdict is plain" ||
    t_fail "report: $(cat "$t_scratch/stdout")"

# ---- a run that sent no boot id ----
sed -i 2d "$d_acks/b1.acks"
t_expect_status 0 "the check of a run without a boot id" -- \
    "$DISKIO" --verify-durability "$d_listener" "$file"
grep -q '^note: the run did not say which boot it ran in' "$t_scratch/stdout" &&
    t_ok "it says whether the power was cut cannot be told" ||
    t_fail "report: $(cat "$t_scratch/stdout")"

# ---- BOOT after an acknowledgement ----
"$PYTHON" - "$d_port" >"$t_scratch/late" 2>&1 <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
s.sendall(b"DISKIO-DURABLE 1 RUN late 4096 262144 -\n")
s.sendall(b"A 1 0 0000abcd\nBOOT 00000000-1111-2222-3333-444444444444\n")
got = b""
while True:
    part = s.recv(4096)
    if not part:
        break
    got += part
print(got.decode("ascii", "replace"), end="")
PY
grep -q '^NO protocol .*BOOT ID once, before the first' "$t_scratch/late" &&
    t_ok "the listener refuses BOOT after an acknowledgement" ||
    t_fail "late BOOT: $(cat "$t_scratch/late")"
t_done
