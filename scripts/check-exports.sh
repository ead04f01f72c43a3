#!/bin/bash
# Checks that libCatFacts.so exports exactly the functions include/catfacts.h declares:
# the cf_ functions declared in the header (not the typedef'd listener types) against the
# cf_ symbols the library defines (nm -D --defined-only). Prints the differences and exits
# 1 if they differ; `check-exports: N functions match` otherwise.
#
#   scripts/check-exports.sh [header] [library]
set -euo pipefail
cd "$(dirname "$0")/.."

HEADER=${1:-include/catfacts.h}
LIBRARY=${2:-.build/debug/libCatFacts.so}
CC=${CC:-cc}

for file in "$HEADER" "$LIBRARY"; do
    if [ ! -f "$file" ]; then
        echo "check-exports: $file is missing" >&2
        exit 2
    fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Declared: preprocess (drops comments and macros), join the lines, split into declarations
# at ';', '{' and '}', skip typedefs, and take each declaration's cf_name( .
"$CC" -E -P -x c "$HEADER" \
    | tr '\n' ' ' | tr ';{}' '\n\n\n' \
    | grep -vE '^[[:space:]]*typedef\b' \
    | grep -oE '\bcf_[a-z0-9_]+[[:space:]]*\(' \
    | sed -E 's/[[:space:]]*\($//' | sort -u >"$tmp/declared"

# Exported: defined dynamic symbols (any type: T, W, i) named cf_...
nm -D --defined-only "$LIBRARY" | awk '{ print $NF }' | sed 's/@.*//' \
    | grep -E '^cf_' | sort -u >"$tmp/exported"

missing=$(comm -23 "$tmp/declared" "$tmp/exported")
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
if [ -n "$missing" ] || [ -n "$extra" ]; then
    [ -n "$missing" ] && { echo "declared in $HEADER but not exported by $LIBRARY:"; echo "$missing" | sed 's/^/  /'; }
    [ -n "$extra" ] && { echo "exported by $LIBRARY but not declared in $HEADER:"; echo "$extra" | sed 's/^/  /'; }
    exit 1
fi
echo "check-exports: $(wc -l <"$tmp/declared" | tr -d ' ') functions match"
