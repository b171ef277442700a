#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: libdiskio exports exactly the functions its public header declares.
#
# libdiskio exports exactly the functions its public header
# declares: nothing private leaks (every symbol starts with diskio_) and
# nothing declared is missing.
lib="${top_builddir:-.}/.libs/libdiskio.so"
header="${top_builddir:-.}/include/diskio.h"
[ -f "$lib" ] || { echo "SKIP: no shared library at $lib (static build?)"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm not found"; exit 77; }
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sed 's/@.*//' | sort -u)
declared=$(grep -o '\bdiskio_[a-z0-9_]*(' "$header" | tr -d '(' | sort -u)
status=0
leaked=$(printf '%s\n' "$exported" | grep -v '^diskio_')
[ -n "$leaked" ] && { echo "FAIL: exported without the diskio_ prefix: $leaked"; status=1; }
missing=$(comm -13 "$(printf '%s\n' "$exported" > exp.tmp; echo exp.tmp)" \
               "$(printf '%s\n' "$declared" > dec.tmp; echo dec.tmp)")
extra=$(comm -23 exp.tmp dec.tmp)
rm -f exp.tmp dec.tmp
[ -n "$missing" ] && { echo "FAIL: declared but not exported: $missing"; status=1; }
[ -n "$extra" ] && { echo "FAIL: exported but not declared: $extra"; status=1; }
[ $status -eq 0 ] && echo "ok: $(printf '%s\n' "$exported" | wc -l) exported symbols match the header"
exit $status
