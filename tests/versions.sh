#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: configure.ac's AC_INIT is the only source of the version:
# diskio, the library and every script report the same one.  (The scripts and the analysis package read it from the module configure
# generates; this test proves that nothing else carries a copy.)
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
for script in diskio-correlate diskio-plot diskio-pgphases; do
    check "$script" "$("${PYTHON3:-python3}" "$top_builddir/scripts/$script" --version 2>&1 |
        sed -n "s/^$script //p")"
done
exit $status
