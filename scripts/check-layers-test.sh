#!/bin/bash
# Proves scripts/check-layers.sh on copies of Sources/CatFactsKit: it passes on the tree as it
# is, fails naming file, line and type for a use planted in a layer below the type's, ignores
# names in comments and strings, and refuses a folder on no layer and a type declared twice.
# Prints `check-layers-test: N cases passed`; exits 1 on the first case that does not hold.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=0

# A fresh copy of the sources for each case.
fresh() {
    rm -rf "$tmp/tree"
    cp -r Sources/CatFactsKit "$tmp/tree"
}

# expect STATUS TEXT: the check over the copy exits STATUS and its output contains TEXT.
expect() {
    local want=$1 text=$2 got=0
    scripts/check-layers.sh "$tmp/tree" > "$tmp/out" 2>&1 || got=$?
    if [ "$got" -ne "$want" ] || ! grep -qF -- "$text" "$tmp/out"; then
        echo "check-layers-test: expected exit $want and \"$text\"; got exit $got:" >&2
        cat "$tmp/out" >&2
        exit 1
    fi
    cases=$((cases + 1))
}

fresh
expect 0 "layers hold"

# The values layer holding the client: the lowest layer but one reaching for the client's.
printf 'import Dispatch\nlet planted: CatFactsClient? = nil\n' > "$tmp/tree/API/Planted.swift"
expect 1 "$tmp/tree/API/Planted.swift:2: API (layer 1) uses CatFactsClient from Client"

# One layer down: the store reaching for the metrics it feeds.
fresh
printf '\nfunc planted(_ recorder: MetricsRecorder) {}\n' >> "$tmp/tree/Store/CacheKey.swift"
expect 1 "uses MetricsRecorder from Metrics"

# A type named only in comments and strings is no use of it.
fresh
printf '/// Feeds ``MetricsRecorder``.\nlet planted = "a MetricsRecorder" // MetricsRecorder\n/* LiveSearch */\n' \
    > "$tmp/tree/Store/Planted.swift"
expect 0 "layers hold"

# An extension is a use: the query layer adding to the client.
fresh
printf 'extension CatFactsClient {}\n' > "$tmp/tree/Query/Planted.swift"
expect 1 "Query/Planted.swift:1: Query (layer 3) uses CatFactsClient from Client"

# A folder nobody placed.
fresh
mkdir "$tmp/tree/Extras"
printf 'struct Extra {}\n' > "$tmp/tree/Extras/Extra.swift"
expect 2 "Extras is on no layer"

# One name declared in two layers would make every use ambiguous.
fresh
printf 'struct PagedList {}\n' > "$tmp/tree/API/Planted.swift"
expect 2 "PagedList is declared in"

echo "check-layers-test: $cases cases passed"
