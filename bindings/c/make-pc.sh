#!/bin/sh
# Writes a catfacts.pc for pkg-config from catfacts.pc.in.
#
#   make-pc.sh PREFIX LIBDIR INCLUDEDIR OUT
#
# PREFIX, LIBDIR and INCLUDEDIR are absolute paths. LIBDIR and INCLUDEDIR under PREFIX are
# written relative to ${prefix}, so `pkg-config --define-prefix` can relocate an install.
# Libs carries -Wl,-rpath,${libdir} so that a program finds the library where it was built
# against it, except when LIBDIR is one of the system's library folders (/usr/lib, /lib, their
# lib64 and multiarch folders, /usr/lib/x86_64-linux-gnu...): the dynamic loader searches those
# anyway, and a RUNPATH there would only outrank LD_LIBRARY_PATH for every library the program
# loads. The version is CF_VERSION from include/catfacts.h of this checkout (CATFACTS_HEADER
# overrides where that header is).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 4 ]; then
    echo "usage: $0 PREFIX LIBDIR INCLUDEDIR OUT" >&2
    exit 2
fi
prefix=$1 libdir=$2 includedir=$3 out=$4
header=${CATFACTS_HEADER:-$here/../../include/catfacts.h}

for path in "$prefix" "$libdir" "$includedir"; do
    case $path in
        /*) ;;
        *) echo "$0: $path: not an absolute path" >&2; exit 2 ;;
    esac
    case $path in
        # pkg-config splits Libs and Cflags at blanks.
        *[[:space:]]*) echo "$0: $path: pkg-config cannot carry a path with blanks" >&2; exit 2 ;;
    esac
done

version=$(sed -n 's/^#define CF_VERSION "\([0-9][0-9.]*\)".*/\1/p' "$header")
if [ -z "$version" ]; then
    echo "$0: no #define CF_VERSION \"X.Y.Z\" in $header" >&2
    exit 1
fi

relative_to_prefix() {
    prefix_trimmed=${prefix%/}
    case $1 in
        "$prefix_trimmed") printf '%s\n' '${prefix}' ;;
        "$prefix_trimmed"/*) printf '%s\n' "\${prefix}${1#"$prefix_trimmed"}" ;;
        *) printf '%s\n' "$1" ;;
    esac
}
libdir_value=$(relative_to_prefix "$libdir")
case ${libdir%/} in
    /lib | /usr/lib | /lib64 | /usr/lib64 | /lib/*-linux-* | /usr/lib/*-linux-*) rpath="" ;;
    *) rpath=" -Wl,-rpath,\${libdir}" ;;
esac
includedir_value=$(relative_to_prefix "$includedir")

mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
# awk's index/substr on ENVIRON, not sed or awk -v: both would treat characters in a path
# (&, \, /) as special.
PC_PREFIX=$prefix PC_LIBDIR=$libdir_value PC_INCLUDEDIR=$includedir_value PC_VERSION=$version PC_RPATH=$rpath \
awk '
    function put(line, key, value,    at, done) {
        done = ""
        while ((at = index(line, key)) > 0) {
            done = done substr(line, 1, at - 1) value
            line = substr(line, at + length(key))
        }
        return done line
    }
    {
        line = put($0, "@PREFIX@", ENVIRON["PC_PREFIX"])
        line = put(line, "@LIBDIR@", ENVIRON["PC_LIBDIR"])
        line = put(line, "@INCLUDEDIR@", ENVIRON["PC_INCLUDEDIR"])
        line = put(line, "@RPATH@", ENVIRON["PC_RPATH"])
        print put(line, "@VERSION@", ENVIRON["PC_VERSION"])
    }' "$here/catfacts.pc.in" > "$tmp"
if grep -q '@[A-Z]*@' "$tmp"; then
    echo "$0: @...@ placeholders left in $out (from $here/catfacts.pc.in)" >&2
    exit 1
fi
mv "$tmp" "$out"
