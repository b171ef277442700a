#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: the public header compiles on its own, as strict C99 and as C++.
#
# the public header compiles on its own, as C99 with every
# warning an error and as C++ (extern "C"), so any program can include it.
header_dir="${top_builddir:-.}/include"
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
printf '#include <diskio.h>\nint main(void) { return diskio_mode_name(DISKIO_MODE_FSYNC) == 0; }\n' > "$tmp/t.c"
status=0
if "$cc" -std=c99 -Wall -Wextra -Wpedantic -Werror -I"$header_dir" -fsyntax-only "$tmp/t.c"; then
    echo "ok: compiles alone as C99 with -Wall -Wextra -Wpedantic -Werror"
else
    echo "FAIL: diskio.h does not compile alone as C99"; status=1
fi
if command -v "${CXX:-g++}" >/dev/null 2>&1; then
    cp "$tmp/t.c" "$tmp/t.cc"
    if "${CXX:-g++}" -std=c++11 -Wall -Wextra -Werror -I"$header_dir" -fsyntax-only "$tmp/t.cc"; then
        echo "ok: compiles as C++11"
    else
        echo "FAIL: diskio.h does not compile as C++"; status=1
    fi
else
    echo "note: no C++ compiler, C++ check not run"
fi
exit $status
