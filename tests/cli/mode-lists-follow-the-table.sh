#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every list of modes diskio shows or picks is the library's mode table's, asked.
#
# The modes diskio names or picks by a fact of theirs come from the
# library's mode table (diskio_mode_is_durable(), diskio_mode_syncs(),
# diskio_mode_pg_wal_sync_method()), never from a list of its own: the
# modes --durability takes (its refusal and --help), the modes the wal
# pattern takes (its refusal names each with its wal_sync_method) and
# runs without --mode (every wal_sync_method without O_DIRECT), and the
# modes the checkpoint pattern takes (a sync call).  tests/mode-facts
# says what the table holds.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read the result"; exit 77; }
mkdir "$t_scratch/dir"

# "a, b or c"
joined() {
    "$PYTHON3" -c 'import sys
n = sys.argv[1:]
print(", ".join(n[:-1]) + " or " + n[-1] if len(n) > 1 else "".join(n))' "$@"
}

# shellcheck disable=SC2046
durable=$(joined $(t_modes durable))
t_expect_status 2 "--durability with a mode that is not durable" -- "$DISKIO" \
    --durability 127.0.0.1:9 --run-id r1 --mode "$(t_modes writes | grep -vxF "$(t_modes durable)" |
    head -n 1)" "$t_scratch/dir"
grep -qF "durable: $durable" "$t_scratch/stderr" && t_ok "the refusal lists the durable modes" ||
    t_fail "the refusal does not list '$durable': $(cat "$t_scratch/stderr")"
t_expect_status 0 "--help" -- "$DISKIO" --help
tr -s ' \n' '  ' < "$t_scratch/stdout" | grep -qF -- "--mode ($durable)" &&
    t_ok "--help's --durability lists the durable modes" ||
    t_fail "--help's --durability does not list '$durable'"

# the wal pattern: each mode it takes with its wal_sync_method
t_modes > "$t_scratch/facts"
wal=$("$PYTHON3" - "$t_scratch/facts" <<'PY'
import sys
taken = []
for line in open(sys.argv[1]):
    name, durable, syncs, direct, queued, reads, method = line.split()
    if method != "-":
        taken.append(name if method == name and direct == "-" else
                     f"{name} ({method}{' with O_DIRECT' if direct != '-' else ''})")
    elif name == "async":
        taken.append("async (fsync off)")
print(", ".join(taken[:-1]) + " or " + taken[-1])
PY
)
t_expect_status 2 "--pattern wal with mode direct" -- "$DISKIO" --pattern wal --mode direct \
    "$t_scratch/dir"
grep -qF "wal_sync_method: $wal" "$t_scratch/stderr" &&
    t_ok "the refusal names each WAL mode with its wal_sync_method" ||
    t_fail "the refusal does not name '$wal': $(cat "$t_scratch/stderr")"
# shellcheck disable=SC2046
syncing=$(joined $(t_modes syncs))
t_expect_status 2 "--pattern checkpoint with mode osync" -- "$DISKIO" --pattern checkpoint \
    --mode osync "$t_scratch/dir"
grep -qF "sync call (fsync is what PostgreSQL's checkpointer calls): $syncing" \
    "$t_scratch/stderr" && t_ok "the refusal names the modes with a sync call" ||
    t_fail "the refusal does not name '$syncing': $(cat "$t_scratch/stderr")"

# without --mode the wal pattern runs every wal_sync_method PostgreSQL
# opens its WAL for by default: without O_DIRECT
t_expect_status 0 "--pattern wal without --mode" -- "$DISKIO" --pattern wal --count 3 \
    --warmup 0 --wal-segment-size 64k --quiet --output "$t_scratch/wal.json" "$t_scratch/dir"
want=$(for m in $(t_modes wal); do t_modes direct | grep -qxF "$m" || echo "$m"; done | tr '\n' ' ')
got=$("$PYTHON3" -c 'import json, sys
print(" ".join(r["mode"] for r in json.load(open(sys.argv[1]))["runs"]) + " ")' \
    "$t_scratch/wal.json")
[ "$got" = "$want" ] && t_ok "the wal pattern ran $got" || t_fail "ran '$got', not '$want'"
t_done
