#!/bin/bash
# Proves that the two release guards catch what they exist for, each case with its exact
# exit status and a word its output must contain:
#   scripts/check-abi.sh, on copies of include/catfacts.h changed one way each, the "library"
#   being that header's ABI image (abi/make-image.sh) with the SONAME given: a field added to
#   cf_breed, its fields reordered, a parameter or a return type narrowed, an enumerator's value
#   changed, a function removed (from both, or from the library only) fail (1); a function
#   added passes (0) and is listed; a new SONAME lets the layout change pass (0); the real
#   release library against the recorded baseline passes (0).
#   scripts/check-glibc-floor.sh: the release binaries pass (0); a shared object calling
#   arc4random (GLIBC_2.36) fails naming it (1), and passes with the floor at GLIBC_2.36; one
#   calling pthread_create as linked here (GLIBC_2.34, what Sources/CGlibcFloor exists to
#   avoid) fails naming it; a C++ one throwing through std::__throw_bad_array_new_length
#   (GLIBCXX_3.4.29) fails the libstdc++ floor, naming it.
# Ends `abi-tests: N passed, M failed`; exit 1 if any failed.
#
#   Tests/abi/run.sh        (after make release: it reads .build/release)
set -u
cd "$(dirname "$0")/../.."

CC=${CC:-cc}
HEADER=include/catfacts.h
LIBRARY=.build/release/libCatFacts.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# expect NAME STATUS WORD... -- COMMAND...: COMMAND must exit STATUS and print every WORD.
expect() {
    local name=$1 want=$2 words=() word got
    shift 2
    while [ "$1" != -- ]; do words+=("$1"); shift; done
    shift
    "$@" >"$tmp/out" 2>&1
    got=$?
    local missing=""
    for word in "${words[@]}"; do
        grep -qF -- "$word" "$tmp/out" || missing="$missing '$word'"
    done
    if [ $got -eq "$want" ] && [ -z "$missing" ]; then
        passed=$((passed + 1))
        echo "ok: $name"
    else
        failed=$((failed + 1))
        echo "FAILED: $name: exit $got (expected $want)${missing:+, output lacks$missing}:"
        sed 's/^/    /' "$tmp/out"
    fi
}

# changed NAME SED: writes $tmp/NAME.h, include/catfacts.h changed by SED; a SED that
# changes nothing (the header moved on) is a failure of its own, not a silent pass.
changed() {
    sed "$2" "$HEADER" >"$tmp/$1.h"
    if cmp -s "$HEADER" "$tmp/$1.h"; then
        failed=$((failed + 1))
        echo "FAILED: the change $2 matches nothing in $HEADER"
    fi
}

# image NAME SONAME: the ABI image of $tmp/NAME.h, standing for a library built from it.
image() {
    abi/make-image.sh "$tmp/$1.h" "$2" "$tmp/$1.so"
}

# check NAME SONAME: check-abi.sh of the header NAME and a library made from it.
check() {
    image "$1" "$2" && scripts/check-abi.sh "$tmp/$1.h" "$tmp/$1.so"
}

# "has" while the header is the baseline's, "keeps ... and adds" once functions are added.
expect "the release library keeps the recorded ABI" 0 "the ABI recorded in" -- \
    scripts/check-abi.sh "$HEADER" "$LIBRARY"

changed breed-field 's/const char \*breed, \*country, \*origin, \*coat, \*pattern;/const char *breed, *country, *origin, *coat, *pattern, *colour;/'
expect "a field added to cf_breed fails" 1 "struct cf_breed" "colour" "breaks the ABI" -- \
    check breed-field libCatFacts.so.0

changed breed-order 's/const char \*breed, \*country, \*origin, \*coat, \*pattern;/const char *country, *breed, *origin, *coat, *pattern;/'
expect "cf_breed's fields reordered fails" 1 "struct cf_breed" "offset changed" -- \
    check breed-order libCatFacts.so.0

changed parameter 's/^cf_status cf_list_wait(cf_list \*l, int64_t index, int64_t timeout_ms);/cf_status cf_list_wait(cf_list *l, int64_t index, int32_t timeout_ms);/'
expect "a parameter narrowed fails" 1 "cf_list_wait" "parameter 3" -- \
    check parameter libCatFacts.so.0

changed return 's/^int64_t cf_list_count(cf_list \*l);/int32_t cf_list_count(cf_list *l);/'
expect "a return type narrowed fails" 1 "cf_list_count" "return type changed" -- \
    check return libCatFacts.so.0

changed enumerator 's/CF_EVENT_DROPPED = 3/CF_EVENT_DROPPED = 4/'
expect "an enumerator's value changed fails" 1 "CF_EVENT_DROPPED" -- \
    check enumerator libCatFacts.so.0

changed removed '/^cf_status cf_list_retry(cf_list \*l);/d'
expect "a function removed fails" 1 "Removed function" "cf_list_retry" -- \
    check removed libCatFacts.so.0

expect "a function the library lost but the header keeps fails" 1 "not exported by" "cf_list_retry" -- \
    scripts/check-abi.sh "$HEADER" "$tmp/removed.so"

changed added 's/^cf_status cf_list_retry(cf_list \*l);/&\ncf_status cf_list_reload(cf_list *l);/'
expect "a function added passes, listed" 0 "adds" "cf_list_reload" -- \
    check added libCatFacts.so.0

expect "a field added to cf_breed with a new SONAME passes" 0 "SONAME changed from libCatFacts.so.0 to libCatFacts.so.1" "struct cf_breed" -- \
    check breed-field libCatFacts.so.1

changed conflicting 's/^const char \*cf_version(void);/&\nint cf_version(void);/'
expect "a header that does not compile cannot be compared, named" 2 "does not compile" "cf_version" -- \
    check conflicting libCatFacts.so.0

expect "a library that is not a shared object cannot be compared" 2 "not a shared library" -- \
    scripts/check-abi.sh "$HEADER" "$HEADER"

floor=$(grep -E '^GLIBC_' abi/glibc-floor)
expect "the release binaries need at most the floors" 0 "need at most $floor GLIBCXX_3.4.25 CXXABI_1.3.11" -- \
    scripts/check-glibc-floor.sh

printf '#include <stdlib.h>\nunsigned int draw(void) { return arc4random(); }\n' >"$tmp/newer.c"
if "$CC" -shared -fPIC -o "$tmp/newer.so" "$tmp/newer.c" 2>"$tmp/cc.log"; then
    expect "a symbol above the glibc floor fails, named" 1 "needs GLIBC_2.36, above the floor $floor" "arc4random" -- \
        scripts/check-glibc-floor.sh "$tmp/newer.so"
    echo GLIBC_2.36 >"$tmp/floor"
    expect "the same symbol passes with the floor at GLIBC_2.36" 0 "1 file needs at most GLIBC_2.36" -- \
        env GLIBC_FLOOR_FILE="$tmp/floor" scripts/check-glibc-floor.sh "$tmp/newer.so"
else
    failed=$((failed + 1))
    echo "FAILED: cannot build a shared object calling arc4random (glibc 2.36 needed here):"
    sed 's/^/    /' "$tmp/cc.log"
fi
printf '#include <pthread.h>\nstatic void *run(void *a) { return a; }\nint start(pthread_t *t) { return pthread_create(t, 0, run, 0); }\n' >"$tmp/thread.c"
if "$CC" -shared -fPIC -o "$tmp/thread.so" "$tmp/thread.c" 2>"$tmp/cc.log"; then
    expect "pthread_create bound as this glibc binds it fails, named" 1 "needs GLIBC_2.34, above the floor $floor" "pthread_create" -- \
        scripts/check-glibc-floor.sh "$tmp/thread.so"
else
    failed=$((failed + 1)); echo "FAILED: cannot build a shared object calling pthread_create:"; sed 's/^/    /' "$tmp/cc.log"
fi
# Declared here: libstdc++'s headers keep it internal; its own inline code (new T[n]) calls it.
printf 'namespace std { [[noreturn]] void __throw_bad_array_new_length(); }\nvoid fail(void) { std::__throw_bad_array_new_length(); }\n' >"$tmp/throw.cc"
if "${CXX:-c++}" -shared -fPIC -o "$tmp/throw.so" "$tmp/throw.cc" 2>"$tmp/cc.log"; then
    expect "a libstdc++ symbol above its floor fails, named" 1 "needs GLIBCXX_3.4.29, above the floor GLIBCXX_3.4.25" "_ZSt28__throw_bad_array_new_lengthv" -- \
        scripts/check-glibc-floor.sh "$tmp/throw.so"
else
    failed=$((failed + 1)); echo "FAILED: cannot build a C++ shared object:"; sed 's/^/    /' "$tmp/cc.log"
fi
expect "a file that is not ELF is an error, named" 2 "not an ELF file" -- \
    scripts/check-glibc-floor.sh "$tmp/newer.c"

echo "abi-tests: $passed passed, $failed failed"
[ $failed -eq 0 ]
