#!/bin/bash
# Checks that the folders of Sources/CatFactsKit keep their layers: a folder uses the types of
# its own layer and of the layers below it, never one declared in a layer above. Data and calls
# flow down; a type used from below would tie a lower layer to everything above it.
#
# The layers, lowest first (docs/architecture.md draws the same picture). The fronts
# (Sources/CatFactsC, Sources/catfacts) sit above them all; they are modules of their own,
# which the compiler already keeps out of CatFactsKit.
#
# How: the top-level types (class, struct, enum, protocol, actor, typealias) each folder
# declares, then every use of one of those names, as a whole word outside comments and string
# literals, in a folder of a lower layer. Prints `file:line: Folder (layer) uses Type from
# Folder (layer)` for each and exits 1; exits 2 when the tree and this list disagree (a folder
# on no layer, a listed folder missing, a type declared in two layers); else prints
# `check-layers: N folders in M layers hold`. Also fails (exit 1) when the core or the C face
# imports Foundation.
#
#   scripts/check-layers.sh [sources-folder]    (default Sources/CatFactsKit)
set -euo pipefail
cd "$(dirname "$0")/.."

ROOT=${1:-Sources/CatFactsKit}

LAYERS=(
    "Concurrency Hashing"  # tools that know nothing of the API: locks, threads, waits, a hash
    "API"                  # the values: breeds, facts, pages, errors, options, queries
    "JSON"                 # reading and writing JSON: scanner, decoders, writer, conformances
    "Query"                # pure: the catalog view, its prefix index, the query engine
    "System Catalog"       # the host's facts; the bundled breeds and facts
    "Transport"            # one HTTP exchange (libcurl)
    "Store"                # the SQLite page cache
    "Metrics"              # per-endpoint counts and times, the cache's state in the snapshot
    "Telemetry"            # OTLP export (its own thread), trace context, spans
    "Call"                 # the stages of one call: read-ahead, fallback, cache, retry, send
    "Client"               # CatFactsClient: composes the stages, the store and the query engine
    "Live"                 # long-lived consumers over loaders: paged lists, live search
)

if [ ! -d "$ROOT" ]; then
    echo "check-layers: $ROOT is not a folder" >&2
    exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# folder -> layer number, one per line.
for layer in "${!LAYERS[@]}"; do
    for folder in ${LAYERS[layer]}; do
        echo "$folder $layer"
    done
done > "$tmp/folders"

status=0
while read -r folder _; do
    if [ ! -d "$ROOT/$folder" ]; then
        echo "check-layers: $ROOT/$folder is on the layer list but missing" >&2
        status=2
    fi
done < "$tmp/folders"
for dir in "$ROOT"/*/; do
    folder=$(basename "$dir")
    if ! grep -q "^$folder " "$tmp/folders"; then
        echo "check-layers: $ROOT/$folder is on no layer: add it to LAYERS in $0" >&2
        status=2
    fi
done
if find "$ROOT" -mindepth 1 -maxdepth 1 -name '*.swift' | grep -q .; then
    echo "check-layers: Swift files directly in $ROOT belong in a layer's folder" >&2
    status=2
fi
[ "$status" -eq 0 ] || exit "$status"

# Every Swift file under a listed folder, as "path folder layer".
while read -r folder layer; do
    find "$ROOT/$folder" -name '*.swift' | sort | while read -r file; do echo "$file $folder $layer"; done
done < "$tmp/folders" > "$tmp/files"

# The declarations: "Type folder layer". Only unindented ones: nested types are reached
# through their outer type's name.
while read -r file folder layer; do
    sed -nE 's/^((@[A-Za-z_]+(\([^)]*\))? +)|((public|package|internal|fileprivate|private|final|indirect) +))*(class|struct|enum|protocol|actor|typealias) +([A-Z][A-Za-z0-9_]*).*/\7/p' "$file" |
        while read -r type; do echo "$type $folder $layer"; done
done < "$tmp/files" | sort -u > "$tmp/types"

awk '
    { if (($1 in layer) && layer[$1] != $3) { print "check-layers: " $1 " is declared in " folder[$1] " and in " $2 > "/dev/stderr"; bad = 1 }
      layer[$1] = $3; folder[$1] = $2 }
    END { exit bad ? 2 : 0 }
' "$tmp/types" || exit 2

# The uses. Comments (line and block) and string literals are blanked first, so a doc
# comment may name any type.
# shellcheck disable=SC2046  # the paths hold no spaces (Swift sources of this tree)
if ! awk -v types="$tmp/types" -v files="$tmp/files" '
    BEGIN {
        while ((getline line < types) > 0) { split(line, f, " "); typeLayer[f[1]] = f[3]; typeFolder[f[1]] = f[2] }
        while ((getline line < files) > 0) { split(line, f, " "); fileLayer[f[1]] = f[3]; fileFolder[f[1]] = f[2] }
        violations = 0
    }
    FNR == 1 { inBlock = 0 }
    {
        text = $0
        if (inBlock) {
            if (!sub(/^.*\*\//, "", text)) next
            inBlock = 0
        }
        gsub(/"([^"\\]|\\.)*"/, "\"\"", text)
        gsub(/\/\*([^*]|\*[^\/])*\*\//, " ", text)
        sub(/\/\/.*/, "", text)
        if (sub(/\/\*.*/, "", text)) inBlock = 1
        here = fileLayer[FILENAME]
        rest = " " text
        while (match(rest, /[^A-Za-z0-9_][A-Z][A-Za-z0-9_]*/)) {
            word = substr(rest, RSTART + 1, RLENGTH - 1)
            rest = substr(rest, RSTART + RLENGTH)
            if ((word in typeLayer) && typeLayer[word] > here && !((FILENAME, word) in seen)) {
                seen[FILENAME, word] = 1
                printf "%s:%d: %s (layer %d) uses %s from %s (layer %d)\n", FILENAME, FNR, fileFolder[FILENAME], here, word, typeFolder[word], typeLayer[word]
                violations++
            }
        }
    }
    END { if (violations) { printf "check-layers: %d use(s) of a type from a layer above\n", violations; exit 1 } }
' $(cut -d' ' -f1 "$tmp/files"); then
    exit 1
fi

# Foundation is on no layer: the library's core and its C face import neither Foundation nor
# FoundationEssentials, which would add 7.5 MB or more to libCatFacts.so (BENCHMARKS.md,
# Footprint); their own types stand in (Timestamp, WebAddress, JSONTreeEncoder).
if [ "$ROOT" = Sources/CatFactsKit ] &&
    grep -rnE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+(Foundation|FoundationEssentials|FoundationNetworking)([[:space:]]|$)' \
        "$ROOT" Sources/CatFactsC; then
    echo "check-layers: the lines above import Foundation into libCatFacts.so; use the library's own types (CatFactsFoundation converts them)" >&2
    exit 1
fi

echo "check-layers: $(wc -l < "$tmp/folders") folders in ${#LAYERS[@]} layers hold ($(wc -l < "$tmp/types") types, $(wc -l < "$tmp/files") files)"
