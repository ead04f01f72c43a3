#!/bin/bash
# Makes, once, the bare Debian 12 root that make distro-check installs the packages into, and
# prints its path:
#
#   scripts/distro-root.sh          (make distro-root; make test starts it early, beside the builds)
#
# The root is `debootstrap --variant=minbase bookworm` from the Debian mirror this machine's apt
# uses, with bookworm-updates and bookworm-security beside it, as on an installed system, and
# its package lists fetched. It is cached in .build/distro/root: a later run only prints the
# path. The marker .build/distro/root.ready is written last, so a root left half made by an
# interrupted run is made again. Checks never change the root: they work on an overlay over it.
# Needs root (debootstrap); installs debootstrap when it is missing.
# Environment: DEBIAN_MIRROR overrides the mirror (default: the host's, else deb.debian.org).
set -euo pipefail
cd "$(dirname "$0")/.."
distro=$PWD/.build/distro
root=$distro/root
ready=$distro/root.ready
suite=bookworm

if [ -f "$ready" ] && [ -x "$root/usr/bin/apt-get" ]; then
    echo "$root"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "distro-root: needs root, to make a Debian root with debootstrap (and chroot into it)" >&2
    exit 1
fi
# One maker at a time: make test starts this early, beside the builds, and distro-check calls
# it again; the second waits for the first and then finds the root made.
mkdir -p "$distro"
exec 9>"$distro/lock"
flock 9
if [ -f "$ready" ] && [ -x "$root/usr/bin/apt-get" ]; then
    echo "$root"
    exit 0
fi
scripts/install-deps.sh debootstrap

# The host's Debian mirror: the first URI ending in /debian in its apt sources, one-line or deb822.
host_mirror() {
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
        grep -v '^[[:space:]]*#' | grep -oE 'https?://[^[:space:]]+/debian/?([[:space:]]|$)' |
        head -1 | tr -d '[:space:]' | sed 's:/$::'
}
mirror=${DEBIAN_MIRROR:-$(host_mirror || true)}
mirror=${mirror:-http://deb.debian.org/debian}
security=${mirror%/debian}/debian-security

rm -f "$ready"
rm -rf --one-file-system "$root"
log=$distro/debootstrap.log
echo "distro-root: debootstrap --variant=minbase $suite from $mirror (log: $log)" >&2
# In a private mount namespace: the /proc and /sys debootstrap mounts in the root go with it,
# even when it is killed, so no later rm -rf meets them.
if ! unshare --mount --propagation private \
    debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$log" 2>&1; then
    tail -20 "$log" >&2
    echo "distro-root: debootstrap failed; $root is left for inspection and will be made again" >&2
    exit 1
fi
cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
SOURCES

# The package lists, fetched once here so that a check only refreshes them. apt needs /proc
# and name resolution; a private mount namespace takes /proc away again however this ends.
cp /etc/resolv.conf "$root/etc/resolv.conf"
if ! unshare --mount --propagation private \
    bash -c 'mount -t proc proc "$1/proc" && chroot "$1" apt-get update -qq' _ "$root" >>"$log" 2>&1; then
    tail -20 "$log" >&2
    echo "distro-root: apt-get update in the new root failed" >&2
    exit 1
fi
date -u +%FT%TZ >"$ready"
echo "distro-root: made in $SECONDS s" >&2
echo "$root"
