#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: every program and package reports AC_INIT's version, the only one written.
#
# configure.ac's AC_INIT is the only source of the version:
# diskio, the library and every script report the same one.  (The scripts
# and the analysis package read it from the module configure generates;
# this test proves that nothing else carries a copy, except
# debian/changelog, which dpkg needs and whose upstream version must be
# AC_INIT's.)
want=${PACKAGE_VERSION:?PACKAGE_VERSION not set}
status=0
check() { # what got
    if [ "$2" = "$want" ]; then
        echo "ok: $1 reports $want"
    else
        echo "FAIL: $1 reports '$2', configure.ac says $want"
        status=1
    fi
}
check diskio "$("$DISKIO" --version | sed -n 's/^diskio //p')"
for script in diskio-correlate diskio-plot diskio-pgphases diskio-compare; do
    check "$script" "$("${PYTHON3:-python3}" "$top_builddir/scripts/$script" --version 2>&1 |
        sed -n "s/^$script //p")"
done
# the analysis package itself
check diskio_analysis "$("${PYTHON3:-python3}" -c 'import diskio_analysis; print(diskio_analysis.__version__)')"
# debian/changelog must carry a copy (dpkg reads the package version from
# it): its upstream part, without epoch and Debian revision, is AC_INIT's
if [ -f "$top_srcdir/debian/changelog" ]; then
    check "debian/changelog" "$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$top_srcdir/debian/changelog" |
        sed -e 's/^[0-9]*://' -e 's/-[^-]*$//')"
fi
# every man page with a .TH line shows the version configure gave it ...
for page in "$top_builddir"/man/*.[137]; do
    th=$(sed -n 's/^\.TH .*"diskio \([^"]*\)".*/\1/p' "$page")
    [ -n "$th" ] || continue
    check "man page $(basename "$page")" "$th"
done
# ... and no source carries a copy of the version typed by hand: not the
# man pages (a page made from PAGE.in is generated, the rest are sources),
# the commands or the package's modules
copies=$(
    for page in "$top_srcdir"/man/*; do
        case $page in *.in) ;; *) [ -e "$page.in" ] && continue ;; esac
        grep -l -F "diskio $want" "$page"
    done
    find "$top_srcdir/scripts" "$top_srcdir/python" -type f \( -name '*.in' -o -name '*.py' \) \
        ! -name _version.py -exec grep -l -F "\"$want\"" {} + 2>/dev/null)
if [ -n "$copies" ]; then
    echo "FAIL: the version $want is typed by hand in: $copies"
    status=1
else
    echo "ok: no man page, command or module types the version by hand"
fi
exit $status
