#!/bin/bash
# Runs the libFuzzer targets built by `make fuzz-build` (.build-fuzz/release/fuzz-TARGET),
# one after the other, each for SECONDS, from the seed corpus in Tests/Fuzz/corpus/TARGET.
# New inputs go to .build-fuzz/corpus/TARGET (kept between runs, never into the repo); a
# crash, a leak or an input slower than FUZZ_TIMEOUT seconds (default 5) is saved as
# .build-fuzz/artifacts/TARGET/crash-*, leak-* or timeout-* and fails the run. Prints one
# line per target: executions, rate, corpus size.
#
#   scripts/fuzz.sh SECONDS TARGET...          e.g. scripts/fuzz.sh 30 page-decoder options query
#   FUZZ_RUNS=10000000 scripts/fuzz.sh 0 query   a number of executions instead of a time
#   FUZZ_RUNS=10000000 scripts/fuzz.sh 900 query  whichever comes first
#   FUZZ_PARALLEL=1 scripts/fuzz.sh 30 ...     the targets at the same time (one thread each)
set -uo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${1:?usage: scripts/fuzz.sh SECONDS TARGET...}
shift
BUILD=${FUZZ_BUILD_DIR:-.build-fuzz}
# fuzz_one TARGET: runs one target; its summary lines go to stdout, its status is the result.
fuzz_one() {
    local target=$1 binary seeds corpus artifacts log limit status runs rate units dictionary
    binary=$BUILD/release/fuzz-$target
    seeds=Tests/Fuzz/corpus/$target
    corpus=$BUILD/corpus/$target
    artifacts=$BUILD/artifacts/$target
    log=$BUILD/logs/$target.log
    # The target's own dictionary of tokens (Tests/Fuzz/TARGET.dict), else JSON's.
    dictionary=Tests/Fuzz/$target.dict
    [ -f "$dictionary" ] || dictionary=Tests/Fuzz/json.dict
    [ -x "$binary" ] || { echo "fuzz: $binary is not built (make fuzz-build)"; return 2; }
    mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
    # SECONDS 0: no time limit (then FUZZ_RUNS bounds the run).
    limit=(-max_total_time="$SECONDS_EACH")
    [ -n "${FUZZ_RUNS:-}" ] && limit+=(-runs="$FUZZ_RUNS")
    # detect_leaks: a leak in one input is an error (LeakSanitizer after any input that
    # allocated more than it freed); the Swift runtime's metadata caches are reachable.
    # SWIFT_BACKTRACE: Swift's own crash handler would race ASan's report of the same trap.
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$binary" "${limit[@]}" \
        -timeout="${FUZZ_TIMEOUT:-5}" -dict="$dictionary" -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" "$seeds" >"$log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    units=$(find "$corpus" -type f | wc -l)
    if [ $status -eq 0 ]; then
        echo "fuzz $target: ${runs:-?} executions, ${rate:-?}/s, 0 crashes, 0 leaks; corpus $units inputs"
    else
        echo "fuzz $target: FAILED (exit $status) after ${runs:-?} executions; log $log:"
        grep -E -A12 '^==[0-9]+==ERROR|Fatal error|^SUMMARY|Test unit written|ALARM: working on the last Unit' "$log" | head -60
    fi
    [ $status -eq 0 ]
}

failed=0
mkdir -p "$BUILD/logs"
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
    # Each target on its own core (libFuzzer runs one thread): the summaries in order after.
    pids=()
    for target in "$@"; do fuzz_one "$target" >"$BUILD/logs/$target.summary" 2>&1 & pids+=($!); done
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" || failed=1
        cat "$BUILD/logs/${*:$((i + 1)):1}.summary"
    done
else
    for target in "$@"; do fuzz_one "$target" || failed=1; done
fi
exit $failed
