#!/bin/bash
# Proves that the compiler compares include/catfacts.h with libCatFacts' exports: the
# exports (Sources/CatFactsC) are built from the header's types, imported as the Clang module
# CCatFactsHeader, and Sources/CatFactsC/HeaderSignatures.swift gives each export and its
# declaration one function type. So Sources/CatFactsC must type-check against the header
# as it is, and must fail against copies of it with one declaration changed on the header's
# side only: a field of cf_breed added, cf_fact's length narrowed, a parameter of
# cf_list_wait narrowed, a listener's event made an int, an event constant renamed.
# Prints `check-header-types: N changes fail the build` or what did not, and exits 1 then.
#
#   scripts/check-header-types.sh        (after `swift build`: it reads CatFactsKit's module)
#
# It type-checks with swiftc directly, because SwiftPM does not rebuild CatFactsC when only
# the header changes (it does not track headers reached through a module map); a clean build
# does fail, and scripts/check-exports.sh compares the exported names.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFTC=${SWIFTC:-$(command -v swiftc 2>/dev/null || echo /opt/swift/usr/bin/swiftc)}
BUILD_DIR=${BUILD_DIR:-.build/debug}
MODULES=$BUILD_DIR/Modules
if [ ! -f "$MODULES/CatFactsKit.swiftmodule" ] && [ ! -d "$MODULES/CatFactsKit.swiftmodule" ]; then
    echo "check-header-types: $MODULES/CatFactsKit.swiftmodule is missing; run swift build first" >&2
    exit 2
fi
# SwiftPM's command for CatFactsC, in the build's manifest (.build/debug.yaml for
# .build/debug), one argument a line.
manifest=.build/$(basename "$BUILD_DIR").yaml
command_args=$(grep -o '"-module-name","CatFactsC"[^]]*' "$manifest" 2>/dev/null | head -1 | tr ',' '\n' | sed 's/^"//; s/"$//' || true)
# CatFactsKit's `package` declarations are visible to modules of the same package only:
# take the package name SwiftPM gave CatFactsC.
package_name=$(awk 'previous == "-package-name" { print; exit } { previous = $0 }' <<<"$command_args")
# The Clang arguments SwiftPM passes (each after -Xcc): the module maps and include folders
# of the C modules CatFactsC reaches (CCurl, CProcess, CSQLite, ...), so a new one needs no
# edit here; all but the header's own module map, which the copies below replace.
clang_args=()
while IFS= read -r argument; do
    case $argument in
        *CCatFactsHeader/module.modulemap) ;;
        *) clang_args+=(-Xcc "$argument") ;;
    esac
done < <(awk 'previous == "-Xcc" { print } { previous = $0 }' <<<"$command_args")
if [ -z "$package_name" ] || [ "${#clang_args[@]}" -eq 0 ]; then
    echo "check-header-types: no command for CatFactsC in $manifest (its package name and Clang arguments)" >&2
    exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/module" "$tmp/cache"
printf 'module CCatFactsHeader {\n    header "catfacts.h"\n    export *\n}\n' >"$tmp/module/module.modulemap"

# typecheck HEADER: type-checks Sources/CatFactsC against HEADER; errors in $tmp/log.
typecheck() {
    cp "$1" "$tmp/module/catfacts.h"
    "$SWIFTC" -typecheck -module-name CatFactsC -parse-as-library -swift-version 6 -package-name "$package_name" \
        -I "$MODULES" -module-cache-path "$tmp/cache" "${clang_args[@]}" \
        -Xcc -fmodule-map-file="$tmp/module/module.modulemap" \
        Sources/CatFactsC/*.swift >"$tmp/log" 2>&1
}

if ! typecheck include/catfacts.h; then
    echo "check-header-types: Sources/CatFactsC does not type-check against include/catfacts.h:" >&2
    grep 'error:' "$tmp/log" | sort -u | head -20 >&2
    exit 1
fi

# Each change: a sed expression for the header, and a word the compiler's error must contain.
changes=(
    's/const char \*breed, \*country, \*origin, \*coat, \*pattern;/const char *breed, *country, *origin, *coat, *pattern, *colour;/|colour'
    's/^    int64_t length;/    int32_t length;/|Int32'
    's/^cf_status cf_list_wait(cf_list \*l, int64_t index, int64_t timeout_ms);/cf_status cf_list_wait(cf_list *l, int64_t index, int32_t timeout_ms);/|Int32'
    's/(void \*ctx, cf_event event, int64_t first, int64_t count)/(void *ctx, int event, int64_t first, int64_t count)/|Int32'
    's/CF_EVENT_DROPPED = 3/CF_EVENT_EVICTED = 3/|CF_EVENT_DROPPED'
    's/^    cf_fact_array facts;/    cf_breed_array facts;/|cf_breed_array'
)
status=0
for change in "${changes[@]}"; do
    expression=${change%|*}
    word=${change##*|}
    sed "$expression" include/catfacts.h >"$tmp/changed.h"
    if cmp -s include/catfacts.h "$tmp/changed.h"; then
        echo "check-header-types: the change $expression matches nothing in include/catfacts.h"
        status=1
    elif typecheck "$tmp/changed.h"; then
        echo "check-header-types: the header changed by $expression still type-checks"
        status=1
    elif ! grep 'error:' "$tmp/log" | grep -q -- "$word"; then
        echo "check-header-types: the header changed by $expression fails, but no error names '$word':"
        grep 'error:' "$tmp/log" | sort -u | head -5
        status=1
    fi
done
[ $status = 0 ] && echo "check-header-types: ${#changes[@]} changes fail the build"
exit $status
