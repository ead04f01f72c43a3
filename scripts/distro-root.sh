#!/bin/bash
# Makes, once, the bare Debian roots that make distro-check installs the packages into, and
# prints their paths, one a line, in the order asked:
#
#   scripts/distro-root.sh [SUITE...]   (make distro-root; make test starts it early, beside the builds)
#
# SUITE is a Debian release's code name; the default is the three distro-check proves:
# bullseye (Debian 11, glibc 2.31, Python 3.9), bookworm (12: 2.36, 3.11) and trixie (13: 2.41,
# 3.13). Each root is `debootstrap --variant=minbase SUITE` from the Debian mirror this machine's
# apt uses, with SUITE-updates and SUITE-security beside it, as on an installed system, and its
# package lists fetched. The suites are made side by side (the time is the downloads'), each
# cached in .build/distro/SUITE/root: a later run only prints the paths. The marker
# .build/distro/SUITE/root.ready is written last, so a root left half made by an interrupted run
# is made again. Checks never change a root: they work on an overlay over it.
# Needs root (debootstrap); installs debootstrap when it is missing.
# Environment: DEBIAN_MIRROR overrides the mirror (default: the host's, else deb.debian.org).
set -euo pipefail
cd "$(dirname "$0")/.."
distro=$PWD/.build/distro
if [ $# -eq 0 ]; then
    set -- bullseye bookworm trixie
fi

# made SUITE: whether SUITE's root is complete.
made() { [ -f "$distro/$1/root.ready" ] && [ -x "$distro/$1/root/usr/bin/apt-get" ]; }

# make_root SUITE: debootstrap, sources and package lists for one suite, under its own lock (make
# test starts this early, beside the builds, and distro-check calls it again; the second waits
# for the first and then finds the root made). Its output goes to .build/distro/SUITE/debootstrap.log.
make_root() {
    local suite=$1 dir=$distro/$1
    local root=$dir/root ready=$dir/root.ready log=$dir/debootstrap.log
    mkdir -p "$dir"
    exec 9>"$dir/lock"
    flock 9
    made "$suite" && return 0
    rm -f "$ready"
    rm -rf --one-file-system "$root"
    echo "distro-root: debootstrap --variant=minbase $suite from $mirror (log: $log)" >&2
    # In a private mount namespace: the /proc and /sys debootstrap mounts in the root go with
    # it, even when it is killed, so no later rm -rf meets them.
    if ! unshare --mount --propagation private \
        debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$log" 2>&1; then
        tail -20 "$log" >&2
        echo "distro-root: debootstrap of $suite failed; $root is left for inspection and will be made again" >&2
        return 1
    fi
    # Debian 11 names its security suite SUITE-security too (since bullseye), as 12 and 13 do.
    cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
SOURCES
    # The package lists, fetched once here so that a check only refreshes them. apt needs /proc
    # and name resolution; a private mount namespace takes /proc away again however this ends.
    rm -f "$root/etc/resolv.conf"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    if ! unshare --mount --propagation private \
        bash -c 'mount -t proc proc "$1/proc" && chroot "$1" apt-get update -qq' _ "$root" >>"$log" 2>&1; then
        tail -20 "$log" >&2
        echo "distro-root: apt-get update in the new $suite root failed" >&2
        return 1
    fi
    date -u +%FT%TZ >"$ready"
    echo "distro-root: $suite made in $SECONDS s" >&2
}

missing=()
for suite in "$@"; do
    if ! [[ $suite =~ ^[a-z]+$ ]]; then
        echo "distro-root: '$suite' is not a Debian code name (bullseye, bookworm, trixie...)" >&2
        exit 2
    fi
    made "$suite" || missing+=("$suite")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "distro-root: needs root, to make a Debian root with debootstrap (and chroot into it)" >&2
        exit 1
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
    pids=()
    for suite in "${missing[@]}"; do
        make_root "$suite" &
        pids+=($!)
    done
    status=0
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    [ $status -eq 0 ] || exit 1
fi
for suite in "$@"; do
    echo "$distro/$suite/root"
done
