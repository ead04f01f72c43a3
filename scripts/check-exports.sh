#!/bin/bash
# Checks that libCatFacts exports exactly the functions include/catfacts.h declares, and
# nothing else:
#   - the header's cf_ functions (not the typedef'd listener types),
#   - the version script's global list (Sources/CatFactsC/catfacts.map),
#   - the library's defined dynamic symbols (nm -D --defined-only), plain names with no
#     version (the version script's node is anonymous; the SONAME carries the version),
# are the same set; and that the library's SONAME is libCatFacts.so.MAJOR (CF_VERSION_MAJOR).
# Prints the differences and exits 1 if anything differs; `check-exports: N functions match`.
#
#   scripts/check-exports.sh [header] [library]
set -euo pipefail
cd "$(dirname "$0")/.."

HEADER=${1:-include/catfacts.h}
LIBRARY=${2:-.build/debug/libCatFacts.so}
MAP=Sources/CatFactsC/catfacts.map
CC=${CC:-cc}

for file in "$HEADER" "$LIBRARY" "$MAP"; do
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

# Listed: the names between "global:" and "local:" in the version script, comments dropped.
sed 's:/\*.*\*/::; /\/\*/,/\*\//d' "$MAP" \
    | sed -n '/global:/,/local:/p' | grep -oE '\bcf_[a-z0-9_]+' | sort -u >"$tmp/listed"

# Exported: every defined dynamic symbol, exactly as nm names it (a version would show as @@).
nm -D --defined-only "$LIBRARY" | awk '{ print $NF }' | sort -u >"$tmp/symbols"
grep -E '^cf_[a-z0-9_]+$' "$tmp/symbols" >"$tmp/exported" || true
grep -vE '^cf_[a-z0-9_]+$' "$tmp/symbols" >"$tmp/stray" || true

status=0
report() {  # report TITLE FILE
    if [ -s "$2" ]; then
        echo "$1"; sed 's/^/  /' "$2"; status=1
    fi
}
comm -23 "$tmp/declared" "$tmp/listed" >"$tmp/d1"; report "declared in $HEADER but not in $MAP:" "$tmp/d1"
comm -13 "$tmp/declared" "$tmp/listed" >"$tmp/d2"; report "in $MAP but not declared in $HEADER:" "$tmp/d2"
comm -23 "$tmp/declared" "$tmp/exported" >"$tmp/d3"; report "declared in $HEADER but not exported by $LIBRARY:" "$tmp/d3"
comm -13 "$tmp/declared" "$tmp/exported" >"$tmp/d4"; report "exported by $LIBRARY but not declared in $HEADER:" "$tmp/d4"
report "other symbols $LIBRARY exports (only the header's functions may be):" "$tmp/stray"

major=$(sed -n 's/^#define CF_VERSION_MAJOR \([0-9]*\)$/\1/p' "$HEADER")
soname=$(readelf -d "$LIBRARY" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
if [ "$soname" != "libCatFacts.so.$major" ]; then
    echo "$LIBRARY has SONAME '$soname', not libCatFacts.so.$major (CF_VERSION_MAJOR)"
    status=1
fi
[ $status -eq 0 ] && echo "check-exports: $(wc -l <"$tmp/declared" | tr -d ' ') functions match ($LIBRARY, SONAME $soname)"
exit $status
