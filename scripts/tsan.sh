#!/bin/bash
# make tsan: the Swift tests and the C tests under ThreadSanitizer, against a library built
# with -sanitize=thread in .build-tsan. Fails on any TSan report.
#
# Every lock of the project is a `Locked` (pthread_mutex), which TSan follows; the standard
# library's `Mutex` (a futex) it cannot, so it is not used. Suppressions (Tests/tsan.supp)
# are for third-party code only, each with its reason.
set -u
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SCRATCH=.build-tsan
LOG_DIR=$SCRATCH/reports
mkdir -p "$LOG_DIR"
rm -f "$LOG_DIR"/*

echo "tsan: building with -sanitize=thread into $SCRATCH"
# A debug build: the library is linked without -z defs (Package.swift), as the sanitizer's
# runtime comes with the program that loads it.
"$SWIFT" build --build-tests --sanitize=thread --scratch-path "$SCRATCH" || exit 1
ln -sf libCatFacts.so "$SCRATCH/debug/libCatFacts.so.0"

export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 suppressions=$PWD/Tests/tsan.supp log_path=$PWD/$LOG_DIR/report"
status=0

echo "tsan: Swift tests"
# Serial, as in make test: some tests compare measured latency with the injected one.
"$SWIFT" test --skip-build --sanitize=thread --scratch-path "$SCRATCH" --no-parallel >"$LOG_DIR/swift-test.log" 2>&1 \
    || { echo "tsan: Swift tests failed (see $LOG_DIR/swift-test.log)"; tail -20 "$LOG_DIR/swift-test.log"; status=1; }
tail -1 "$LOG_DIR/swift-test.log"

echo "tsan: C tests"
# The mock is the ordinary build's: it is the peer, not what is under test.
CF_LIB_DIR=$SCRATCH/debug CATFACTS_MOCK=${CATFACTS_MOCK:-.build/debug/catfacts-mock} \
    CF_TEST_SLOWDOWN=${CF_TEST_SLOWDOWN:-5} Tests/C/run.sh --tsan || status=1

reports=$(cat "$LOG_DIR"/report.* 2>/dev/null | grep -c "WARNING: ThreadSanitizer")
echo "tsan: $reports reports"
if [ "$reports" -gt 0 ]; then
    grep -h -A12 "WARNING: ThreadSanitizer" "$LOG_DIR"/report.* | head -80
    echo "tsan: all reports in $LOG_DIR"
    status=1
fi
exit $status
