#!/bin/bash
# Builds CatFacts' Debian packages from the release build, into .build/deb/:
#
#   scripts/deb.sh          (make deb, after make release)
#
#   libcatfacts0     the library, /usr/lib/<multiarch>/libCatFacts.so.VERSION and its SONAME
#                    link; DEBIAN/shlibs and DEBIAN/symbols (packaging/debian/libcatfacts0.symbols,
#                    which must list exactly the library's exports), an ldconfig trigger
#   libcatfacts-dev  catfacts.h, the libCatFacts.so link, catfacts.pc (prefix /usr), and the C
#                    samples of bindings/c with a Makefile (packaging/debian/examples.mk) in
#                    /usr/share/doc/libcatfacts-dev/examples, Debian's place for them
#   catfacts         the shell and its man page
#   catfacts-mock    the mock server, alone: 70 MB nobody should install by accident
# Each holds /usr/share/doc/PACKAGE/copyright and changelog.Debian.gz, and the lintian warnings
# it keeps (packaging/debian/*lintian-overrides, with the reasons).
#
# The files are the ones `make install` installs (scripts/install.sh with PREFIX=/usr, the
# library in Debian's multiarch folder, stripped), split between the packages; a file that
# lands in none of them fails the build. The version is CF_VERSION of include/catfacts.h,
# with Debian revision 1; the changelog is written from it. Depends come from
# dpkg-shlibdeps, plus libcurl4 for the library and the shell, which load libcurl.so.4 at
# their first request (packaging/debian/control); dpkg-gencontrol writes each DEBIAN/control.
# Needs dpkg-dev (installed when missing).
# Environment: BUILD_DIR (default .build/release), MAN_PAGE (default .build/man/catfacts.1).
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
packaging=$checkout/packaging/debian
out=$checkout/.build/deb
revision=1

scripts/install-deps.sh dpkg-dev
# The version (include/catfacts.h), checked against every copy of it first.
version=$(scripts/version.sh --check)
libc_floor=$(sed -n 's/^GLIBC_\([0-9][0-9.]*\)$/\1/p' abi/glibc-floor | head -1)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
libdir=/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# The last commit's time, not the clock's, for the changelog's date and every file's time
# (dpkg-deb clamps to it): building again from the same checkout changes neither.
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH

work=$(mktemp -d /tmp/catfacts-deb.XXXXXX)
trap 'rm -rf "$work"' EXIT
stage=$work/stage
if ! DESTDIR=$stage LIBDIR=$libdir scripts/install.sh /usr >"$work/install.log" 2>&1; then
    cat "$work/install.log" >&2
    exit 1
fi

# The layout dpkg-shlibdeps and dpkg-gencontrol read: debian/control, debian/changelog, and
# each package's tree in debian/PACKAGE.
source=$work/source
mkdir -p "$source/debian"
cp "$packaging/control" "$source/debian/control"
maintainer=$(sed -n 's/^Maintainer: //p' "$packaging/control")
cat >"$source/debian/changelog" <<CHANGELOG
catfacts ($version-$revision) bookworm; urgency=medium

  * CatFacts $version (include/catfacts.h, CF_VERSION).

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
CHANGELOG

# take PACKAGE PATH...: moves staged files into the package's tree.
take() {
    local package=$1 path
    shift
    for path in "$@"; do
        mkdir -p "$source/debian/$package$(dirname "$path")"
        mv "$stage$path" "$source/debian/$package$path"
    done
}
take libcatfacts0 "$libdir/libCatFacts.so.$version" "$libdir/libCatFacts.so.${version%%.*}"
take libcatfacts-dev "$libdir/libCatFacts.so" /usr/include/catfacts.h "$libdir/pkgconfig/catfacts.pc"
take catfacts /usr/bin/catfacts /usr/share/man/man1/catfacts.1
take catfacts-mock /usr/bin/catfacts-mock
left=$(cd "$stage" && find . ! -type d)
if [ -n "$left" ]; then
    echo "deb: make install installs files no package holds (add them to scripts/deb.sh):" >&2
    echo "$left" >&2
    exit 1
fi
gzip -9n "$source/debian/catfacts/usr/share/man/man1/catfacts.1"
examples=$source/debian/libcatfacts-dev/usr/share/doc/libcatfacts-dev/examples
install -d "$examples"
install -m 0644 bindings/c/page_breeds.c bindings/c/breed_detail.c bindings/c/metrics.c \
    bindings/c/endpoint_times.c bindings/c/sample.h "$examples/"
install -m 0644 packaging/debian/examples.mk "$examples/Makefile"
chmod 0644 "$source/debian/libcatfacts0$libdir/libCatFacts.so.$version"

# The library's exports must be the symbols file's, each with the version that added it.
library=$source/debian/libcatfacts0$libdir/libCatFacts.so.$version
nm -D --defined-only "$library" | awk '{ print $3 }' | sort >"$work/exported"
sed -n 's/^ \([^@ ]*\)@Base .*/\1/p' "$packaging/libcatfacts0.symbols" | sort >"$work/listed"
if ! diff -u "$work/listed" "$work/exported" >"$work/symbols.diff"; then
    echo "deb: libCatFacts exports differ from packaging/debian/libcatfacts0.symbols" >&2
    echo "     (+ exported, not listed: add ' NAME@Base $version'; - listed, no longer exported: an ABI break)" >&2
    tail -n +3 "$work/symbols.diff" | grep '^[-+]' >&2
    exit 1
fi
mkdir -p "$source/debian/libcatfacts0/DEBIAN"
cp "$packaging/libcatfacts0.symbols" "$source/debian/libcatfacts0/DEBIAN/symbols"
echo "libCatFacts ${version%%.*} libcatfacts0 (>= $version)" >"$source/debian/libcatfacts0/DEBIAN/shlibs"
echo "activate-noawait ldconfig" >"$source/debian/libcatfacts0/DEBIAN/triggers"

rm -rf "$out"
mkdir -p "$out"
cd "$source"
for package in libcatfacts0 libcatfacts-dev catfacts catfacts-mock; do
    tree=debian/$package
    install -d "$tree/DEBIAN" "$tree/usr/share/doc/$package" "$tree/usr/share/lintian/overrides"
    install -m 0644 "$packaging/copyright" "$tree/usr/share/doc/$package/copyright"
    # The lintian warnings kept, each with its reason: every package's, then its own.
    overrides=("$packaging/lintian-overrides")
    if [ -f "$packaging/$package.lintian-overrides" ]; then
        overrides+=("$packaging/$package.lintian-overrides")
    fi
    cat "${overrides[@]}" >"$tree/usr/share/lintian/overrides/$package"
    chmod 0644 "$tree/usr/share/lintian/overrides/$package"
    gzip -9n <debian/changelog >"$tree/usr/share/doc/$package/changelog.Debian.gz"
    chmod 0644 "$tree/usr/share/doc/$package/changelog.Debian.gz"
    binaries=$(find "$tree" -path "$tree/DEBIAN" -prune -o -type f -print | while read -r file; do
        if head -c 4 "$file" | cmp -s - <(printf '\177ELF'); then echo "$file"; fi; done)
    touch "debian/$package.substvars"
    if [ -n "$binaries" ]; then
        # shellcheck disable=SC2086 # one word per file; the paths have no blanks
        dpkg-shlibdeps -T"debian/$package.substvars" $binaries 2>"$work/shlibdeps.log" || {
            cat "$work/shlibdeps.log" >&2; exit 1; }
        # libc6 at the glibc floor (abi/glibc-floor, which make glibc-check proves of every
        # binary's symbol versions), not 2.34: Debian 12's libc6 symbols file asks 2.34 of any
        # caller of sysconf@GLIBC_2.2.5, for the _SC_MINSIGSTKSZ and _SC_SIGSTKSZ names 2.34
        # added; the Swift runtime asks only for the page size and the processor count.
        sed -i "s/libc6 (>= [0-9.]*)/libc6 (>= $libc_floor)/" "debian/$package.substvars"
    fi
    dpkg-gencontrol -p"$package" -P"$tree" -T"debian/$package.substvars" -f"$work/files"
    (cd "$tree" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) \
        >"$tree/DEBIAN/md5sums"
    find "$tree" -type d -exec chmod 0755 {} +
    find "$tree/DEBIAN" -type f -exec chmod 0644 {} +
    deb=$out/${package}_$version-${revision}_$arch.deb
    # xz at dpkg's default level, but the mock's 72 MB at level 1: 13 s of CPU instead of 52,
    # for 20.7 MB instead of 17.8 (a test server, built in every make test).
    level=6
    [ "$package" = catfacts-mock ] && level=1
    dpkg-deb --root-owner-group -Zxz -z"$level" --build "$tree" "$deb" >/dev/null
    printf '  %-48s %6s KB, installed %s KB; Depends: %s\n' "$(basename "$deb")" \
        "$(( $(stat -c %s "$deb") / 1024 ))" "$(dpkg-deb -f "$deb" Installed-Size)" "$(dpkg-deb -f "$deb" Depends)"
done
echo "deb: 4 packages of CatFacts $version in .build/deb"
