#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: libdiskio exports exactly the functions its public header declares, each versioned.
#
# libdiskio exports exactly the functions its public header
# declares: nothing private leaks (every symbol starts with diskio_) and
# nothing declared is missing.  Each carries the version node of the
# interface that added it (diskio_x@@LIBDISKIO_1, src/lib/libdiskio.map),
# unless configure found a linker without --version-script
# (DISKIO_LD_VERSION_SCRIPT=no), and every node is named after the
# soname's major: LIBDISKIO_1 or LIBDISKIO_1.N in libdiskio.so.1.
lib="${top_builddir:-.}/.libs/libdiskio.so"
header="${top_builddir:-.}/include/diskio.h"
[ -f "$lib" ] || { echo "SKIP: no shared library at $lib (static build?)"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm not found"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u > "$tmp/versioned"
sed 's/@.*//' "$tmp/versioned" | sort -u > "$tmp/exported"
grep -o '\bdiskio_[a-z0-9_]*(' "$header" | tr -d '(' | sort -u > "$tmp/declared"
status=0
leaked=$(grep -v '^diskio_' "$tmp/exported")
[ -n "$leaked" ] && { echo "FAIL: exported without the diskio_ prefix: $leaked"; status=1; }
missing=$(comm -13 "$tmp/exported" "$tmp/declared")
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
[ -n "$missing" ] && { echo "FAIL: declared but not exported: $missing"; status=1; }
[ -n "$extra" ] && { echo "FAIL: exported but not declared: $extra"; status=1; }
[ $status -eq 0 ] && echo "ok: $(wc -l < "$tmp/exported") exported symbols match the header"

if [ "${DISKIO_LD_VERSION_SCRIPT:-yes}" = no ]; then
    echo "note: the linker takes no version script: the symbols are not versioned"
    exit $status
fi
# the soname's major, from the library's own dynamic section
major=$(LC_ALL=C readelf -d "$lib" | sed -n 's/.*Library soname: \[libdiskio\.so\.\([0-9][0-9]*\)\].*/\1/p')
[ -n "$major" ] || { echo "FAIL: no soname libdiskio.so.N in $lib"; exit 1; }
unversioned=$(grep -v "@@LIBDISKIO_$major\(\.[0-9][0-9]*\)\{0,1\}\$" "$tmp/versioned")
if [ -n "$unversioned" ]; then
    echo "FAIL: exported without a LIBDISKIO_$major or LIBDISKIO_$major.N version (the soname is libdiskio.so.$major; src/lib/libdiskio.map):" $unversioned
    status=1
else
    nodes=$(sed 's/.*@@//' "$tmp/versioned" | sort -u | tr '\n' ' ')
    echo "ok: every exported symbol is versioned (nodes: $nodes)"
fi
exit $status
