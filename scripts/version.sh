#!/bin/bash
# The version of CatFacts, from its one source: CF_VERSION_MAJOR, _MINOR and _PATCH in
# include/catfacts.h. The library (cf_version), the Debian packages (scripts/deb.sh), the
# installed file names and catfacts.pc (scripts/install.sh, bindings/c/make-pc.sh) and the
# wheel read it from there.
#
#   scripts/version.sh           prints it ("0.2.0")
#   scripts/version.sh --check   also checks every copy that cannot read the header, and exits 1
#                                naming each one that disagrees: CF_VERSION; LibraryVersion.swift
#                                (the Swift library: User-Agent, telemetry); the Python package's
#                                pyproject.toml and __version__; a "## VERSION" heading in
#                                CHANGELOG.md; no function in the Debian symbols file newer.
# scripts/deb.sh and scripts/wheel.sh run the check before they build anything.
set -euo pipefail
cd "$(dirname "$0")/.."

macro() { sed -n "s/^#define CF_VERSION_$1 \([0-9][0-9]*\)\$/\1/p" include/catfacts.h; }
major=$(macro MAJOR) minor=$(macro MINOR) patch=$(macro PATCH)
if [ -z "$major" ] || [ -z "$minor" ] || [ -z "$patch" ]; then
    echo "version: include/catfacts.h lacks one of CF_VERSION_MAJOR, CF_VERSION_MINOR, CF_VERSION_PATCH" >&2
    exit 2
fi
version=$major.$minor.$patch
if [ "${1:-}" != --check ]; then
    echo "$version"
    exit 0
fi

status=0
# differs WHERE FOUND: reports a copy that is not $version.
differs() {
    if [ "$2" != "$version" ]; then
        echo "version: $1 says '${2:-nothing}', the header's CF_VERSION_* say $version" >&2
        status=1
    fi
}
differs 'CF_VERSION in include/catfacts.h' "$(sed -n 's/^#define CF_VERSION "\(.*\)"$/\1/p' include/catfacts.h)"
swift=Sources/CatFactsKit/API/LibraryVersion.swift
differs "$swift" "$(for part in major minor patch; do
    sed -n "s/^ *public static let $part = \([0-9][0-9]*\)\$/\1/p" "$swift"; done | paste -sd .)"
differs bindings/python/pyproject.toml "$(sed -n 's/^version = "\(.*\)"$/\1/p' bindings/python/pyproject.toml)"
differs "__version__ in bindings/python/catfacts/__init__.py" \
    "$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' bindings/python/catfacts/__init__.py)"
if ! grep -qE "^## $version( |$)" CHANGELOG.md; then
    echo "version: CHANGELOG.md has no '## $version' section" >&2
    status=1
fi
# Each function's version in the symbols file is the release that added it: never a later one.
newest=$(awk '$1 ~ /@Base$/ { print $2 }' packaging/debian/libcatfacts0.symbols | sort -uV | tail -1)
if [ -n "$newest" ] && [ "$(printf '%s\n%s\n' "$newest" "$version" | sort -V | tail -1)" != "$version" ]; then
    echo "version: packaging/debian/libcatfacts0.symbols gives $newest, newer than $version" >&2
    status=1
fi
[ $status -eq 0 ] && echo "$version"
exit $status
