#!/bin/bash
# Proves that an install works where no Swift toolchain is: installs the release build into a
# temporary prefix, builds the Python wheel, then, in a mount namespace where the toolchain's
# folder is an empty tmpfs:
#   - ldd of every installed binary shows no toolchain path and nothing missing;
#   - a C sample compiled with `pkg-config --cflags --libs catfacts` from the prefix runs;
#   - the wheel installed into a fresh venv pages breeds with no environment variables;
#   - `catfacts -c breeds` and `catfacts --mock -c ...` run against the installed mock;
#   - `man -l` renders the installed man page.
#   - with DESTDIR, exactly the installed files are staged, and `make uninstall` removes them;
#   - the library links neither FoundationEssentials nor _StringProcessing, the shell no ICU (nm).
# Needs root (unshare --mount, mount). Prints `dist-check: N passed, 0 failed` and exits 0
# when every check passes.
#
#   scripts/dist-check.sh            (make dist-check; make test runs it)
# Environment: BUILD_DIR (default .build/release), PYTHON (default python3), KEEP=1 keeps the
# temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
python=${PYTHON:-python3}
swift=$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
toolchain=$(cd "$(dirname "$(readlink -f "$swift")")/../.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "dist-check: needs root, to hide $toolchain in a mount namespace (unshare --mount)" >&2
    exit 1
fi
work=$(mktemp -d /tmp/catfacts-dist.XXXXXX)
cleanup() {
    if [ "${KEEP:-0}" = 1 ]; then echo "dist-check: kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
prefix=$work/prefix

echo "dist-check: installing into $prefix"
make --no-print-directory install PREFIX="$prefix" >"$work/install.log" 2>&1 || {
    cat "$work/install.log" >&2; exit 1; }

echo "dist-check: building the wheel from the installed library"
CATFACTS_WHEEL_LIBRARY=$prefix/lib/libCatFacts.so.0 \
    "$python" -m pip wheel --no-deps --no-build-isolation -q -w "$work/wheel" bindings/python \
    >"$work/wheel.log" 2>&1 || { cat "$work/wheel.log" >&2; exit 1; }
wheel=$(ls "$work"/wheel/catfacts-*.whl)
# The venv is made outside the namespace (its python may live anywhere); only the toolchain
# is hidden below, and nothing of the checkout is on its path.
"$python" -m venv "$work/venv"

# Everything below runs with the toolchain's folder hidden.
cat >"$work/inside.sh" <<'INSIDE'
set -uo pipefail
prefix=$1 work=$2 wheel=$3 checkout=$4 toolchain=$5
. "$checkout/scripts/checks.sh"
env_clean() { env -u CATFACTS_LIBRARY -u CATFACTS_MOCK -u LD_LIBRARY_PATH -u PYTHONPATH "$@"; }

check "the toolchain is hidden" sh -c "[ -z \"\$(ls -A $toolchain)\" ] && ! command -v swift"
for file in "$prefix/lib/libCatFacts.so.0" "$prefix/bin/catfacts" "$prefix/bin/catfacts-mock"; do
    check "ldd $(basename "$file"): resolves, no toolchain path" \
        sh -c "out=\$(ldd '$file') && ! printf '%s\n' \"\$out\" | grep -q 'not found' && ! printf '%s\n' \"\$out\" | grep -qF '$toolchain/'"
done
check "nm -D --defined-only of the installed library: exactly the header's functions" \
    "$checkout/scripts/check-exports.sh" "$prefix/include/catfacts.h" "$prefix/lib/libCatFacts.so.0"
check "readelf: SONAME libCatFacts.so.0, no RUNPATH but \$ORIGIN" \
    sh -c "readelf -d '$prefix/lib/libCatFacts.so.0' | grep -q 'SONAME.*\[libCatFacts.so.0\]' && ! readelf -d '$prefix/lib/libCatFacts.so.0' | grep -E 'RUNPATH|RPATH' | grep -qv '\[\$ORIGIN\]'"

# The installed mock, started from the prefix.
# Not through env_clean: a function would run in a subshell, and $! would not be the mock.
env -u CATFACTS_LIBRARY -u CATFACTS_MOCK -u LD_LIBRARY_PATH -u PYTHONPATH \
    "$prefix/bin/catfacts-mock" --port 0 >"$work/mock.out" 2>"$work/mock.err" &
mock=$!
trap 'kill $mock 2>/dev/null' EXIT
for _ in $(seq 100); do grep -q '^listening on ' "$work/mock.out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/mock.out" | head -1)
check "catfacts-mock starts: $url" test -n "$url"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
check "a C sample builds with pkg-config --cflags --libs catfacts" \
    sh -c "cc -Wall -Werror -o '$work/page_breeds' '$checkout/bindings/c/page_breeds.c' \$(pkg-config --cflags --libs catfacts jansson)"
check "the C sample pages every breed (98)" \
    sh -c "env -u CATFACTS_LIBRARY -u LD_LIBRARY_PATH '$work/page_breeds' --base-url '$url' >'$work/c.out' && grep -q '^98 breeds' '$work/c.out'"

check "the wheel installs into a fresh venv" \
    env_clean "$work/venv/bin/python" -m pip install -q --no-index --no-deps "$wheel"
cat >"$work/page.py" <<'PY'
import sys
import catfacts
assert "site-packages" in catfacts.library_path, catfacts.library_path
with catfacts.Client(base_url=sys.argv[1]) as client:
    page = client.breeds_page(1, limit=5)
    print(len(page.items), page.total, page.items[0].breed)
PY
check "Python pages breeds with no environment variables" \
    sh -c "cd / && env -u CATFACTS_LIBRARY -u CATFACTS_MOCK -u PYTHONPATH '$work/venv/bin/python' '$work/page.py' '$url' | grep -qx '5 98 Abyssinian'"

check "catfacts -c breeds against the installed mock" \
    sh -c "env -u CATFACTS_MOCK '$prefix/bin/catfacts' --base-url '$url' --no-cache -c breeds | grep -q Abyssinian"
check "catfacts --mock starts the catfacts-mock installed beside it" \
    sh -c "env -u CATFACTS_MOCK PATH=/usr/bin:/bin '$prefix/bin/catfacts' --mock -c 'breeds 10' | grep -q 'page 10 of 10'"
check "man -l renders catfacts(1)" \
    sh -c "MANWIDTH=80 man -l '$prefix/share/man/man1/catfacts.1' 2>/dev/null | grep -q 'EXIT STATUS'"

echo "$passed $failed" >"$work/counts"
[ "$failed" -eq 0 ]
INSIDE

unshare --mount bash -c 'mount -t tmpfs -o size=1m tmpfs "$1" && shift && exec bash "$@"' \
    _ "$toolchain" "$work/inside.sh" "$prefix" "$work" "$wheel" "$checkout" "$toolchain" || true
read -r passed failed <"$work/counts" 2>/dev/null || { passed=0; failed=1; echo "  FAIL the namespace did not run"; }

# Staging and removing, with the toolchain back: DESTDIR puts every file under it while the
# .pc file names PREFIX; uninstall removes exactly what install put.
staged=$work/stage
make --no-print-directory install PREFIX=/opt/catfacts DESTDIR="$staged" >"$work/stage.log" 2>&1 || {
    cat "$work/stage.log" >&2; exit 1; }
files=$(cd "$staged" && find . ! -type d | sort | tr '\n' ' ')
expected="./opt/catfacts/bin/catfacts ./opt/catfacts/bin/catfacts-mock ./opt/catfacts/include/catfacts.h ./opt/catfacts/lib/libCatFacts.so ./opt/catfacts/lib/libCatFacts.so.0 ./opt/catfacts/lib/libCatFacts.so.$(sed -n 's/^#define CF_VERSION "\(.*\)"/\1/p' include/catfacts.h) ./opt/catfacts/lib/pkgconfig/catfacts.pc ./opt/catfacts/share/man/man1/catfacts.1 "
if [ "$files" = "$expected" ] && grep -qx 'prefix=/opt/catfacts' "$staged/opt/catfacts/lib/pkgconfig/catfacts.pc"; then
    echo "  ok   DESTDIR stages exactly the installed files; catfacts.pc names PREFIX"; passed=$((passed + 1))
else
    echo "  FAIL DESTDIR staging: got $files"; failed=$((failed + 1))
fi
make --no-print-directory uninstall PREFIX=/opt/catfacts DESTDIR="$staged" >"$work/unstage.log" 2>&1
left=$(cd "$staged" && find . ! -type d)
if [ -z "$left" ]; then
    echo "  ok   make uninstall removes every installed file"; passed=$((passed + 1))
else
    echo "  FAIL make uninstall left: $left"; failed=$((failed + 1))
fi
# What the library must not carry, each of which comes whole once one API of it is used
# (BENCHMARKS.md, Footprint): FoundationEssentials (7.5 MB), _StringProcessing and its Regex
# parser (1.4 MB; `String.contains(_:)` is theirs: the library uses `containsUTF8`).
symbols=$(nm "${BUILD_DIR:-.build/release}/libCatFacts.so")
carried=$(grep -oE 'FoundationEssentials|17_StringProcessing|12_RegexParser' <<<"$symbols" | sort -u | tr '\n' ' ' || true)
if [ -z "$carried" ]; then
    echo "  ok   the library links neither FoundationEssentials nor _StringProcessing"; passed=$((passed + 1))
else
    echo "  FAIL the library links $carried(nm ${BUILD_DIR:-.build/release}/libCatFacts.so names which symbols)"; failed=$((failed + 1))
fi
# The shell links FoundationEssentials but not Foundation, whose ICU data is tens of MB.
symbols=$(nm "${BUILD_DIR:-.build/release}/catfacts")
if ! grep -qE 'icu_[0-9]+|ubrk_open' <<<"$symbols"; then
    echo "  ok   the shell carries no ICU (no Foundation)"; passed=$((passed + 1))
else
    echo "  FAIL the shell carries ICU: a module it links imports Foundation (nm ${BUILD_DIR:-.build/release}/catfacts)"; failed=$((failed + 1))
fi
echo "dist-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
