#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: diskio-plot on a full filesystem fails with status 1 and leaves no empty or cut-short image.
#
# diskio-plot with its --outdir on a full filesystem (a
# tmpfs of our own, root only) fails with status 1 and a message naming
# the image and the error, and leaves nothing there: no empty or
# cut-short image, no temporary (gnuplot exits 0 on a full disk; its
# images used to be put in place empty).  Skips (77) without root,
# tmpfs or gnuplot.
set -u
: "${top_builddir:?top_builddir not set}" "${top_srcdir:?top_srcdir not set}"
py=${PYTHON3:-python3}
bin=$top_builddir/scripts
fixtures=$top_srcdir/tests/scripts/fixtures
if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    echo "SKIP: gnuplot not found"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/diskio-plot-full.XXXXXX") || exit 99
mkdir "$work/full"
if [ "$(id -u)" -ne 0 ] ||
    ! mount -t tmpfs -o size=1m tmpfs "$work/full" 2>/dev/null; then
    rm -rf "$work"
    echo "SKIP: not root, or no tmpfs to fill"
    exit 77
fi
trap 'umount "$work/full" 2>/dev/null; rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

mkdir "$work/full/out"
# fill the filesystem: what is left is less than any chart
dd if=/dev/zero of="$work/full/filler" bs=4k 2>/dev/null
$py "$bin/diskio-plot" --outdir "$work/full/out" \
    "$top_srcdir/tests/scripts/fixtures/env-a/result.json" \
    > "$work/out" 2> "$work/err"
got=$?
if [ $got -eq 1 ] && grep -q "diskio-plot: $work/full/out/diskio-.*: cannot write: No space left on device; check the free space" "$work/err" &&
    ! grep -q Traceback "$work/err"; then
    echo "ok: a full --outdir is status 1, the image and the error named"
else
    fail "full --outdir: status $got (want 1), stderr: $(cat "$work/err")"
fi
[ ! -s "$work/out" ] && echo "ok: no image listed on stdout" ||
    fail "stdout lists: $(cat "$work/out")"
left=$(ls -A "$work/full/out")
[ -z "$left" ] && echo "ok: nothing left in --outdir" ||
    fail "left in --outdir: $left"

# with room again, the same command draws every image whole
rm "$work/full/filler"
$py "$bin/diskio-plot" --outdir "$work/full/out" \
    "$fixtures/env-a/result.json" > "$work/out" 2> "$work/err"
got=$?
count=$(wc -l < "$work/out")
if [ $got -eq 0 ] && [ "$count" -eq 6 ]; then
    echo "ok: with room, 6 images"
else
    fail "with room: status $got, $count images, stderr: $(cat "$work/err")"
fi
for image in "$work"/full/out/*.png; do
    [ -s "$image" ] || fail "$image is empty"
done
umount "$work/full" || fail "cannot unmount the tmpfs"
exit $status
