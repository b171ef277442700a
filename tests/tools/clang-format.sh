#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every C source and header is formatted as .clang-format says.
#
# every C source and header (src/, tests/, examples/,
# bench/*.c, include/diskio.h.in) is formatted as .clang-format says.
# Prints the files that differ and how to fix them.
#
# Exit status: 0 all formatted, 1 some file is not, 77 skipped (no
# clang-format 14: the style is pinned to its output, other versions
# format some constructs differently).
# Environment: top_srcdir (default: the tree this script is in),
# CLANG_FORMAT (a clang-format 14 binary).
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top_srcdir" || exit 1

is_14() { "$1" --version 2>/dev/null | grep -q 'version 14\.'; }
cf=
for t in ${CLANG_FORMAT:-} clang-format-14 clang-format; do
    if command -v "$t" >/dev/null 2>&1 && is_14 "$t"; then cf=$t; break; fi
done
[ -n "$cf" ] || { echo "SKIP: clang-format 14 not found (apt-get install clang-format-14)"; exit 77; }
[ -f .clang-format ] || { echo "FAIL: $top_srcdir/.clang-format is missing"; exit 1; }

work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

bad=0
files=$(find src tests examples -name '*.[ch]' | sort; ls bench/*.c include/diskio.h.in)
for f in $files; do
    case $f in
    *.h.in) "$cf" --style=file --assume-filename="${f%.in}" <"$f" >"$work/out" ;;
    *) "$cf" --style=file "$f" >"$work/out" ;;
    esac
    if ! cmp -s "$f" "$work/out"; then
        echo "not formatted: $f"
        diff -u "$f" "$work/out" | head -n 20
        bad=$((bad + 1))
    fi
done
n=$(echo "$files" | wc -w)
if [ "$bad" -ne 0 ]; then
    echo "FAIL: $bad of $n files differ from .clang-format; run: $cf -i --style=file FILE"
    echo "(include/diskio.h.in: $cf --style=file --assume-filename=include/diskio.h)"
    exit 1
fi
echo "PASS: $n files formatted as .clang-format says ($($cf --version))"
exit 0
