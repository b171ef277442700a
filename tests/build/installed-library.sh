#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: a program built against an installed libdiskio runs with each documented linking recipe.
#
# a program built with pkg-config against libdiskio installed
# under a prefix the dynamic linker does not search (make install into a
# DESTDIR, the .pc relocated to it) fails to start the way libdiskio(3)
# says ("libdiskio.so.1: cannot open shared object file"), and runs with
# each runtime-linking recipe of libdiskio(3)'s LINKING section, taken
# from the page as groff renders it: the rpath build, and LD_LIBRARY_PATH.
# The program is examples/custom_timing.c; it writes a JSON result.
# Skips (77) without a C compiler, man, or a pkg-config with
# --define-prefix (pkgconf, pkg-config 0.29).
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
top_builddir=${top_builddir:-.}
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)
cc=${CC:-cc}
for tool in "$cc" pkg-config man; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found"; exit 77; }
done
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/diskio-lib.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
root="$tmp/root"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" install DESTDIR="$root" \
    > "$tmp/install.log" 2>&1 || {
    cat "$tmp/install.log"
    echo "FAIL: make install"
    exit 1
}
pc=$(find "$root" -name libdiskio.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: no libdiskio.pc installed"; exit 1; }
# The installed tree stands for a prefix of its own (./configure
# --prefix=DIR; make install): the recipes' pkg-config finds the .pc by
# PKG_CONFIG_PATH and takes its prefix from where the .pc lies (pkgconf's
# --define-prefix, given by a wrapper first on PATH), as it would give the
# configured prefix of such an install.
real_pkg_config=$(command -v pkg-config)
mkdir "$tmp/bin"
printf '#!/bin/sh\nexec "%s" --define-prefix "$@"\n' "$real_pkg_config" > "$tmp/bin/pkg-config"
chmod +x "$tmp/bin/pkg-config"
PATH="$tmp/bin:$PATH"
PKG_CONFIG_PATH=$(dirname "$pc")
export PATH PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir libdiskio)
case $libdir in
    "$root"/*) ok "pkg-config gives the installed libdir, $libdir" ;;
    *) echo "SKIP: pkg-config has no --define-prefix (libdir $libdir)"; exit 77 ;;
esac

# the recipes, as the page shows them
MANWIDTH=200 man -l "$top_builddir/man/libdiskio.3" 2>/dev/null | sed 's/^ *//' > "$tmp/page.txt"
build=$(grep '^cc prog.c -o prog \$(pkg-config --cflags --libs libdiskio)$' "$tmp/page.txt" | head -n 1)
rpath=$(sed -n '/^cc prog.c -o prog .* \\$/{N;s/\\\n */ /;p;}' "$tmp/page.txt" | grep -e '-Wl,-rpath' |
    head -n 1)
ldpath=$(grep '^LD_LIBRARY_PATH=\$(pkg-config --variable=libdir libdiskio) ./prog$' "$tmp/page.txt" |
    head -n 1)
[ -n "$build" ] && ok "libdiskio(3) shows the build: $build" || fail "no plain build line in libdiskio(3)"
[ -n "$rpath" ] && ok "libdiskio(3) shows the rpath build: $rpath" ||
    fail "no rpath build in libdiskio(3)"
[ -n "$ldpath" ] && ok "libdiskio(3) shows the LD_LIBRARY_PATH run: $ldpath" ||
    fail "no LD_LIBRARY_PATH run in libdiskio(3)"
grep -q "libdiskio.so.1: cannot open shared object file" "$tmp/page.txt" ||
    fail "libdiskio(3) does not show the loader's message"
[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }

cp "$top_srcdir/examples/custom_timing.c" "$tmp/prog.c"
mkdir "$tmp/run"
cd "$tmp" || exit 99
# cc is the compiler the tests were given; a library built with
# --enable-sanitizers needs their runtime in the program too
ccline=$cc
if nm -D "$libdir/libdiskio.so.1" 2>/dev/null | grep -q __asan_; then
    ccline="$cc -fsanitize=address,undefined"
fi
run_recipe() { # what: the command line with "cc" first
    eval "$ccline${1#cc}" > "$tmp/cc.log" 2>&1 || { cat "$tmp/cc.log"; return 1; }
}

# 1. the plain build runs only where the loader finds the library
run_recipe "$build" || fail "the plain build did not compile"
./prog "$tmp/run" > "$tmp/out.json" 2> "$tmp/err"
status=$?
if [ "$status" -ne 0 ]; then
    grep -q "libdiskio.so.1: cannot open shared object file" "$tmp/err" &&
        ok "the plain build fails to start as libdiskio(3) says ($(cat "$tmp/err"))" ||
        fail "the plain build failed otherwise: $(cat "$tmp/err")"
else
    echo "note: a libdiskio.so.1 is installed where the loader looks:" \
        "$(ldd ./prog | grep libdiskio)"
fi

# 2. the rpath build runs from anywhere, with the installed library
rm -f prog
run_recipe "$rpath" || fail "the rpath build did not compile"
env -u LD_LIBRARY_PATH ./prog "$tmp/run" > "$tmp/out.json" 2> "$tmp/err" &&
    grep -q '"mode": "log-append"' "$tmp/out.json" && ok "the rpath build runs and writes its result" ||
    fail "the rpath build: $(cat "$tmp/err")"
ldd ./prog | grep -q "libdiskio.so.1 => $libdir/libdiskio.so.1" &&
    ok "it loads the installed library" || fail "it loads: $(ldd ./prog | grep libdiskio)"

# 3. LD_LIBRARY_PATH makes the plain build run
rm -f prog
run_recipe "$build" || fail "the plain build did not compile"
eval "${ldpath%./prog}" ./prog "\"$tmp/run\"" > "$tmp/out.json" 2> "$tmp/err" &&
    grep -q '"mode": "log-append"' "$tmp/out.json" && ok "LD_LIBRARY_PATH makes the plain build run" ||
    fail "LD_LIBRARY_PATH: $(cat "$tmp/err")"
[ -z "$(ls -A "$tmp/run")" ] || fail "the example left files: $(ls -A "$tmp/run")"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
exit 0
