#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a target name with invalid UTF-8 and terminal escapes reaches no output unescaped.
#
# a target directory whose name is not UTF-8 and holds
# terminal escapes (ESC [2J clears the screen, ESC ] 0 retitles the
# window) gives a JSON result that the analysis package's reader and
# diskio-compare read (the bad bytes become U+FFFD, the escapes \u001b),
# and a text table and CSV that hold no control character: the name is
# shown with \xHH.  A --label that is not printable UTF-8 (a bidi
# override such as U+202E included) is refused with exit status 2 before
# anything is created, without being echoed.
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read the results"; exit 77; }
compare="${top_builddir:-.}/scripts/diskio-compare"
t_built "$compare"

name=$(printf 'bad\377\300\200\355\240\200\033[2J\033]0;pwned\007end')
dir="$t_scratch/$name"
mkdir "$dir" || { echo "SKIP: this filesystem refuses a non-UTF-8 name"; exit 77; }
run() {
    "$DISKIO" --mode fsync,async --count 20 --size 1m "$@"
}

t_expect_status 0 "run on a non-UTF-8 directory, JSON output" -- \
    run --label "Z$(printf '\303\274')rich" --output "$t_scratch/a.json" "$dir" || t_done
cp "$t_scratch/stdout" "$t_scratch/table.txt"
t_expect_status 0 "a second result to compare with" -- \
    run --label B --quiet --output "$t_scratch/b.json" "$dir" || t_done
t_expect_status 0 "CSV on standard output" -- run --label B --format csv "$dir" || t_done
cp "$t_scratch/stdout" "$t_scratch/out.csv"
t_expect_empty_dir "$dir" "test files removed"

"$PYTHON3" - "$t_scratch" <<'PY' && t_ok "JSON, CSV and the table are valid UTF-8 without control characters" ||
import csv, io, json, sys
from diskio_analysis.result import load_result
d = sys.argv[1]
want_dir = (b"/bad\xff\xc0\x80\xed\xa0\x80\x1b[2J\x1b]0;pwned\x07end").decode("utf-8", "replace")
# the package's one result reader (the one diskio-correlate, -plot and
# -compare use) takes the file and gives the path as U+FFFD and escapes
res = load_result(d + "/a.json")
assert res.label == "Z\u00fcrich", res.label
got = res.environment.target.directory
assert got.endswith(want_dir), ascii(got)
assert [r.mode for r in res.runs] == ["fsync", "async"]
raw = open(d + "/a.json", "rb").read()
raw.decode("utf-8")                       # strict
assert b"\x1b" not in raw and b"\x07" not in raw, "raw control character in the JSON"
assert b"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\u001b[2J\\u001b]0;pwned\\u0007end" in raw, raw
# the table and the CSV show the bytes as \xHH and hold no control byte
# besides the line ends
for f in ("table.txt", "out.csv"):
    data = open(d + "/" + f, "rb").read()
    data.decode("utf-8")
    bad = [b for b in data if (b < 0x20 and b != 0x0a) or b == 0x7f]
    assert not bad, (f, bad)
table = open(d + "/table.txt", encoding="utf-8").read()
assert "/bad\\xff\\xc0\\x80\\xed\\xa0\\x80\\x1b[2J\\x1b]0;pwned\\x07end:" in table, table
rows = list(csv.reader(io.StringIO(open(d + "/out.csv", encoding="utf-8", newline="").read())))
assert len(rows) == 1 + 4 and all(len(r) == len(rows[0]) for r in rows), rows
print("read back: label %s, directory ...%s" % (res.label, ascii(got[-30:])))
PY
    t_fail "reading the results back"

"$PYTHON3" "$compare" "$t_scratch/a.json" "$t_scratch/b.json" >"$t_scratch/compare.out" 2>&1 &&
    t_ok "diskio-compare reads both results" ||
    t_fail "diskio-compare: $(cat "$t_scratch/compare.out")"

# a label is the user's own text: refused, before anything is created
for label in "a$(printf '\377')" "$(printf '\300\200')" "$(printf 'x\355\240\200')" \
    "ab$(printf '\342\202')" "a$(printf '\033')[31m" "del$(printf '\177')" \
    "rev$(printf '\342\200\256')erse" "iso$(printf '\342\201\246')late"; do
    t_expect_status 2 "--label $(printf '%s' "$label" | od -An -tx1 | tr -d ' \n') refused" -- \
        "$DISKIO" --mode fsync --count 5 --size 1m --label "$label" -o "$t_scratch/no.json" "$dir"
    grep -q "^diskio: --label: byte" "$t_scratch/stderr" ||
        t_fail "the refusal does not name the byte: $(cat "$t_scratch/stderr")"
    grep -q -F "$label" "$t_scratch/stderr" && t_fail "the refusal echoes the label raw"
done
[ ! -e "$t_scratch/no.json" ] || t_fail "a refused label wrote a result"
t_expect_empty_dir "$dir" "nothing created for a refused label"
t_done
