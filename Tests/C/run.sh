#!/bin/bash
# Compiles every Tests/C/*_test.c against include/catfacts.h and .build/debug/libCatFacts.so,
# runs each, and ends with `c-tests: N passed, N failed` (programs). Exit 1 if any failed.
#
#   Tests/C/run.sh                    every test program
#   Tests/C/run.sh list_test ...      only those named
#   Tests/C/run.sh --valgrind [...]   under valgrind memcheck (definite leaks and memory
#                                     errors fail; Swift runtime "possibly lost" / still
#                                     reachable do not). Slow: the thread test runs fewer
#                                     calls (CF_THREAD_ITERATIONS=40) and time limits are
#                                     stretched (CF_TEST_SLOWDOWN=10).
#   Tests/C/run.sh --sanitize [...]   compiled with AddressSanitizer and UndefinedBehavior-
#                                     Sanitizer (the Swift toolchain's clang, which has their
#                                     runtimes; SANITIZE_CC to choose another): any report,
#                                     leaks included, fails. The library itself is not
#                                     instrumented: ASan sees its malloc and free, and every
#                                     access the test makes to what it hands out.
#   Tests/C/run.sh --tsan [...]       compiled with ThreadSanitizer (the toolchain's clang), for
#                                     a library built with -sanitize=thread (make tsan:
#                                     CF_LIB_DIR=.build-tsan/debug); reports go to TSAN_OPTIONS'
#                                     log_path and the caller counts them.
#
# CF_LIB_DIR=DIR takes libCatFacts.so (and libCatFacts.so.0) from DIR instead of .build/debug.
# CF_TEST_TIMEOUT=S kills a program still running after S seconds (default 1200; twice that
# under valgrind) and fails it: a bound only a hang reaches, not a measure of speed (on a
# loaded 2-core machine thread_test alone has taken more than 5 minutes).
# Needs: the library and the mock built (swift build; with two --product options it builds
# only the last), gcc or cc, libjansson-dev; valgrind for --valgrind; python3 and openssl for
# tls_test (its TLS server is bindings/python/tests/tls_front.py; PYTHON=... for another
# python). CF_TEST_VERBOSE=1 names and times each test.
set -u
cd "$(dirname "$0")/../.."

CC=${CC:-cc}
BUILD_DIR=.build/debug
# The library's folder: CF_LIB_DIR for another build of it (make c-asan: .build-fuzz/release).
LIB_DIR=${CF_LIB_DIR:-$BUILD_DIR}
OUT_DIR=.build/c-tests
LIB=$LIB_DIR/libCatFacts.so
SUPP=Tests/C/valgrind.supp
TIMEOUT=${CF_TEST_TIMEOUT:-1200}

valgrind=0
sanitize=0
names=()
for arg in "$@"; do
    case $arg in
        --valgrind) valgrind=1 ;;
        --sanitize) sanitize=1 ;;
        --tsan) sanitize=2 ;;
        -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "run.sh: unknown option $arg" >&2; exit 2 ;;
        *) names+=("${arg%.c}") ;;
    esac
done

if [ ! -f "$LIB" ]; then
    echo "run.sh: $LIB is missing; build it with: swift build --product CatFacts" >&2
    exit 2
fi
if [ ! -x "${CATFACTS_MOCK:-$BUILD_DIR/catfacts-mock}" ]; then
    echo "run.sh: ${CATFACTS_MOCK:-$BUILD_DIR/catfacts-mock} is missing; build it with: swift build --product catfacts-mock" >&2
    exit 2
fi
if [ $valgrind = 1 ] && ! command -v valgrind >/dev/null; then
    echo "run.sh: valgrind is not installed" >&2
    exit 2
fi

if [ $sanitize != 0 ]; then
    CC=${SANITIZE_CC:-$(dirname "$(readlink -f "$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)")")/clang}
    if [ ! -x "$CC" ]; then
        echo "run.sh: $CC is missing: --sanitize needs a clang with the sanitizer runtimes (SANITIZE_CC)" >&2
        exit 2
    fi
fi

if [ ${#names[@]} = 0 ]; then
    for source in Tests/C/*_test.c; do names+=("$(basename "$source" .c)"); done
fi

mkdir -p "$OUT_DIR"
CFLAGS=(-std=c99 -Wall -Wextra -Werror -g -Iinclude)
suffix=
if [ $sanitize = 1 ]; then
    CFLAGS+=(-O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -fuse-ld=lld)
    suffix=.sanitized
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=98}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
elif [ $sanitize = 2 ]; then
    CFLAGS+=(-O1 -fno-omit-frame-pointer -fsanitize=thread -fuse-ld=lld)
    suffix=.tsan
fi
LIBS=(-L"$LIB_DIR" -lCatFacts -Wl,-rpath,"$PWD/$LIB_DIR" -ljansson -lpthread)
if [ $sanitize = 2 ]; then
    # The toolchain's TSan runtime (linked into the program, as the library expects) carries
    # libdispatch interceptors: it needs the toolchain's libdispatch, which the library loads too.
    SWIFT_RUNTIME=$(dirname "$CC")/../lib/swift/linux
    LIBS+=(-L"$SWIFT_RUNTIME" -ldispatch -lBlocksRuntime -Wl,-rpath,"$(cd "$SWIFT_RUNTIME" && pwd)")
fi

passed=0
failed=0
failed_names=()
for name in "${names[@]}"; do
    source=Tests/C/$name.c
    binary=$OUT_DIR/$name$suffix
    if [ ! -f "$source" ]; then
        echo "run.sh: no $source" >&2
        failed=$((failed + 1)); failed_names+=("$name"); continue
    fi
    # Built aside and renamed into place, so a run going on meanwhile keeps its binary.
    if ! "$CC" "${CFLAGS[@]}" -o "$binary.$$" "$source" Tests/C/harness.c "${LIBS[@]}" ||
       ! mv -f "$binary.$$" "$binary"; then
        rm -f "$binary.$$"
        echo "$name: does not compile"
        failed=$((failed + 1)); failed_names+=("$name"); continue
    fi
    limit=$TIMEOUT
    [ $valgrind = 1 ] && limit=$((TIMEOUT * 2))
    if [ $valgrind = 1 ]; then
        log=$OUT_DIR/$name.valgrind.log
        CF_TEST_SLOWDOWN=${CF_TEST_SLOWDOWN:-10} CF_THREAD_ITERATIONS=${CF_THREAD_ITERATIONS:-40} \
            timeout -k 10 "$limit" valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite \
            --show-leak-kinds=definite --error-exitcode=99 --suppressions="$SUPP" --log-file="$log" \
            "$binary"
        status=$?
        if [ $status = 99 ]; then
            echo "$name: valgrind found errors (see $log):"
            grep -E '^==[0-9]+== (Invalid|Conditional|Use of|Mismatched|Syscall|Source and|[0-9,]+ bytes in [0-9,]+ blocks are definitely)' "$log" | head -20
        fi
    else
        timeout -k 10 "$limit" "$binary"
        status=$?
    fi
    if [ $status = 0 ]; then
        passed=$((passed + 1))
    else
        [ $status = 124 ] && echo "$name: timed out after $limit s"
        [ $status -gt 128 ] && [ $status != 124 ] && echo "$name: killed by signal $((status - 128))"
        failed=$((failed + 1)); failed_names+=("$name")
    fi
done

[ $failed -gt 0 ] && echo "failed: ${failed_names[*]}"
echo "c-tests: $passed passed, $failed failed"
[ $failed = 0 ]
