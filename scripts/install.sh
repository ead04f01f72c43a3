#!/bin/sh
# Installs libCatFacts for C programs:
#
#   install.sh PREFIX
#
# PREFIX/lib/libCatFacts.so, PREFIX/include/catfacts.h, PREFIX/lib/pkgconfig/catfacts.pc.
# Environment: BUILD_DIR, the build to install (default .build/debug; relative paths are
# relative to the checkout); DESTDIR, a staging root put before every installed path (the
# .pc still names PREFIX); SWIFT, the swift driver (default: swift on PATH, else /opt/swift).
#
# libCatFacts.so needs the Swift runtime (libswiftCore.so, libFoundation.so, ...). It finds
# it through its own RUNPATH, which swiftc sets to the toolchain's runtime directory; an
# executable's rpath would not help, since the dynamic loader looks up a library's needs in
# that library's RUNPATH only. So this script checks that the RUNPATH covers the runtime
# directories `swift -print-target-info` names, and that the installed copy resolves.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$here/../.." && pwd)
if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 PREFIX   (environment: BUILD_DIR, DESTDIR, SWIFT)" >&2
    exit 2
fi
case $1 in
    /*) prefix=${1%/} ;;
    *) prefix=$(pwd)/${1%/} ;;
esac
[ -n "$prefix" ] || prefix=/
build_dir=${BUILD_DIR:-.build/debug}
case $build_dir in
    /*) ;;
    *) build_dir=$checkout/$build_dir ;;
esac
library=$build_dir/libCatFacts.so
header=$checkout/include/catfacts.h
destdir=${DESTDIR:-}

if [ ! -f "$library" ]; then
    echo "$0: no $library; build it first (swift build --product CatFacts)" >&2
    exit 1
fi

runpath=$(readelf -d "$library" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]$/\2/p' | tr '\n' ':')
swift=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
if [ -x "$swift" ] || command -v "$swift" >/dev/null 2>&1; then
    # The "runtimeLibraryPaths" array of the pretty-printed target info, one path a line.
    runtime_dirs=$("$swift" -print-target-info |
        sed -n '/"runtimeLibraryPaths"/,/\]/s/^ *"\([^"]*\)",\{0,1\}$/\1/p')
    for dir in $runtime_dirs; do
        case ":$runpath:" in
            *":$dir:"*) ;;
            *)
                echo "$0: $library does not carry the Swift runtime directory $dir in its" \
                     "RUNPATH ($runpath); installed, it would not find libswiftCore.so." \
                     "Link it with -Xlinker -rpath -Xlinker $dir." >&2
                exit 1 ;;
        esac
    done
else
    echo "$0: warning: no swift driver ($swift); not checking the library's RUNPATH" >&2
fi

libdir=$prefix/lib
includedir=$prefix/include
install -d "$destdir$libdir" "$destdir$includedir" "$destdir$libdir/pkgconfig"
install -m 0755 "$library" "$destdir$libdir/libCatFacts.so"
install -m 0644 "$header" "$destdir$includedir/catfacts.h"
CATFACTS_HEADER=$header "$here/make-pc.sh" "$prefix" "$libdir" "$includedir" \
    "$destdir$libdir/pkgconfig/catfacts.pc"

missing=$(ldd "$destdir$libdir/libCatFacts.so" | grep 'not found' || true)
if [ -n "$missing" ]; then
    echo "$0: the installed library does not resolve:" >&2
    echo "$missing" >&2
    exit 1
fi
echo "installed libCatFacts $(sed -n 's/^#define CF_VERSION "\(.*\)"/\1/p' "$header") into $destdir$prefix"
echo "  PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs catfacts"
