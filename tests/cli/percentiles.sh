#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --percentiles chooses the percentiles the table, CSV and JSON hold.
#
# --percentiles chooses the latency percentiles the table
# shows (sorted; one whose key another has is shown once; the default
# stays p50 p99 p99.9), the CSV and JSON hold each of them beside their
# own, a bad list (one listed twice included, as a mode listed twice) is
# a usage error (exit 2) naming the option; and a percentile that can only
# be the max because the run had too few ops (p99.9 of fewer than 1000)
# is marked '*' with a note in the table and listed in the JSON's
# percentiles_limited_by_ops.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PY=${PYTHON3:-python3}
dir="$t_scratch/dir"
mkdir "$dir"

# the default header, as before
t_expect_status 0 "default percentiles" -- "$DISKIO" --mode async --count 50 --size 1M "$dir"
grep -Eq '^mode .* mean +p50 +p99 +p99\.9 +max' "$t_scratch/stdout" &&
    t_ok "default columns p50 p99 p99.9 max" ||
    t_fail "default header changed: $(grep '^mode ' "$t_scratch/stdout")"

# chosen, out of order: shown sorted
t_expect_status 0 "--percentiles 99.99,50,90,99.9,99.999" -- "$DISKIO" --mode async \
    --count 50 --size 1M --percentiles 99.99,50,90,99.9,99.999 "$dir"
grep -Eq '^mode .* mean +p50 +p90 +p99\.9 +p99\.99 +p99\.999 +max' "$t_scratch/stdout" &&
    t_ok "the table shows p50 p90 p99.9 p99.99 p99.999, in order" ||
    t_fail "header: $(grep '^mode' "$t_scratch/stdout")"
grep -Eq '^mode .* p99 ' "$t_scratch/stdout" &&
    t_fail "p99 shown though not asked for" || t_ok "p99 not shown when not asked for"

# the JSON keeps its own list and adds the asked-for ones; 100 is the max
t_expect_status 0 "JSON with p99.999 and p100" -- "$DISKIO" --mode async --count 300 \
    --size 1M --percentiles 50,99.999,100 --format json "$dir"
"$PY" - "$t_scratch/stdout" <<'EOF' && t_ok "JSON holds p50..p99_99, p99_999 and p100 (= max)" || t_fail "JSON percentiles"
import json, sys
total = json.load(open(sys.argv[1]))["runs"][0]["latency"]["total"]
for key in ("p50", "p90", "p99", "p99_9", "p99_99", "p99_999", "p100"):
    assert isinstance(total.get(key), int), key
assert total["p100"] == total["max"], (total["p100"], total["max"])
assert total["p50"] <= total["p99_999"] <= total["max"]
EOF
t_expect_status 0 "CSV with p99.999" -- "$DISKIO" --mode async --count 50 --size 1M \
    --percentiles 99.999 --format csv "$dir"
head -1 "$t_scratch/stdout" | grep -q ',p99_99_ns,p99_999_ns,max_ns,' &&
    t_ok "CSV has a p99_999_ns column after p99_99_ns" ||
    t_fail "CSV header: $(head -1 "$t_scratch/stdout")"

# bad lists: exit 2, the option named, nothing created
for bad in 0 -1 100.5 abc 1e3 0x10 nan inf 50,,99 , . 1,2,3,4,5,6,7,8,9; do
    t_expect_status 2 "--percentiles '$bad' refused" -- "$DISKIO" --mode async --count 10 \
        --percentiles "$bad" "$dir" || continue
    grep -q -- "--percentiles" "$t_scratch/stderr" || t_fail "'$bad': message does not name --percentiles"
done
t_expect_status 2 "--percentiles without a value" -- "$DISKIO" "$dir" --percentiles
# one listed twice, as a mode or a size listed twice: the same message
for twice in 50,99,50 99.9,50,99.90; do
    t_expect_status 2 "--percentiles $twice refused" -- "$DISKIO" --mode async --count 10 \
        --percentiles "$twice" "$dir" &&
        grep -q -- "--percentiles: [0-9.]* is listed twice in '$twice' (" "$t_scratch/stderr" &&
        t_ok "$twice: the message says which is listed twice, as --mode's does" ||
        t_fail "$twice: $(cat "$t_scratch/stderr")"
done
# an exponent is a decimal number too, read by the reader every option uses
t_expect_status 0 "--percentiles 1e-5,99.9" -- "$DISKIO" --mode async --count 10 --size 1M \
    --percentiles 1e-5,99.9 "$dir"
grep -q "p0.00001 .*p99.9" "$t_scratch/stdout" && t_ok "the table shows p0.00001 and p99.9" ||
    t_fail "table: $(cat "$t_scratch/stdout")"
t_expect_empty_dir "$dir" "nothing created by refused lists"
# exactly 8, with 100: accepted
t_expect_status 0 "8 percentiles" -- "$DISKIO" --mode async --count 10 \
    --size 1M --percentiles 1,10,50,90,99,99.9,99.99,100 "$dir"

# percentiles whose keys agree to ten significant digits (99.99999999991,
# 99.99999999992 and 100 are all p100; 99.9900000000001 is the summary's
# p99_99): each key and column once, in the JSON, the CSV and the table
same_keys=99.99999999991,99.99999999992,100,99.9900000000001
t_expect_status 0 "percentiles of one key, CSV" -- "$DISKIO" --mode fsync --count 20 --size 1M \
    --percentiles "$same_keys" --format csv "$dir"
cp "$t_scratch/stdout" "$t_scratch/keys.csv"
t_expect_status 0 "percentiles of one key" -- "$DISKIO" --mode fsync --count 20 --size 1M \
    --percentiles "$same_keys" --output "$t_scratch/keys.json" "$dir"
"$PY" - "$t_scratch/keys.json" "$t_scratch/keys.csv" <<'EOF' && t_ok "no key or column written twice" || t_fail "a key or column written twice"
import json, sys
def once(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), sorted(k for k in keys if keys.count(k) > 1)
    return dict(pairs)
with open(sys.argv[1]) as f:
    total = json.load(f, object_pairs_hook=once)["runs"][0]["latency"]["total"]
assert "p100" in total and "p99_99" in total, sorted(total)
with open(sys.argv[2]) as f:
    header = f.readline().strip().split(",")
assert len(header) == len(set(header)), header
EOF
grep -Eq '^mode .* mean +p99\.99 +p100 +max' "$t_scratch/stdout" &&
    t_ok "the table shows p99.99 and p100 once each" ||
    t_fail "header: $(grep '^mode' "$t_scratch/stdout")"

# too few ops: 300 ops cannot tell p99.9 (1000) or p99.99 (10000) from the
# max, but can p99 (100)
t_expect_status 0 "300 ops" -- "$DISKIO" --mode async --count 300 --size 1M \
    --percentiles 50,99,99.9,99.99 --output "$t_scratch/r.json" "$dir"
grep -q '^\* p99\.9 = max: fewer than 1000 ops$' "$t_scratch/stdout" &&
    grep -q '^\* p99\.99 = max: fewer than 10000 ops$' "$t_scratch/stdout" &&
    t_ok "notes for p99.9 and p99.99" || t_fail "no notes: $(cat "$t_scratch/stdout")"
grep -q '^\* p99 = max' "$t_scratch/stdout" && t_fail "p99 noted with 300 ops" ||
    t_ok "no note for p99"
row=$(grep '^async ' "$t_scratch/stdout")
[ "$(printf '%s\n' "$row" | tr -cd '*' | wc -c)" -eq 2 ] &&
    t_ok "the async row marks two cells" || t_fail "marks in the row: $row"
"$PY" - "$t_scratch/r.json" <<'EOF' && t_ok "JSON: p99_9 and p99_99 limited by ops, equal to the max" || t_fail "JSON percentiles_limited_by_ops"
import json, sys
total = json.load(open(sys.argv[1]))["runs"][0]["latency"]["total"]
assert total["count"] == 300, total["count"]
assert total["percentiles_limited_by_ops"] == ["p99_9", "p99_99"], total["percentiles_limited_by_ops"]
assert total["p99_9"] == total["max"] == total["p99_99"]
EOF

# enough ops for p99.9: neither note nor mark for it
t_expect_status 0 "1000 ops" -- "$DISKIO" --mode async --count 1000 --size 1M \
    --percentiles 50,99.9 --output "$t_scratch/r2.json" "$dir"
grep -q '^\*' "$t_scratch/stdout" && t_fail "a note with 1000 ops: $(cat "$t_scratch/stdout")" ||
    t_ok "no note with 1000 ops"
"$PY" - "$t_scratch/r2.json" <<'EOF' && t_ok "JSON: only p99_99 limited with 1000 ops" || t_fail "JSON with 1000 ops"
import json, sys
total = json.load(open(sys.argv[1]))["runs"][0]["latency"]["total"]
assert total["percentiles_limited_by_ops"] == ["p99_99"], total["percentiles_limited_by_ops"]
EOF
t_expect_empty_dir "$dir" "test file removed"
t_done
