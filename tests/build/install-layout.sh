#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: make install puts README, doc/ and examples in place, no .la, and make uninstall undoes it.
#
# make install (into a DESTDIR) installs the README, every
# file of doc/ and the examples under the documentation directory, and no
# libtool archive (.la) anywhere; no installed command names the build
# tree (the build tree's scripts/ do, to run from it), and the installed
# diskio looks for suites where make install put them, never in the
# source tree; make uninstall then removes every file it installed, the
# library's too.  (make's variables from the make check that
# runs this test are kept from the nested make.)
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
top_builddir=${top_builddir:-.}
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/diskio-install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
dest="$tmp/root"
nested_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" "$@"; }

nested_make install DESTDIR="$dest" > "$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log"
    echo "FAIL: make install"
    exit 1
}
readme=$(find "$dest" -path '*/share/doc/*' -name README.md | head -n 1)
[ -n "$readme" ] || { echo "FAIL: no README.md under share/doc"; exit 1; }
doc=$(dirname "$readme")
cmp -s "$readme" "$top_srcdir/README.md" && ok "README.md is installed in ${doc#"$dest"}" ||
    fail "the installed README.md differs"
for f in "$top_srcdir"/doc/*; do
    name=$(basename "$f")
    cmp -s "$doc/$name" "$f" && ok "doc/$name is installed" || fail "doc/$name not installed"
done
for f in "$top_srcdir"/examples/*.c; do
    name=$(basename "$f")
    cmp -s "$doc/examples/$name" "$f" && ok "examples/$name is installed" ||
        fail "examples/$name not installed"
done
la=$(find "$dest" -name '*.la')
[ -z "$la" ] && ok "no libtool archive installed" || fail "libtool archives installed: $la"
find "$dest" -name 'libdiskio.so.1' | grep -q . && ok "the shared library is installed" ||
    fail "no libdiskio.so.1 installed"

for script in "$dest"/*/bin/diskio-* "$dest"/*/*/bin/diskio-*; do
    [ -f "$script" ] || continue
    case $(head -c 2 "$script") in '#!') ;; *) continue ;; esac
    if grep -qF "$top_builddir" "$script" || grep -qF "$top_srcdir/python" "$script"; then
        fail "${script#"$dest"} names the build tree: $(grep -F "$top_builddir" "$script")"
    else
        ok "${script#"$dest"} finds its package where make install put it"
    fi
done
bin=$(find "$dest" -path '*/bin/diskio' -type f | head -n 1)
lib=$(find "$dest" -name 'libdiskio.so.1' | head -n 1)
if [ -n "$bin" ] && [ -n "$lib" ]; then
    LD_LIBRARY_PATH=$(dirname "$lib") DISKIO_SUITE_PATH='' "$bin" --suite no-such-suite "$tmp" \
        >/dev/null 2>"$tmp/suite.err"
    if grep -q "share/diskio/suites (the suites there" "$tmp/suite.err" &&
        ! grep -qF "$top_srcdir/suites" "$tmp/suite.err"; then
        ok "the installed diskio looks for suites in the installed directory"
    else
        fail "the installed diskio's suites: $(cat "$tmp/suite.err")"
    fi
fi

nested_make uninstall DESTDIR="$dest" > "$tmp/uninstall.log" 2>&1 || {
    cat "$tmp/uninstall.log"
    fail "make uninstall"
}
left=$(find "$dest" ! -type d)
[ -z "$left" ] && ok "make uninstall leaves no file behind" || fail "left after uninstall: $left"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
exit 0
