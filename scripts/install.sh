#!/bin/sh
# Installs CatFacts from a release build, or removes what it installed:
#
#   scripts/install.sh PREFIX              (make install PREFIX=... DESTDIR=...)
#   scripts/install.sh --uninstall PREFIX  (make uninstall)
#
# Installs:
#   PREFIX/lib/libCatFacts.so.VERSION, and the links libCatFacts.so.0 (the SONAME) and
#     libCatFacts.so (for -lCatFacts)
#   PREFIX/include/catfacts.h
#   PREFIX/lib/pkgconfig/catfacts.pc      (paths of PREFIX, not of DESTDIR)
#   PREFIX/bin/catfacts, PREFIX/bin/catfacts-mock
#   PREFIX/share/man/man1/catfacts.1
# Environment: BUILD_DIR, the release build (default .build/release; relative to the
# checkout); LIBDIR, where the library and pkgconfig/ go, instead of PREFIX/lib (scripts/deb.sh
# gives Debian's multiarch folder, /usr/lib/x86_64-linux-gnu); MAN_PAGE, the generated man
# page (default .build/man/catfacts.1); DESTDIR, a staging root put before every installed
# path; STRIP, the strip program (default strip; empty keeps the symbols).
#
# The library and programs carry the Swift runtime (release builds link it statically), so
# what is installed needs only Debian's libraries; the script checks that with ldd.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$here/.." && pwd)
uninstall=0
if [ "${1:-}" = --uninstall ]; then uninstall=1; shift; fi
if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 [--uninstall] PREFIX   (environment: BUILD_DIR, LIBDIR, MAN_PAGE, DESTDIR, STRIP)" >&2
    exit 2
fi
case $1 in
    /*) prefix=${1%/} ;;
    *) echo "$0: PREFIX must be an absolute path (got $1)" >&2; exit 2 ;;
esac
destdir=${DESTDIR:-}
header=$checkout/include/catfacts.h
version=$(sed -n 's/^#define CF_VERSION "\([0-9][0-9.]*\)".*/\1/p' "$header")
major=${version%%.*}
libdir=${LIBDIR:-$prefix/lib}
case $libdir in
    /*) libdir=${libdir%/} ;;
    *) echo "$0: LIBDIR must be an absolute path (got $libdir)" >&2; exit 2 ;;
esac
includedir=$prefix/include
bindir=$prefix/bin
man1dir=$prefix/share/man/man1
real_name=libCatFacts.so.$version
soname=libCatFacts.so.$major

installed="$libdir/$real_name $libdir/$soname $libdir/libCatFacts.so $includedir/catfacts.h
$libdir/pkgconfig/catfacts.pc $bindir/catfacts $bindir/catfacts-mock $man1dir/catfacts.1"

if [ $uninstall -eq 1 ]; then
    for file in $installed; do
        if [ -e "$destdir$file" ] || [ -L "$destdir$file" ]; then
            rm -f "$destdir$file"
            echo "removed $destdir$file"
        fi
    done
    exit 0
fi

build_dir=${BUILD_DIR:-.build/release}
case $build_dir in /*) ;; *) build_dir=$checkout/$build_dir ;; esac
man_page=${MAN_PAGE:-.build/man/catfacts.1}
case $man_page in /*) ;; *) man_page=$checkout/$man_page ;; esac
for file in "$build_dir/libCatFacts.so" "$build_dir/catfacts" "$build_dir/catfacts-mock" "$man_page"; do
    if [ ! -f "$file" ]; then
        echo "$0: $file is missing; build it first (make install builds everything it installs)" >&2
        exit 1
    fi
done
soname_built=$(readelf -d "$build_dir/libCatFacts.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
if [ "$soname_built" != "$soname" ]; then
    echo "$0: $build_dir/libCatFacts.so has SONAME '$soname_built', not $soname (CF_VERSION $version)" >&2
    exit 1
fi

install -d "$destdir$libdir/pkgconfig" "$destdir$includedir" "$destdir$bindir" "$destdir$man1dir"
install -m 0755 "$build_dir/libCatFacts.so" "$destdir$libdir/$real_name"
ln -sf "$real_name" "$destdir$libdir/$soname"
ln -sf "$soname" "$destdir$libdir/libCatFacts.so"
install -m 0644 "$header" "$destdir$includedir/catfacts.h"
install -m 0755 "$build_dir/catfacts" "$destdir$bindir/catfacts"
install -m 0755 "$build_dir/catfacts-mock" "$destdir$bindir/catfacts-mock"
install -m 0644 "$man_page" "$destdir$man1dir/catfacts.1"
strip_program=${STRIP-strip}
if [ -n "$strip_program" ]; then
    # .comment only names the compilers (lintian: binary-has-unneeded-section).
    "$strip_program" --strip-unneeded --remove-section=.comment "$destdir$libdir/$real_name"
    "$strip_program" --remove-section=.comment "$destdir$bindir/catfacts" "$destdir$bindir/catfacts-mock"
fi
CATFACTS_HEADER=$header "$checkout/bindings/c/make-pc.sh" "$prefix" "$libdir" "$includedir" \
    "$destdir$libdir/pkgconfig/catfacts.pc"

# What the installed files need must resolve, and never into a Swift toolchain.
swift=$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
toolchain=$(cd "$(dirname "$swift")/../.." 2>/dev/null && pwd || echo /opt/swift)
for file in "$destdir$libdir/$real_name" "$destdir$bindir/catfacts" "$destdir$bindir/catfacts-mock"; do
    needs=$(ldd "$file")
    if printf '%s\n' "$needs" | grep -q 'not found'; then
        echo "$0: $file needs libraries that are not installed:" >&2
        printf '%s\n' "$needs" | grep 'not found' >&2
        exit 1
    fi
    if printf '%s\n' "$needs" | grep -qF "$toolchain/"; then
        echo "$0: $file needs the Swift toolchain at run time (is $build_dir a release build?):" >&2
        printf '%s\n' "$needs" | grep -F "$toolchain/" >&2
        exit 1
    fi
done
echo "installed CatFacts $version into $destdir$prefix"
echo "  PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs catfacts"
