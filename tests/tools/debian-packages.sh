#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: debian/ builds the four binary packages from the tarball, complete and lintian-clean.
#
# debian/ builds the binary packages diskio, libdiskio1,
# libdiskio-dev and python3-diskio-analysis with `dpkg-buildpackage -us -uc
# -b` from this package's distributed files (make distdir, in a temporary
# directory: the source and build trees are not touched), and the packages
# hold what Debian users expect: no libtool .la files; the shared library
# in libdiskio1; header, .pc, static library and man pages in -dev (the
# static library links the example); every man page Makefile.am installs;
# the bash completion of every command where bash-completion finds it;
# doc/ and examples/ as documentation; the analysis package under
# /usr/lib/python3/dist-packages, found by the extracted commands; a
# symbols file that matches the library; lintian with no error or warning
# other than the documented overrides (each override has a comment).
# Exit 77 when dpkg-buildpackage, dh, lintian or a build dependency is
# missing.
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
top_builddir=${top_builddir:-.}
top_srcdir=$(cd "$top_srcdir" && pwd)
top_builddir=$(cd "$top_builddir" && pwd)

for tool in dpkg-buildpackage dpkg-deb dpkg-architecture dpkg-checkbuilddeps dh lintian; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "SKIP: $tool not found (tools/install-deps installs the packaging tools)"
        exit 77
    }
done
if ! dpkg-checkbuilddeps "$top_srcdir/debian/control" 2>/dev/null; then
    echo "SKIP: the build dependencies in debian/control are not all installed:"
    dpkg-checkbuilddeps "$top_srcdir/debian/control" 2>&1 | sed 's/^/  /'
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/diskio-deb.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

version=${PACKAGE_VERSION:?PACKAGE_VERSION not set}
src="$tmp/diskio-$version"
# The distributed files, as a tarball would unpack them: debian/ must be in
# EXTRA_DIST for the build to find it.  (make's variables from the make
# check that runs this test must not reach the nested builds.)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" distdir distdir="$src" \
    > "$tmp/distdir.log" 2>&1 || {
    cat "$tmp/distdir.log"
    echo "FAIL: make distdir"
    exit 1
}

# The package build never runs the test suite (debian/rules: the suite
# needs root, loop devices and PostgreSQL, and this test runs inside it).
echo "building the packages in $src (log: dpkg-buildpackage.log on failure)"
start=$(date +%s)
if ! (cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u PYTHONPATH \
          -u PYTHONDONTWRITEBYTECODE DEB_BUILD_OPTIONS="nocheck parallel=2" \
          dpkg-buildpackage -us -uc -b) > "$tmp/build.log" 2>&1; then
    tail -n 60 "$tmp/build.log"
    echo "FAIL: dpkg-buildpackage -us -uc -b"
    exit 1
fi
echo "built in $(($(date +%s) - start)) s"

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb() { # package -> its .deb
    for f in "$tmp/$1_"*"_$arch.deb" "$tmp/$1_"*"_all.deb"; do
        [ -f "$f" ] && { echo "$f"; return 0; }
    done
    return 1
}
contents() { # package -> its paths, one a line, without the leading ./
    dpkg-deb -c "$(deb "$1")" | awk '{print $6}' | sed 's|^\./||'
}
packages="diskio libdiskio1 libdiskio-dev python3-diskio-analysis"
for p in $packages; do
    if deb "$p" >/dev/null; then
        contents "$p" > "$tmp/$p.list"
        ok "built $p"
    else
        fail "no package $p was built"
        : > "$tmp/$p.list"
    fi
done
cat "$tmp"/*.list > "$tmp/all.list"
has() { # package path-regex what
    if grep -Eq "^$2\$" "$tmp/$1.list"; then ok "$1 holds $3"; else fail "$1 lacks $3 ($2)"; fi
}

# libtool archives: never (Debian policy 10.2)
la=$(grep -E '\.la$' "$tmp/all.list")
if [ -z "$la" ]; then ok "no .la file in any package"; else fail "libtool archives installed: $la"; fi

libdir="usr/lib/$multiarch"
has libdiskio1 "$libdir/libdiskio\\.so\\.1" "libdiskio.so.1"
has libdiskio1 "$libdir/libdiskio\\.so\\.1\\.[0-9.]+" "the shared library"
has libdiskio-dev "usr/include/diskio\\.h" "the header"
has libdiskio-dev "$libdir/libdiskio\\.so" "the link-time libdiskio.so"
has libdiskio-dev "$libdir/libdiskio\\.a" "the static library"
has libdiskio-dev "$libdir/pkgconfig/libdiskio\\.pc" "libdiskio.pc"
has diskio "usr/bin/diskio" "the command"
has diskio "usr/bin/diskio-durable" "the durability listener"
has diskio "$libdir/diskio/libdiskio-delay\\.so" "the delay module in its private directory"
for cmd in diskio-compare diskio-correlate diskio-plot diskio-pgphases; do
    has python3-diskio-analysis "usr/bin/$cmd" "$cmd"
done
has python3-diskio-analysis "usr/lib/python3/dist-packages/diskio_analysis/__init__\\.py" \
    "the analysis package at Debian's python path"
has python3-diskio-analysis \
    "usr/lib/python3/dist-packages/diskio_analysis/pgphases/sql/q01\\.sql" "pgphases' SQL"
pyc=$(grep -E '__pycache__|\.pyc$' "$tmp/all.list")
if [ -z "$pyc" ]; then
    ok "no byte-compiled file shipped (python3 compiles on install)"
else
    fail "byte-compiled files shipped: $pyc"
fi

# every man page Makefile.am installs (man_MANS, dist_man_MANS) is in a package
pages=$(sed -n '/^man_MANS =/,/^$/p; /^dist_man_MANS =/,/^$/p' "$top_srcdir/Makefile.am" |
    grep -oE 'man/[A-Za-z0-9_.-]+\.[1-8]' | sort -u)
[ -n "$pages" ] || fail "no man page found in Makefile.am's man_MANS"
missing=""
for page in $pages; do
    name=${page#man/}
    grep -Eq "^usr/share/man/man${name##*.}/$name\\.gz\$" "$tmp/all.list" || missing="$missing $name"
done
if [ -z "$missing" ]; then
    ok "all $(echo "$pages" | wc -l) man pages are packaged"
else
    fail "man pages in Makefile.am but in no package:$missing"
fi

# the bash completion of every command, where bash-completion looks
for cmd in diskio diskio-durable diskio-compare diskio-correlate diskio-plot diskio-pgphases; do
    has diskio "usr/share/bash-completion/completions/$cmd" "the completion of $cmd"
done

# doc/ and examples/ as documentation
for f in "$top_srcdir"/doc/*; do
    name=$(basename "$f")
    if grep -Eq "^usr/share/doc/[^/]+/$name(\\.gz)?\$" "$tmp/all.list"; then
        ok "doc/$name is packaged documentation"
    else
        fail "doc/$name is in no package's documentation"
    fi
done
for f in "$top_srcdir"/examples/*.c; do
    name=$(basename "$f")
    if grep -Eq "^usr/share/doc/[^/]+/examples/$name\$" "$tmp/all.list"; then
        ok "examples/$name is a packaged example"
    else
        fail "examples/$name is in no package's examples"
    fi
done

# the symbols file matches the library (dpkg-gensymbols warns otherwise)
if grep -q 'dpkg-gensymbols: warning' "$tmp/build.log"; then
    grep -A40 'dpkg-gensymbols: warning' "$tmp/build.log" | head -n 60
    fail "debian/libdiskio1.symbols does not match the library: add the new symbols (with the" \
        "version that adds them; dpkg-gensymbols' diff above) or bump the soname"
else
    ok "debian/libdiskio1.symbols matches the library's symbols"
fi

# lintian: no error or warning but the documented overrides
for f in "$top_srcdir"/debian/*.lintian-overrides; do
    awk -v f="$(basename "$f")" '
        /^#/ { comment = 1; next }
        /^[ \t]*$/ { next }
        !comment { print "FAIL: " f ": the override \"" $0 "\" has no comment saying why"; bad = 1 }
        { comment = 0 }
        END { exit bad }' "$f" || failures=$((failures + 1))
done
changes=$(ls "$tmp"/*.changes)
lintian --fail-on none "$changes" > "$tmp/lintian.out" 2>&1
sed -n '/^[EW]: /p' "$tmp/lintian.out" > "$tmp/lintian.bad"
if [ -s "$tmp/lintian.bad" ]; then
    cat "$tmp/lintian.bad"
    fail "lintian reports errors or warnings not covered by a debian/*.lintian-overrides"
else
    ok "lintian: no error or warning ($(grep -c '^[IP]: ' "$tmp/lintian.out") info/pedantic tags)"
fi

# the extracted packages work from Debian's paths
root="$tmp/root"
mkdir "$root"
for p in $packages; do
    f=$(deb "$p") && dpkg-deb -x "$f" "$root"
done
if out=$(LD_LIBRARY_PATH="$root/$libdir" "$root/usr/bin/diskio" --version) &&
    [ "$out" = "diskio $version" ]; then
    ok "the packaged diskio reports $out"
else
    fail "the packaged diskio --version says '$out', want 'diskio $version'"
fi
if out=$(LD_LIBRARY_PATH="$root/$libdir" "$root/usr/bin/diskio-durable" --version) &&
    [ "$out" = "diskio-durable $version" ]; then
    ok "the packaged diskio-durable reports $out"
else
    fail "the packaged diskio-durable --version says '$out', want 'diskio-durable $version'"
fi
for cmd in diskio-compare diskio-correlate diskio-plot diskio-pgphases; do
    grep -q '"/usr/lib/python3/dist-packages"' "$root/usr/bin/$cmd" ||
        fail "$cmd does not look for its package in /usr/lib/python3/dist-packages"
    if out=$(env PYTHONPATH="$root/usr/lib/python3/dist-packages" "${PYTHON3:-python3}" \
                 "$root/usr/bin/$cmd" --version 2>&1) && [ "$out" = "$cmd $version" ]; then
        ok "the packaged $cmd reports $version from the packaged diskio_analysis"
    else
        fail "the packaged $cmd --version says '$out', want '$cmd $version'"
    fi
done
where=$(env PYTHONPATH="$root/usr/lib/python3/dist-packages" "${PYTHON3:-python3}" -c \
    'import diskio_analysis; print(diskio_analysis.__file__)')
case $where in
    "$root"/*) ok "diskio_analysis is imported from the package" ;;
    *) fail "diskio_analysis was imported from $where, not the package" ;;
esac
# the static library and the .pc file are enough to link the example
cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1; then
    libs=$(PKG_CONFIG_LIBDIR="$root/$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root" \
        pkg-config --static --libs libdiskio | sed 's/-ldiskio\b//')
    # shellcheck disable=SC2086
    if "$cc" -I"$root/usr/include" -o "$tmp/custom_timing" \
        "$root/usr/share/doc/libdiskio-dev/examples/custom_timing.c" \
        "$root/$libdir/libdiskio.a" $libs -lpthread > "$tmp/cc.log" 2>&1 &&
        ! ldd "$tmp/custom_timing" | grep -q libdiskio; then
        ok "the example links statically against libdiskio.a with the .pc's libraries"
    else
        cat "$tmp/cc.log"
        fail "the example does not link against the packaged libdiskio.a"
    fi
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
exit 0
