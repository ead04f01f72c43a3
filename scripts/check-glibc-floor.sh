#!/bin/bash
# Checks that the shipped binaries run on the glibc the README promises: no symbol they
# import may need a glibc version newer than the floor recorded in abi/glibc-floor.
# For each file it prints the newest GLIBC_x.y it needs and the symbols that need it; a symbol
# above the floor fails, named with its version (so does one of GLIBC_PRIVATE, glibc's
# internal interface, which changes with every glibc release).
# Exit 1 when a file needs more than the floor, 2 when a file is missing or not ELF.
#
#   scripts/check-glibc-floor.sh [FILES]     default: the release libCatFacts.so, catfacts, catfacts-mock
#
# GLIBC_FLOOR_FILE=FILE reads the floor from FILE instead of abi/glibc-floor.
set -euo pipefail
# Files named on the command line are read from the caller's folder, the defaults from the
# repository's.
root=$(cd "$(dirname "$0")/.." && pwd)
FLOOR_FILE=${GLIBC_FLOOR_FILE:-$root/abi/glibc-floor}
defaults=no
if [ $# -eq 0 ]; then
    set -- "$root/.build/release/libCatFacts.so" "$root/.build/release/catfacts" "$root/.build/release/catfacts-mock"
    defaults=yes
fi

if [ ! -f "$FLOOR_FILE" ]; then
    echo "check-glibc-floor: $FLOOR_FILE is missing" >&2
    exit 2
fi
floor=$(grep -vE '^[[:space:]]*(#|$)' "$FLOOR_FILE" | head -1 | tr -d '[:space:]')
if ! [[ $floor =~ ^GLIBC_[0-9]+\.[0-9]+(\.[0-9]+)?$ ]]; then
    echo "check-glibc-floor: $FLOOR_FILE gives '$floor', not a version like GLIBC_2.35" >&2
    exit 2
fi

# symbols VERSION: the symbols needing glibc version VERSION, on one line.
symbols() { awk -v v="$1" '$1 == v { print $2 }' "$tmp/needed" | paste -sd ' '; }

# above VERSION: whether glibc version VERSION (2.36) is newer than the floor's.
above() {
    [ "$1" != "${floor#GLIBC_}" ] &&
        [ "$(printf '%s\n%s\n' "${floor#GLIBC_}" "$1" | sort -V | tail -1)" = "$1" ]
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for file in "$@"; do
    if [ ! -f "$file" ]; then
        echo "check-glibc-floor: $file is missing" >&2
        [ $defaults = yes ] && echo "check-glibc-floor: build the release binaries with make release" >&2
        exit 2
    fi
    if ! readelf --dyn-syms -W "$file" >"$tmp/symbols" 2>"$tmp/error"; then
        echo "check-glibc-floor: $file is not an ELF file readelf can read: $(head -1 "$tmp/error")" >&2
        exit 2
    fi
    # The imported (UND) symbols bound to a glibc version: "VERSION SYMBOL" per line, from
    # readelf's "hypot@GLIBC_2.35 (5)" (GLIBCXX_, libstdc++'s, is another library).
    awk '$7 == "UND" && $8 ~ /@GLIBC_/ { split($8, part, "@"); print substr(part[2], 7), part[1] }' \
        "$tmp/symbols" | sort -u >"$tmp/needed"
    if [ ! -s "$tmp/needed" ]; then
        echo "$file: needs no versioned glibc symbol"
        continue
    fi
    numbered=$(awk '$1 ~ /^[0-9.]+$/ { print $1 }' "$tmp/needed" | sort -u -V)
    newest=$(tail -1 <<<"$numbered")
    echo "$file: needs GLIBC_$newest for $(symbols "$newest")"
    while read -r version; do
        if above "$version"; then
            echo "check-glibc-floor: $file needs GLIBC_$version, above the floor $floor ($FLOOR_FILE), for: $(symbols "$version")"
            status=1
        fi
    done <<<"$numbered"
    private=$(symbols PRIVATE)
    if [ -n "$private" ]; then
        echo "check-glibc-floor: $file needs GLIBC_PRIVATE (glibc's internal interface) for: $private"
        status=1
    fi
done
if [ $status -eq 0 ]; then
    if [ $# -eq 1 ]; then
        echo "check-glibc-floor: 1 file needs at most $floor ($FLOOR_FILE)"
    else
        echo "check-glibc-floor: $# files need at most $floor ($FLOOR_FILE)"
    fi
fi
exit $status
