#!/bin/sh
# The repository stands alone: no tracked file refers a reader to a document outside it (the
# planning notes the project was started from are not shipped). What a reader needs is in
# docs/, the READMEs or the header. Fails naming each file and line that points outside.
#   scripts/check-standalone.sh [REPO]      (REPO: another git work tree, for its own test)
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2

# The names of the outside documents, written so that this file does not match itself.
pattern='(\.\./shared/|c-api\.md|fronts\.md|ARCHITECTURE\.md|style\.md)'
found=$(git grep -n -I -E "$pattern" -- . ':!scripts/check-standalone*.sh' || true)
if [ -n "$found" ]; then
    echo "check-standalone: these lines refer to documents outside the repository;" >&2
    echo "put what the reader needs in docs/, a README or the header instead:" >&2
    echo "$found" >&2
    exit 1
fi
echo "check-standalone: no tracked file refers outside the repository"
