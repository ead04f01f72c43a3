#!/bin/bash
# Runs the suites that start real processes and threads - the C tests (plain, and under
# valgrind but for thread_test), the Python suite, the shell suite - ROUNDS times while
# `stress-ng --cpu 2` keeps both cores busy, so that a test which passes only when the
# machine is fast fails here instead of on a newcomer's first `make test`. Prints one line per suite and round as it
# goes, then one line per suite with its failures, and ends with `N passed, M failed`
# (suite runs). Logs: .build/flake-check/SUITE.ROUND.log.
#
#   scripts/flake-check.sh [ROUNDS]     (make flake-check; FLAKE_ROUNDS=N, default 5)
#   FLAKE_SUITES="c python"             only those suites (c, c-valgrind, python, shell)
#   FLAKE_LOAD=0                        no stress-ng (to compare with an idle machine)
#   FLAKE_PARALLEL=1                    a round's suites run at the same time (more load still,
#                                       and a round takes about its longest suite)
#
# Needs the debug build (make build, make c-samples) and stress-ng (make flake-check
# installs it). Exit status 0 only when every run passed.
set -u
cd "$(dirname "$0")/.."

rounds=${1:-${FLAKE_ROUNDS:-5}}
case $rounds in ''|*[!0-9]*|0) echo "flake-check: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2 ;; esac
suites=(${FLAKE_SUITES:-c c-valgrind python shell})
python=${PYTHON:-python3}
build=.build/debug
logs=.build/flake-check
mkdir -p "$logs"

for need in "$build/libCatFacts.so.0" "$build/catfacts" "$build/catfacts-mock"; do
    [ -e "$need" ] || { echo "flake-check: $need is missing; run make build first" >&2; exit 2; }
done

# run_suite NAME: one run of a suite; its output goes to the log named by the caller.
run_suite() {
    case $1 in
        c) make --no-print-directory c-test ;;
        # Every program but thread_test, whose 8 threads take valgrind (which runs one thread
        # at a time) 4 to 9 minutes a round; the plain C suite runs it under the same load.
        c-valgrind) make --no-print-directory c-valgrind \
            C_VALGRIND_TESTS="$(cd Tests/C && ls ./*_test.c | sed 's|^\./||; s/\.c$//' | grep -vx thread_test | tr '\n' ' ')" ;;
        python) CATFACTS_MOCK=$build/catfacts-mock CATFACTS_LIBRARY=$PWD/$build/libCatFacts.so \
            "$python" -m pytest bindings/python/tests -q -p no:cacheprovider ;;
        shell) CATFACTS=$build/catfacts CATFACTS_MOCK=$build/catfacts-mock \
            "$python" -m pytest Tests/shell -q -p no:cacheprovider ;;
        *) echo "flake-check: unknown suite '$1' (c, c-valgrind, python, shell)"; return 2 ;;
    esac
}

load_pid=
if [ "${FLAKE_LOAD:-1}" != 0 ]; then
    command -v stress-ng >/dev/null || { echo "flake-check: stress-ng is not installed (make flake-check installs it)" >&2; exit 2; }
    # Two CPU hogs, one per core, for as long as the rounds take; killed on any exit.
    stress-ng --cpu 2 --timeout 0 --quiet &
    load_pid=$!
fi
cleanup() { [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null && wait "$load_pid" 2>/dev/null; }
trap cleanup EXIT
trap 'exit 130' INT TERM

declare -A failures
passed=0
failed=0
start=$SECONDS
# record SUITE ROUND STATUS SECONDS: counts one run and prints its line.
record() {
    local log=$logs/$1.$2.log
    if [ "$3" = 0 ]; then
        passed=$((passed + 1)); verdict=passed
    else
        failed=$((failed + 1)); verdict="FAILED (see $log)"
        failures[$1]="${failures[$1]:-} $2"
    fi
    echo "flake-check: round $2/$rounds $1: $verdict in $4 s"
}

for round in $(seq "$rounds"); do
    if [ "${FLAKE_PARALLEL:-0}" = 1 ]; then
        pids=()
        began=$SECONDS
        for suite in "${suites[@]}"; do
            ( s=$SECONDS; run_suite "$suite" >"$logs/$suite.$round.log" 2>&1; status=$?
              echo "$status $((SECONDS - s))" >"$logs/$suite.$round.status" ) &
            pids+=($!)
        done
        wait "${pids[@]}"
        for suite in "${suites[@]}"; do
            read -r status took <"$logs/$suite.$round.status"
            record "$suite" "$round" "$status" "$took"
        done
    else
        for suite in "${suites[@]}"; do
            began=$SECONDS
            run_suite "$suite" >"$logs/$suite.$round.log" 2>&1
            record "$suite" "$round" $? $((SECONDS - began))
        done
    fi
done

echo
echo "flake-check: $rounds rounds in $((SECONDS - start)) s, load: $([ -n "$load_pid" ] && echo 'stress-ng --cpu 2' || echo none)$([ "${FLAKE_PARALLEL:-0}" = 1 ] && echo ', suites in parallel')"
for suite in "${suites[@]}"; do
    if [ -n "${failures[$suite]:-}" ]; then
        echo "  $suite: failed in round(s)${failures[$suite]}"
    else
        echo "  $suite: no failure in $rounds rounds"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
