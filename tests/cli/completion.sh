#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Description: bash completion offers each command's options and values exactly as the command takes them.
#
# bash completion (completion/diskio) is registered for every
# command (complete -p) and completes, as bash would call it: every option
# each command's --help lists and nothing else; diskio's modes, patterns
# and formats exactly as diskio accepts them (from its own error
# messages), comma lists item by item, --opt=value, the choices the
# analysis commands' --help shows, and directories and files as operands.
# Exit 77 when bash is not bash 4 or later.
set -u
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
top_builddir=${top_builddir:-.}
[ "${BASH_VERSINFO[0]:-0}" -ge 4 ] || { echo "SKIP: needs bash 4"; exit 77; }
PATH="$top_builddir:$top_builddir/scripts:$PATH"
export PATH
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# made from completion/diskio.in when diskio is built
# shellcheck source=/dev/null
. "$top_builddir/completion/diskio" || { echo "FAIL: the completion does not load"; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/diskio-completion.XXXXXX") || exit 99
# what the test keeps of the commands (out of $scratch, whose files are
# completed below)
kept=$(mktemp -d "${TMPDIR:-/tmp}/diskio-completion-kept.XXXXXX") || exit 99
trap 'rm -rf "$scratch" "$kept"' EXIT

# t_complete WORD... : what completing the last word offers, one per line,
# sorted.  An empty last word ('') completes after a space.
t_complete() {
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _diskio_complete "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf '%s\n' "${COMPREPLY[@]}" | sort -u | sed '/^$/d'
}

# expect DESCRIPTION WANT GOT: WANT and GOT as whitespace-separated sets
expect() {
    want=$(printf '%s\n' $2 | sort -u | tr '\n' ' ')
    got=$(printf '%s\n' $3 | sort -u | tr '\n' ' ')
    if [ "$want" = "$got" ]; then ok "$1"; else fail "$1: want [$want], got [$got]"; fi
}

# a command's --help, read once (into $kept/CMD.help)
help_text() {
    [ -f "$kept/$1.help" ] || LC_ALL=C "$1" --help >"$kept/$1.help"
    cat "$kept/$1.help"
}
help_options() {
    help_text "$1" | grep -oE -- '(^|[][ ,|])--?[a-zA-Z][a-zA-Z0-9-]*' |
        grep -oE -- '--?[a-zA-Z][a-zA-Z0-9-]*' | sort -u
}

# diskio's accepted values, from its own message for a bad one
accepted() {
    "$top_builddir/diskio" "$@" "$scratch" 2>&1 | sed -n 's/.*(accepted: \(.*\))$/\1/p' | tr -d ','
}

for cmd in diskio diskio-durable diskio-compare diskio-correlate diskio-plot diskio-pgphases diskio-fleet; do
    spec=$(complete -p "$cmd" 2>/dev/null)
    case $spec in
    *"-F _diskio_complete $cmd") ok "complete -p $cmd" ;;
    *) fail "$cmd has no completion: '$spec'" ;;
    esac
    command -v "$cmd" >/dev/null 2>&1 || { fail "$cmd is not built"; continue; }
    # completed in this shell, not in a $(...) subshell: the completion
    # keeps what it read of the command's --help for the completions below
    t_complete "$cmd" -- >"$kept/$cmd.long"
    expect "$cmd: options are those of its --help" "$(help_options "$cmd" | grep -- '^--')" \
        "$(cat "$kept/$cmd.long")"
    expect "$cmd: short options too" "$(help_options "$cmd" | grep -v -- '^--')" \
        "$(t_complete "$cmd" - | grep -v -- '^--')"
done

expect "diskio --mode: the modes diskio accepts" "$(accepted --mode nonsense)" \
    "$(t_complete diskio --mode '')"
expect "diskio --pattern: the patterns diskio accepts" "$(accepted --pattern nonsense)" \
    "$(t_complete diskio --pattern '')"
expect "diskio --format: the formats diskio accepts" "$(accepted --format nonsense)" \
    "$(t_complete diskio --format '')"
expect "diskio --mode fs" "fsync" "$(t_complete diskio --mode fs)"
expect "diskio --mode fsync,fd: the next item of the list" "fsync,fdatasync" \
    "$(t_complete diskio --mode fsync,fd)"
expect "diskio --format=j" "json" "$(t_complete diskio --format=j)"
# as bash splits it (COMP_WORDBREAKS holds '=')
expect "diskio --format = j" "json" "$(t_complete diskio --format = j)"
expect "diskio --rep: an option by its prefix" "--repeat --repeat-pause" "$(t_complete diskio --rep)"
expect "diskio-correlate --wal" "--wal-sync-method" "$(t_complete diskio-correlate --wal)"
expect "diskio-pgphases --sh" "--shared-buffers" "$(t_complete diskio-pgphases --sh)"
expect "diskio -p r" "rand" "$(t_complete diskio -p r)"
expect "diskio --count takes a number: nothing offered" "" "$(t_complete diskio --count '')"
expect "diskio --run-id takes an id: nothing offered" "" "$(t_complete diskio --run-id '')"
expect "diskio-durable: its one command" "listen" "$(t_complete diskio-durable l)"
expect "diskio-durable listen --expect takes a run id: nothing offered" "" \
    "$(t_complete diskio-durable listen --expect '')"

expect "diskio-plot --format: the choices of its --help" "png svg" \
    "$(t_complete diskio-plot --format '')"
expect "diskio-correlate --wal-sync-method" \
    "$(help_text diskio-correlate | grep -oE -- '--wal-sync-method \{[^}]*\}' |
        head -n 1 | sed 's/.*{\(.*\)}/\1/; s/,/ /g')" \
    "$(t_complete diskio-correlate --wal-sync-method '')"
expect "diskio-compare --format" "csv json markdown text" "$(t_complete diskio-compare --format '')"
# diskio-compare's metrics, as its --help lists them
metrics=$(help_text diskio-compare | tr '\n' ' ' | sed -n 's/.*or all (\([^;]*\);.*/\1/p' |
    tr -d ',')
[ -n "$metrics" ] || fail "diskio-compare --help no longer lists its metrics"
expect "diskio-compare --metrics: its metrics" "$metrics all" "$(t_complete diskio-compare --metrics '')"
expect "diskio-compare --metrics mean,p9" "mean,p99 mean,p99_9" \
    "$(t_complete diskio-compare --metrics mean,p9)"

mkdir "$scratch/subdir" && : > "$scratch/result.json"
expect "diskio's target: directories and files" "$scratch/result.json $scratch/subdir" \
    "$(t_complete diskio --count 5 "$scratch/")"
expect "diskio-correlate's ENVDIRs: directories only" "$scratch/subdir" \
    "$(t_complete diskio-correlate "$scratch/")"
expect "diskio-pgphases --output: a directory" "$scratch/subdir" \
    "$(t_complete diskio-pgphases --output "$scratch/s")"
expect "diskio -o: a file" "$scratch/result.json" "$(t_complete diskio -o "$scratch/r")"
expect "diskio-durable listen --dir: a directory" "$scratch/subdir" \
    "$(t_complete diskio-durable listen --dir "$scratch/")"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
exit 0
