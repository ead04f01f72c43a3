#!/bin/bash
# Guards the ABI of libCatFacts.so.0: compares the built library with the ABI recorded at the
# last release (abi/libCatFacts.abi, written by abidw) using libabigail's abidiff.
#   - no change, or only additions (new functions; they are listed): exit 0;
#   - a function removed, a parameter or return type changed, a struct's layout changed
#     (cf_breed's fields added, removed or reordered...): exit 1 with abidiff's report,
#   - unless the SONAME changed too (a new major version promises nothing to the old one):
#     exit 0, saying so; record the new baseline then.
# Exit 1 as well when the library and the header do not have the same functions (named);
# exit 2 when it cannot compare (a file missing, a header that does not compile).
#
#   scripts/check-abi.sh [HEADER [LIBRARY]]      defaults include/catfacts.h, .build/release/libCatFacts.so
#   scripts/check-abi.sh --record [HEADER [LIBRARY]]   writes the baseline (on a release)
#   --baseline FILE compares with (or records) FILE instead of abi/libCatFacts.abi.
#
# Why an "ABI image" rather than the library itself: the exports are Swift @_cdecl functions,
# and libabigail reads C and C++ DWARF. The release library's DWARF describes no cf_ function
# and no type of the header (abidw records only their ELF symbols), so abidiff on it alone
# would see removed names but never a changed signature or struct layout. The ABI a C program
# depends on is the header as its C compiler lays it out, and the Swift compiler already
# proves that the exports have the header's types (Sources/CatFactsC/HeaderSignatures.swift;
# scripts/check-header-types.sh proves it catches a difference). So abi/make-image.sh compiles
# the header with cc -g into a shared object defining a stub for each declared function, and
# this script checks that the image and the real library export the same functions, gives the
# image the library's SONAME, and compares that image with the baseline.
set -euo pipefail
# Files named on the command line are read from the caller's folder, the defaults from the
# repository's.
root=$(cd "$(dirname "$0")/.." && pwd)
BASELINE=$root/abi/libCatFacts.abi
record=no
while [ $# -gt 0 ]; do
    case "$1" in
        --record) record=yes; shift ;;
        --baseline)
            if [ $# -lt 2 ]; then echo "check-abi: --baseline needs a file" >&2; exit 2; fi
            BASELINE=$2; shift 2 ;;
        -*) echo "check-abi: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
HEADER=${1:-$root/include/catfacts.h}
LIBRARY=${2:-$root/.build/release/libCatFacts.so}

for tool in abidw abidiff readelf nm; do
    if ! command -v "$tool" >/dev/null; then
        echo "check-abi: $tool is missing (scripts/install-deps.sh abigail-tools binutils)" >&2
        exit 2
    fi
done
for file in "$HEADER" "$LIBRARY"; do
    if [ ! -f "$file" ]; then
        echo "check-abi: $file is missing (the library: make lib)" >&2
        exit 2
    fi
done
if [ $record = no ] && [ ! -f "$BASELINE" ]; then
    echo "check-abi: the baseline $BASELINE is missing (record one: scripts/check-abi.sh --record)" >&2
    exit 2
fi

soname=$( (readelf -d "$LIBRARY" 2>/dev/null || true) | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
if [ -z "$soname" ]; then
    echo "check-abi: $LIBRARY has no SONAME: not a shared library" >&2
    exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$root/abi/make-image.sh" "$HEADER" "$soname" "$tmp/image.so"

# The image stands for the library only if both export the same functions (functions only:
# some linkers also export _end, _edata and __bss_start from the image).
exported() { nm -D --defined-only "$1" | awk '$(NF - 1) ~ /^[TWi]$/ { print $NF }' | sort -u; }
exported "$tmp/image.so" >"$tmp/declared"
exported "$LIBRARY" >"$tmp/library"
if ! cmp -s "$tmp/declared" "$tmp/library"; then
    comm -23 "$tmp/declared" "$tmp/library" >"$tmp/missing"
    comm -13 "$tmp/declared" "$tmp/library" >"$tmp/undeclared"
    echo "check-abi: $LIBRARY and $HEADER do not have the same functions, so the header's ABI is not the library's:"
    if [ -s "$tmp/missing" ]; then
        echo "declared in $HEADER but not exported by $LIBRARY:"; sed 's/^/  /' "$tmp/missing"
    fi
    if [ -s "$tmp/undeclared" ]; then
        echo "exported by $LIBRARY but not declared in $HEADER:"; sed 's/^/  /' "$tmp/undeclared"
    fi
    exit 1
fi
count=$(wc -l <"$tmp/declared" | tr -d ' ')

if [ $record = yes ]; then
    # No corpus or compilation folder: the file records the ABI, not where it was built.
    abidw --no-corpus-path --no-comp-dir-path "$tmp/image.so" >"$tmp/baseline"
    mv "$tmp/baseline" "$BASELINE"
    echo "check-abi: recorded the ABI of $soname ($count functions, $HEADER) in $BASELINE"
    exit 0
fi

baseline_soname=$(sed -n "1,3s/.*<abi-corpus [^>]*soname='\([^']*\)'.*/\1/p" "$BASELINE")
# abidiff's status is a bit set: 1 error, 2 usage, 4 a change, 8 an incompatible change.
status=0
abidiff "$BASELINE" "$tmp/image.so" >"$tmp/report" 2>&1 || status=$?
if [ $((status & 3)) -ne 0 ]; then
    echo "check-abi: abidiff could not compare $BASELINE with the image of $LIBRARY:" >&2
    cat "$tmp/report" >&2
    exit 2
fi
if [ $status -eq 0 ]; then
    echo "check-abi: $soname has the ABI recorded in $BASELINE ($count functions)"
    exit 0
fi
if [ "$soname" != "$baseline_soname" ]; then
    cat "$tmp/report"
    echo "check-abi: the SONAME changed from $baseline_soname to $soname: a new ABI, free to differ;"
    echo "check-abi: record it as the baseline on its release (scripts/check-abi.sh --record)"
    exit 0
fi
# Without the added functions, is anything left? If not, the change was additions only.
if abidiff --no-added-syms "$BASELINE" "$tmp/image.so" >/dev/null 2>&1; then
    echo "check-abi: $soname keeps the ABI recorded in $BASELINE and adds (compatible):"
    grep -E "^[[:space:]]*\[A\]" "$tmp/report" | sed -E 's/^[[:space:]]*/  /'
    exit 0
fi
cat "$tmp/report"
echo "check-abi: $LIBRARY breaks the ABI of $soname recorded in $BASELINE (report above);"
echo "check-abi: restore it, or raise CF_VERSION_MAJOR (a new SONAME) and record a new baseline"
exit 1
