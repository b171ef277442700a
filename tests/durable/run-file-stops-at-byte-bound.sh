#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a run's file never grows past the listener's --max-run-bytes; the run past it is refused.
#
# a listener started with --max-run-bytes 64k: a client that
# floods a run with the longest acknowledgement lines (20-digit sequence
# numbers) is told "NO limit-bytes" and closed; the run's file is at most
# 65536 bytes, holds whole lines only, and a query answers every one of
# them.  A run that fits sends END and is confirmed (DONE), its END
# within the bound.  The bounds are options with ranges: a size that is
# not one, below 4k, and a count of 0 are usage errors (exit 2).  No root
# needed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
. "${top_srcdir:-.}/tests/lib/durable.sh"
PYTHON=${PYTHON3:-python3}
client="${top_srcdir:-.}/tests/lib/listenerlib.py"

d_listen_opts="--max-run-bytes 64k"
d_listen flood fits

"$PYTHON" "$client" flood "$d_port" flood 5000 long >"$t_scratch/flood" 2>&1
grep -qx 'OK flood' "$t_scratch/flood" &&
    grep -q '^NO limit-bytes a run.s file takes at most 65536 bytes' "$t_scratch/flood" &&
    t_ok "the flood is refused at 64 KiB" || t_fail "the flood: $(cat "$t_scratch/flood")"
size=$(wc -c <"$d_acks/flood.acks")
acks=$(grep -c '^A ' "$d_acks/flood.acks")
[ "$size" -le 65536 ] && [ "$acks" -gt 1000 ] &&
    [ "$(tail -c 1 "$d_acks/flood.acks" | od -An -c | tr -d ' ')" = '\n' ] &&
    t_ok "its file is $size bytes, $acks whole acknowledgement lines" ||
    t_fail "flood.acks: $size bytes, $acks acknowledgements: $(tail -n 2 "$d_acks/flood.acks")"
"$PYTHON" "$client" query "$d_port" flood >"$t_scratch/query" 2>&1 &&
    grep -qx "DONE $acks 0" "$t_scratch/query" && t_ok "a query answers all $acks" ||
    t_fail "query: $(cat "$t_scratch/query")"

# a run that fits: the longest lines up to the bound, then END
"$PYTHON" "$client" flood "$d_port" fits 1200 long end >"$t_scratch/fits" 2>&1
grep -qx 'DONE 1200' "$t_scratch/fits" && t_ok "a run within the bound is confirmed" ||
    t_fail "the run that fits: $(cat "$t_scratch/fits")"
[ "$(wc -c <"$d_acks/fits.acks")" -le 65536 ] && grep -qx 'END 1200' "$d_acks/fits.acks" &&
    t_ok "its END is in its file, within the bound" || t_fail "fits.acks: $(tail -n 2 "$d_acks/fits.acks")"
kill -0 "$d_lpid" 2>/dev/null && t_ok "the listener is running" ||
    t_fail "the listener died: $(cat "$d_log")"

# the options' ranges
for bad in "--max-run-bytes 1k" "--max-run-bytes 64x" "--max-run-bytes 2000t" \
    "--max-run-acks 0" "--max-run-acks -5"; do
    # shellcheck disable=SC2086
    t_expect_status 2 "listen $bad" -- "$DISKIO_DURABLE" listen --dir "$d_acks" --port 0 \
        --expect x $bad
    grep -q "^diskio-durable: ${bad%% *}: '" "$t_scratch/stderr" && t_ok "it says which value" ||
        t_fail "stderr: $(cat "$t_scratch/stderr")"
done
t_done
