#!/bin/sh
# Installs the Debian packages named as arguments that are missing; says nothing when all are there.
# Root runs apt-get itself, anyone else through sudo. On a system without dpkg it only warns.
set -eu

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "install-deps: no dpkg here; make sure these are installed: $*" >&2
    exit 0
fi

missing=""
for package in "$@"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $package" ;;
    esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    echo "install-deps: missing:$missing; run as root or install sudo" >&2
    exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update -qq >/dev/null
# shellcheck disable=SC2086 # one word per package
$as_root apt-get install -y -qq --no-install-recommends $missing >/dev/null
