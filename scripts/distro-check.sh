#!/bin/bash
# Proves the Debian packages (make deb) on bare Debian 11, 12 and 13, as a user meets them: one
# set of packages for all three, on a fresh copy of each minimal root that
# scripts/distro-root.sh caches (an overlay over it; the cached root is never changed):
#   - lintian reports no error and no warning but the kept ones (packaging/debian/*overrides);
#   - `apt-get install ./libcatfacts0_….deb ./libcatfacts-dev_….deb ./catfacts_….deb` with gcc,
#     pkg-config, man-db and libjansson-dev resolves every dependency from the release's archive;
#   - a C program (bindings/c/page_breeds.c) builds with `gcc … $(pkg-config --cflags --libs
#     catfacts jansson)`, with no RUNPATH (the library is in a system folder), and pages the 98
#     breeds of a catfacts-mock that runs outside the root, on loopback (the chroot shares the
#     network); so do the C samples libcatfacts-dev ships as examples, built from there;
#   - `catfacts --base-url URL --no-cache -c breeds` lists them; `man catfacts` renders;
#   - catfacts-mock installs on its own, and `catfacts --mock` starts it;
#   - `apt-get purge` of the four packages leaves none of their files, no dpkg record, no
#     ldconfig entry, and no file named like ours anywhere in the root.
# Then scripts/distro-check-wheel.sh runs on a second fresh copy of the same release with the
# same mock URL (`distro-check-wheel.sh ROOT_COPY_DIR MOCK_URL`), and its counts are added.
# The releases run side by side (most of the time is apt's downloads and dpkg's unpacking),
# each one's output kept and printed in order: `== SUITE`, then `  ok   name` or `  FAIL name`
# and the output per check, its time; then `distro-check: N passed, M failed`; exits 0 only
# when all pass.
# Needs root (overlay mounts, chroot); runs in a private mount namespace, so every mount it
# makes goes with it however it ends, and the trap unmounts them before removing its folder.
# Downloaded Debian packages are kept in .build/distro/SUITE/apt-archives for the next run.
#
#   scripts/distro-check.sh [SUITE...]   (make distro-check, after make deb; make test runs it)
#                                        default: bullseye bookworm trixie (Debian 11, 12, 13)
# Environment: BUILD_DIR (default .build/release: its catfacts-mock serves the checks),
# KEEP=1 keeps the temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
build_dir=${BUILD_DIR:-.build/release}
if [ $# -eq 0 ]; then
    set -- bullseye bookworm trixie
fi
suites=("$@")

if [ "$(id -u)" -ne 0 ]; then
    echo "distro-check: needs root, to mount an overlay of a Debian root and chroot into it" >&2
    exit 1
fi
version=$(scripts/version.sh)
debs=()
for package in libcatfacts0 libcatfacts-dev catfacts catfacts-mock; do
    deb=$(ls .build/deb/"${package}_$version"-*.deb 2>/dev/null | head -1)
    if [ -z "$deb" ]; then
        echo "distro-check: no .build/deb/${package}_$version-*.deb: build the packages with \`make deb\`" >&2
        exit 1
    fi
    debs+=("$checkout/$deb")
done
if [ ! -x "$build_dir/catfacts-mock" ]; then
    echo "distro-check: no $build_dir/catfacts-mock: build it with \`make release\`" >&2
    exit 1
fi
scripts/install-deps.sh lintian
# The roots, made (in parallel) if not cached.
mapfile -t roots < <(scripts/distro-root.sh "${suites[@]}")
if [ ${#roots[@]} -ne ${#suites[@]} ]; then
    echo "distro-check: scripts/distro-root.sh did not make the roots of ${suites[*]}" >&2
    exit 1
fi

if [ -z "${CATFACTS_DISTRO_NAMESPACE:-}" ]; then
    exec unshare --mount --propagation private env CATFACTS_DISTRO_NAMESPACE=1 bash "$0" "$@"
fi

work=$(mktemp -d /tmp/catfacts-distro.XXXXXX)
mock=""
cleanup() {
    if [ -n "$mock" ]; then kill "$mock" 2>/dev/null || true; fi
    # Innermost first: /proc and the archive cache inside each copy, then the copies. (None,
    # when it stopped before the first: grep finding nothing must not end the trap here.)
    { grep -oE " $work/[^ ]+ " /proc/self/mounts || true; } | sort -r | while read -r mounted; do
        umount -l "$mounted" || true
    done
    if [ "${KEEP:-0}" = 1 ]; then
        echo "distro-check: kept $work"
    else
        rm -rf --one-file-system "$work"
    fi
}
trap cleanup EXIT

# fresh_root NAME: mounts a writable copy of the cached root $root at $work/NAME (an overlay,
# its changes in $work/NAME.changes), with the release's apt archive cache ($archives) and name
# resolution.
fresh_root() {
    local copy=$work/$1 changes=$work/$1.changes
    mkdir -p "$copy" "$changes/upper" "$changes/work" "$archives/partial"
    mount -t overlay overlay -o "lowerdir=$root,upperdir=$changes/upper,workdir=$changes/work" "$copy"
    mount --bind "$archives" "$copy/var/cache/apt/archives"
    rm -f "$copy/etc/resolv.conf"
    cp -L /etc/resolv.conf "$copy/etc/resolv.conf"
}

. scripts/checks.sh

# The mock, outside the root.
"$build_dir/catfacts-mock" --port 0 >"$work/mock.out" 2>"$work/mock.err" &
mock=$!
for _ in $(seq 600); do   # a hang limit, not a pace: the loop ends at the first line
    grep -q '^listening on ' "$work/mock.out" 2>/dev/null && break
    kill -0 "$mock" 2>/dev/null || break
    sleep 0.1
done
url=$(sed -n 's/^listening on //p' "$work/mock.out" | head -1)
if [ -z "$url" ]; then
    echo "  FAIL catfacts-mock did not say where it listens"; sed 's/^/       /' "$work/mock.err"
    echo "distro-check: 0 passed, 1 failed"
    exit 1
fi

check "lintian: no error, no warning but the kept ones ($(basename "${debs[0]}") and the other 3)" \
    lintian --fail-on error,warning "${debs[@]}"

# check_suite SUITE ROOT: every check on one release; prints its counts last.
check_suite() {
    local suite=$1 root=$2 started=$SECONDS debs_seconds
    local archives=$checkout/.build/distro/$suite/apt-archives
    passed=0 failed=0
    fresh_root "$suite-debs"
    copy=$work/$suite-debs
    mount -t proc proc "$copy/proc"
    # inside COMMAND...: runs it in the copy, with a plain environment (nothing of this machine's).
    inside() {
        chroot "$copy" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
            DEBIAN_FRONTEND=noninteractive "$@"
    }
    mkdir -p "$copy/tmp/catfacts-check"
    cp "${debs[@]}" "$copy/tmp/catfacts-check/"
    chroot "$copy" chown _apt:root /var/cache/apt/archives/partial
    deb_in_root() { echo "./$(basename "${debs[$1]}")"; }

    # What apt must bring: the packages the three name in Depends that the bare root lacks.
    needed=$(dpkg-deb -f "${debs[0]}" Depends; dpkg-deb -f "${debs[2]}" Depends)
    needed=$(printf '%s\n' "$needed" | tr ',' '\n' | sed 's/(.*//; s/[[:space:]]//g' | grep -v '^libcatfacts' | sort -u)
    missing=$(for package in $needed; do
        inside dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -q 'install ok installed' || echo "$package"
    done | xargs)
    check "apt-get install the three packages, gcc, make, pkg-config, man-db, libjansson-dev; apt brings ${missing:-nothing}" \
        inside sh -c "cd /tmp/catfacts-check && apt-get update -q && apt-get install -y -q \
            $(deb_in_root 0) $(deb_in_root 1) $(deb_in_root 2) gcc make pkg-config man-db libjansson-dev"
    check "dpkg-query: libcatfacts0, libcatfacts-dev, catfacts installed, version $version-N" \
        inside sh -c "for p in libcatfacts0 libcatfacts-dev catfacts; do
            dpkg-query -W -f='\${Status} \${Version}\n' \$p | grep -x 'install ok installed $version-[0-9]*' || exit 1; done"
    check "ldconfig -p finds libCatFacts.so.0 in the multiarch folder (the package's ldconfig trigger)" \
        inside sh -c "ldconfig -p | grep -E 'libCatFacts\.so\.0 .*=> (/usr)?/lib/[a-z0-9_-]+/libCatFacts\.so\.0$'"
    check "pkg-config catfacts: version $version, -lCatFacts" \
        inside sh -c "[ \"\$(pkg-config --modversion catfacts)\" = $version ] && pkg-config --libs catfacts | grep -q -- -lCatFacts"
    check "gcc page_breeds.c \$(pkg-config --cflags --libs catfacts jansson) builds, from the examples libcatfacts-dev installs" \
        inside sh -c 'cd /usr/share/doc/libcatfacts-dev/examples && gcc -Wall -Werror -o /tmp/catfacts-check/page_breeds page_breeds.c $(pkg-config --cflags --libs catfacts jansson)'
    check "the program has no RUNPATH: catfacts.pc adds none for a system folder" \
        inside sh -c '! readelf -d /tmp/catfacts-check/page_breeds | grep -E "RUNPATH|RPATH"'
    check "the C program pages every breed of the mock: 98 breeds in 4 pages, over the network" \
        inside sh -c "/tmp/catfacts-check/page_breeds --base-url '$url' >/tmp/catfacts-check/c.out &&
            grep -qx '98 breeds in 4 pages (source: network)' /tmp/catfacts-check/c.out &&
            [ \"\$(grep -c '^ *[0-9]*\. ' /tmp/catfacts-check/c.out)\" = 98 ]"
    check "make builds the 4 examples in a copy of /usr/share/doc/libcatfacts-dev/examples; endpoint_times runs" \
        inside sh -c "cp -r /usr/share/doc/libcatfacts-dev/examples /tmp/catfacts-check/examples &&
            make -C /tmp/catfacts-check/examples &&
            for p in page_breeds breed_detail metrics endpoint_times; do [ -x /tmp/catfacts-check/examples/\$p ] || exit 1; done &&
            /tmp/catfacts-check/examples/endpoint_times --base-url '$url'"
    check "catfacts --base-url URL --no-cache -c breeds: page 1 of 10, 98 in all, Abyssinian first" \
        inside sh -c "catfacts --base-url '$url' --no-cache -c breeds >/tmp/catfacts-check/shell.out &&
            grep -qx 'Breeds — page 1 of 10 (98 in all)' /tmp/catfacts-check/shell.out &&
            grep -qE '^ *1  Abyssinian ' /tmp/catfacts-check/shell.out"
    check "man catfacts renders catfacts(1), EXIT STATUS included" \
        inside sh -c "MANWIDTH=80 man catfacts 2>&1 >/tmp/catfacts-check/man.out &&
            grep -q '^NAME' /tmp/catfacts-check/man.out && grep -q '^EXIT STATUS' /tmp/catfacts-check/man.out"
    check "apt-get install ./catfacts-mock_….deb, a package of its own; catfacts --mock starts it: page 10 of 10" \
        inside sh -c "cd /tmp/catfacts-check && apt-get install -y -q $(deb_in_root 3) &&
            catfacts --mock -c 'breeds 10' | grep -q 'page 10 of 10'"

    # Every path the packages installed, then the purge.
    inside dpkg -L libcatfacts0 libcatfacts-dev catfacts catfacts-mock >"$work/$suite.installed" 2>&1 || true
    check "apt-get purge -y the four packages" \
        inside apt-get purge -y -q libcatfacts0 libcatfacts-dev catfacts catfacts-mock
    check "after the purge: none of the $(grep -c '^/' "$work/$suite.installed") paths they installed is left but shared folders" \
        inside sh -c "while read -r path; do
            [ \"\$path\" = /. ] && continue
            [ -e \"\$path\" ] || [ -L \"\$path\" ] || continue
            if [ -d \"\$path\" ] && [ ! -L \"\$path\" ] && dpkg-query -S \"\$path\" >/dev/null 2>&1; then continue; fi
            echo \"left: \$path\"; exit 1
        done" <"$work/$suite.installed"
    check "after the purge: dpkg knows none of them, ldconfig has no libCatFacts" \
        inside sh -c "! dpkg-query -W libcatfacts0 libcatfacts-dev catfacts catfacts-mock 2>/dev/null | grep . &&
            ! ldconfig -p | grep -i catfacts"
    # Not counted: man-db's cache of the pages man has rendered (/var/cache/man/cat1/catfacts.1.gz),
    # which is man-db's, not the package's: its daily job expires it.
    check "after the purge: no file named *catfacts* in the root (but this check's folder, man-db's cache)" \
        inside sh -c "! find / -xdev \\( -path /tmp/catfacts-check -o -path /var/cache/man \\) -prune -o -iname '*catfacts*' -print | grep ."

    debs_seconds=$((SECONDS - started))

    # The wheel's half, on a copy of its own, against the same mock.
    if [ -x scripts/distro-check-wheel.sh ]; then
        fresh_root "$suite-wheel"
        scripts/distro-check-wheel.sh "$work/$suite-wheel" "$url" >"$work/$suite-wheel.out" 2>&1 || true
        cat "$work/$suite-wheel.out"
        counts=$(sed -n 's/^distro-check-wheel: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$work/$suite-wheel.out" | tail -1)
        if [ -n "$counts" ]; then
            read -r wheel_passed wheel_failed <<<"$counts"
            passed=$((passed + wheel_passed)) failed=$((failed + wheel_failed))
        else
            failed=$((failed + 1)); echo "  FAIL scripts/distro-check-wheel.sh ended without its counts"
        fi
    fi

    echo "distro-check $suite: the packages' checks took $debs_seconds s, the wheel's $((SECONDS - started - debs_seconds)) s"
    echo "distro-check $suite: $passed passed, $failed failed"
}

lintian_passed=$passed lintian_failed=$failed
for i in "${!suites[@]}"; do
    ( check_suite "${suites[$i]}" "${roots[$i]}" >"$work/${suites[$i]}.out" 2>&1 ) &
    pids[$i]=$!
done
passed=$lintian_passed failed=$lintian_failed
for i in "${!suites[@]}"; do
    wait "${pids[$i]}" || true
    echo "== ${suites[$i]} (${roots[$i]})"
    grep -v '^distro-check [a-z]*: [0-9]* passed, [0-9]* failed$' "$work/${suites[$i]}.out" || true
    counts=$(sed -n 's/^distro-check [a-z]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$work/${suites[$i]}.out" | tail -1)
    if [ -n "$counts" ]; then
        read -r suite_passed suite_failed <<<"$counts"
        passed=$((passed + suite_passed)) failed=$((failed + suite_failed))
        echo "distro-check ${suites[$i]}: $suite_passed passed, $suite_failed failed"
    else
        failed=$((failed + 1)); echo "  FAIL the checks on ${suites[$i]} ended without their counts"
    fi
done
echo "distro-check: ${suites[*]} in $SECONDS s"
echo "distro-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
