# SPDX-License-Identifier: MIT
# Sourced by tests/build/python-*.sh.  python_sources TOP: the Python the
# analysis package, the benchmarks and the commands are written in, one
# path a line, relative to TOP: the packages python/diskio_analysis and
# bench/peers, every file of bench/ whose #! line runs python (they are
# named without .py), and the commands' scripts/*.in.  A new module or
# benchmark is found, never listed.
python_sources() {
    (
        cd "$1" || exit 1
        echo python/diskio_analysis
        echo bench/peers
        for f in bench/*; do
            [ -f "$f" ] || continue
            case $f in
            *.py) echo "$f" ;;
            *) head -n 1 "$f" | grep -q '^#!.*python' && echo "$f" ;;
            esac
        done
        for f in scripts/*.in; do
            [ -f "$f" ] && echo "$f"
        done
    )
}
