#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: only the pattern table (src/lib/patterns.c) compares a pattern with a DISKIO_PATTERN_ name.
#
# Every fact about a write pattern lives in its row of the pattern table;
# a `== DISKIO_PATTERN_x` or `!= DISKIO_PATTERN_x` comparison anywhere
# else in src/ restates one.  The comparisons that stay are listed below,
# each with its reason (file and the comparison's text, so that moving
# lines does not matter).
src="${top_srcdir:-.}/src"
[ -d "$src/lib" ] || { echo "FAIL: no source tree at $src"; exit 99; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
# file|text of the line, trimmed
cat > "$tmp/allowed" <<'ALLOWED'
src/lib/engine_loop.h|if ((pattern == DISKIO_PATTERN_APPEND || pattern == DISKIO_PATTERN_CREATE) &&
src/lib/engine_loop.h|if (reading && pattern == DISKIO_PATTERN_SEQ && DISKIO_UNLIKELY(offset == 0) &&
ALLOWED
# Why these stay:
# - engine_loop.h: inside the loop instances made per pattern at compile
#   time (ENGINE_SPECIALISE), where the pattern is a constant and the
#   comparison folds away; a table look-up there would be a load between
#   the clock reads of every op.
# The command (src/cli) sees only the public header: it asks the table
# through diskio_pattern_info(), diskio_pattern_grows_file() and
# diskio_pattern_pg_default_mode(), and compares none.
(cd "$src/.." && grep -rnE '[!=]= *DISKIO_PATTERN_' src --include='*.c' --include='*.h') |
    grep -v '^src/lib/patterns\.c:' |
    sed -E 's/^([^:]*):[0-9]+:[[:space:]]*/\1|/; s/[[:space:]]+$//' > "$tmp/found"
status=0
while IFS= read -r line; do
    grep -qxF "$line" "$tmp/allowed" && continue
    echo "FAIL: a pattern decided by name outside src/lib/patterns.c (ask the table): $line"
    status=1
done < "$tmp/found"
[ $status -eq 0 ] && echo "ok: $(wc -l < "$tmp/found") pattern comparisons, all listed with their reason"
exit $status
