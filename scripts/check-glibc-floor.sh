#!/bin/bash
# Checks that the shipped binaries run on the oldest glibc and libstdc++ the README promises: no
# symbol they import may need a version newer than the floors recorded in abi/glibc-floor, one
# per library: GLIBC_x.y (glibc), GLIBCXX_3.4.n and CXXABI_1.3.n (libstdc++).
# For each file it prints the newest version of each of those it needs and the symbols that
# need it; a symbol above a floor fails, named with its version (so does one of GLIBC_PRIVATE,
# glibc's internal interface, which changes with every glibc release).
# Exit 1 when a file needs more than a floor, 2 when a file is missing or not ELF.
#
#   scripts/check-glibc-floor.sh [FILES]     default: the release libCatFacts.so, catfacts, catfacts-mock
#
# GLIBC_FLOOR_FILE=FILE reads the floors from FILE instead of abi/glibc-floor.
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
# The floors: PREFIX -> version number (GLIBC -> 2.28).
declare -A floors=()
while read -r line; do
    if ! [[ $line =~ ^(GLIBC|GLIBCXX|CXXABI)_([0-9]+\.[0-9]+(\.[0-9]+)?)$ ]]; then
        echo "check-glibc-floor: $FLOOR_FILE gives '$line', not a version like GLIBC_2.28, GLIBCXX_3.4.25 or CXXABI_1.3.11" >&2
        exit 2
    fi
    floors[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
done < <(grep -vE '^[[:space:]]*(#|$)' "$FLOOR_FILE" | tr -d '[:blank:]')
if [ -z "${floors[GLIBC]:-}" ]; then
    echo "check-glibc-floor: $FLOOR_FILE gives no GLIBC_ floor (a line like GLIBC_2.28)" >&2
    exit 2
fi
summary=$(for prefix in GLIBC GLIBCXX CXXABI; do
    if [ -n "${floors[$prefix]:-}" ]; then printf '%s_%s ' "$prefix" "${floors[$prefix]}"; fi; done | sed 's/ $//')

# symbols PREFIX VERSION: the symbols needing PREFIX_VERSION, on one line.
symbols() { awk -v p="$1" -v v="$2" '$1 == p && $2 == v { print $3 }' "$tmp/needed" | paste -sd ' '; }

# above VERSION FLOOR: whether version VERSION (2.36) is newer than FLOOR.
above() {
    [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | tail -1)" = "$1" ]
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
    # The imported (UND) symbols bound to a glibc or libstdc++ version: "PREFIX VERSION SYMBOL"
    # per line, from readelf's "hypot@GLIBC_2.35 (5)".
    awk '$7 == "UND" && $8 ~ /@(GLIBC|GLIBCXX|CXXABI)_/ {
            split($8, part, "@"); prefix = part[2]; sub(/_.*/, "", prefix)
            print prefix, substr(part[2], length(prefix) + 2), part[1] }' \
        "$tmp/symbols" | sort -u >"$tmp/needed"
    if [ ! -s "$tmp/needed" ]; then
        echo "$file: needs no versioned glibc symbol"
        continue
    fi
    for prefix in GLIBC GLIBCXX CXXABI; do
        numbered=$(awk -v p="$prefix" '$1 == p && $2 ~ /^[0-9.]+$/ { print $2 }' "$tmp/needed" | sort -u -V)
        [ -n "$numbered" ] || continue
        newest=$(tail -1 <<<"$numbered")
        echo "$file: needs ${prefix}_$newest for $(symbols "$prefix" "$newest")"
        floor=${floors[$prefix]:-}
        [ -n "$floor" ] || continue
        while read -r version; do
            if above "$version" "$floor"; then
                echo "check-glibc-floor: $file needs ${prefix}_$version, above the floor ${prefix}_$floor ($FLOOR_FILE), for: $(symbols "$prefix" "$version")"
                status=1
            fi
        done <<<"$numbered"
    done
    private=$(symbols GLIBC PRIVATE)
    if [ -n "$private" ]; then
        echo "check-glibc-floor: $file needs GLIBC_PRIVATE (glibc's internal interface) for: $private"
        status=1
    fi
done
if [ $status -eq 0 ]; then
    if [ $# -eq 1 ]; then
        echo "check-glibc-floor: 1 file needs at most $summary ($FLOOR_FILE)"
    else
        echo "check-glibc-floor: $# files need at most $summary ($FLOOR_FILE)"
    fi
fi
exit $status
