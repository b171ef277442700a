#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: libdiskio's output does not depend on the host program's locale.
#
# libdiskio's output does not depend on the host program's
# locale.  A program that calls setlocale(LC_ALL, ...) with a decimal-comma
# locale (de_DE.UTF-8, made with localedef when the system has none) writes
# a result as JSON, CSV and text: the JSON parses, every number has a '.'
# decimal point, CSV rows have as many fields as the header, and the
# host's locale is as it was afterwards (issue 11, item 7).
. "${top_srcdir:-.}/tests/lib/cli.sh"
PYTHON3=${PYTHON3:-python3}
command -v "$PYTHON3" >/dev/null 2>&1 || { echo "SKIP: no python3 to read the output"; exit 77; }
writer="${top_builddir:-.}/tests/locale-writer"
t_built "$writer"
out="$t_scratch/out"
mkdir "$out"
locales="de_DE.UTF-8 de_DE.utf8 fr_FR.UTF-8 fr_FR.utf8 nl_NL.UTF-8 es_ES.UTF-8 it_IT.UTF-8"

"$writer" "$out" $locales
status=$?
if [ $status -eq 77 ]; then
    # none installed: make one for this test alone (LOCPATH)
    command -v localedef >/dev/null 2>&1 || { echo "SKIP: no decimal-comma locale, no localedef"; exit 77; }
    echo "none installed: making de_DE.UTF-8 for this test with localedef"
    mkdir "$t_scratch/locale"
    localedef -i de_DE -f UTF-8 "$t_scratch/locale/de_DE.UTF-8" >"$t_scratch/localedef.out" 2>&1
    [ -d "$t_scratch/locale/de_DE.UTF-8" ] || {
        echo "SKIP: localedef could not make de_DE.UTF-8: $(cat "$t_scratch/localedef.out")"
        exit 77
    }
    LOCPATH="$t_scratch/locale" "$writer" "$out" de_DE.UTF-8
    status=$?
fi
[ $status -eq 77 ] && exit 77
[ $status -eq 0 ] && t_ok "a result written under a decimal-comma locale" ||
    { t_fail "locale-writer exit $status"; t_done; }

"$PYTHON3" - "$out" <<'PY' && t_ok "JSON, CSV and text numbers use '.' whatever the locale" ||
import csv, json, re, sys
d = sys.argv[1]
doc = json.load(open(d + "/r.json", encoding="utf-8"))
paced, custom = doc["runs"]
assert paced["parameters"]["rate_ops_per_s"] == 1e9 / 3000000, paced["parameters"]
assert isinstance(paced["ops_per_s"], float) and paced["ops"] == 5
assert abs(custom["ops_per_s"] - 1000 / 3) < 1e-9, custom["ops_per_s"]
assert custom["latency"]["total"]["mean"] == 2000.5, custom["latency"]["total"]
print("JSON: ops_per_s %r, mean %r" % (custom["ops_per_s"], custom["latency"]["total"]["mean"]))

rows = list(csv.reader(open(d + "/r.csv", encoding="utf-8", newline="")))
header = rows[0]
assert len(rows) > 2
for row in rows[1:]:
    assert len(row) == len(header), (len(row), len(header), row)
    rec = dict(zip(header, row))
    for key in ("duration_s", "ops_per_s", "mb_per_s", "mean_ns", "stddev_ns"):
        float(rec[key])  # '333,333' would not parse (nor keep the row's width)
custom_row = [r for r in rows[1:] if r[1] == "custom"][0]
assert dict(zip(header, custom_row))["ops_per_s"] == "333.333", custom_row
print("CSV: %d rows of %d fields" % (len(rows) - 1, len(header)))

text = open(d + "/r.txt", encoding="utf-8").read()
assert re.search(r"\bcustom .* 333\.3 ", text), text
assert not re.search(r"\d,\d", text), text
print("text: ok")
PY
    t_fail "output under a decimal-comma locale"
left=$(ls -A "$out" | tr '\n' ' ')
[ "$left" = "r.csv r.json r.txt " ] || t_fail "the run's test file was left: $left"
t_done
