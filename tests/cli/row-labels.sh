#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the table's row label says what sets a run apart from its mode's default.
#
# the text table's row label says what sets a run apart from
# its mode's default: --sync-every N as "fdatasync/8", a non-sequential
# --pattern as "async rand", and the queue depth and --batch of aio as
# "aio qd4 batch2 rand" (where the filesystem takes O_DIRECT), so that
# the rows of a sweep can be told apart; a label wider than the mode
# column ("fdatasync ×16 jobs") widens the column for the whole table,
# so every row's block size still ends under the header's "bs".
. "${top_srcdir:-.}/tests/lib/cli.sh"

t_expect_status 0 "fdatasync every 8 writes, and async rand" -- "$DISKIO" \
    --mode fdatasync --sync-every 8 --count 64 --size 1M "$t_scratch"
grep -q "^fdatasync/8 " "$t_scratch/stdout" && t_ok "the row is labelled fdatasync/8" ||
    t_fail "no fdatasync/8 row: $(cat "$t_scratch/stdout")"

t_expect_status 0 "async rand" -- "$DISKIO" --mode async --pattern rand --count 64 --size 1M \
    "$t_scratch"
grep -q "^async rand " "$t_scratch/stdout" && t_ok "the row is labelled async rand" ||
    t_fail "no 'async rand' row: $(cat "$t_scratch/stdout")"

"$DISKIO" --mode aio --count 1 --size 1M "$t_scratch" >/dev/null 2>&1 && {
    t_expect_status 0 "aio qd4 batch 2 rand" -- "$DISKIO" --mode aio --iodepth 4 --batch 2 \
        --pattern rand --count 64 --size 1M "$t_scratch"
    grep -q "^aio qd4 batch2 rand " "$t_scratch/stdout" &&
        t_ok "the row is labelled aio qd4 batch2 rand" ||
        t_fail "no 'aio qd4 batch2 rand' row: $(cat "$t_scratch/stdout")"
}

# columns, not bytes: the "×" of a jobs label is two bytes and one column
t_expect_status 0 "fdatasync with 1 and 16 jobs" -- "$DISKIO" --mode fdatasync \
    --jobs 1,16 --count 8 --size 1M "$t_scratch"
"${PYTHON3:-python3}" - "$t_scratch/stdout" <<'EOF' && t_ok "every row's bs ends under the header's" ||
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
header = next(l for l in lines if l.startswith("mode "))
end = header.index(" bs ") + len(" bs")
rows = [l for l in lines if l.startswith("fdatasync") and ":" not in l]
assert len(rows) == 2 and "\u00d716 jobs" in rows[1], rows
for r in rows:
    assert r[:end].endswith("KiB") and r[end] == " ", (end, r)
EOF
    t_fail "the table's columns do not line up: $(cat "$t_scratch/stdout")"
t_done
