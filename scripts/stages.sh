#!/bin/bash
# Runs `make STAGE` for each stage named, timing each. The --first stages (the dependencies
# and the build) run first, in order: if one fails, nothing else runs. After them, lanes run
# side by side:
#   - the foreground stages, one after the other, their output on the terminal as they run;
#   - each --background lane's stages, one after the other, each into .build/stages/STAGE.log,
#     printed whole once the foreground lane is done (the option may be given more than once).
# The foreground suites (tests against the mock) mostly wait on the network and leave the CPU
# idle, so the background lanes' builds (release, sanitizers) take it up: the whole run takes
# about the CPU it needs, not the sum of every stage's wall time. The suites must pass on a
# loaded machine anyway (make flake-check holds them to it).
#
# A failed stage does not stop the ones after it in its lane (a red C suite should not hide a
# red Python suite). The run ends with a table of the stages, their lane, time and result, and
# the line `stages: N passed, M failed`; the exit status is non-zero when any stage failed.
#
#   scripts/stages.sh --first "STAGE ..." [--background "STAGE ..."]... STAGE...     (make test)
set -u
cd "$(dirname "$0")/.."

first=()
lanes=()
while [ $# -gt 0 ]; do
    case $1 in
        --first) read -r -a first <<<"${2:-}"; shift 2 ;;
        --background) lanes+=("${2:-}"); shift 2 ;;
        --lane) lane_mode=1; shift ;;
        *) break ;;
    esac
done

logs=.build/stages
mkdir -p "$logs"
results=$logs/results.tsv
[ "${lane_mode:-0}" = 1 ] || : >"$results"

# stage LANE NAME: runs make NAME, appends "name<TAB>lane<TAB>seconds<TAB>result" to the results.
stage() {
    local lane=$1 name=$2 began=$SECONDS result
    if make --no-print-directory "$name"; then result=ok; else result=FAILED; fi
    printf '%s\t%s\t%d\t%s\n' "$name" "$lane" $((SECONDS - began)) "$result" >>"$results"
    [ $result = ok ]
}

# --lane: the background lane itself (started below in a session of its own, so that
# stopping the run stops every build it started).
if [ "${lane_mode:-0}" = 1 ]; then
    for name in "$@"; do stage background "$name" >"$logs/$name.log" 2>&1; done
    exit 0
fi

start=$SECONDS
for name in "${first[@]}"; do
    echo "=== $name"
    if ! stage first "$name"; then
        echo "stages: $name failed; the stages after it need it, so none ran"
        echo "stages: 0 passed, 1 failed"
        exit 1
    fi
done

lane_pids=()
for lane in "${lanes[@]}"; do
    echo "=== background: $lane (logs in $logs/, shown at the end)"
    # shellcheck disable=SC2086 # a lane is a list of stage names
    setsid "$0" --lane $lane </dev/null &
    lane_pids+=($!)
done
cleanup() { for pid in "${lane_pids[@]}"; do kill -- -"$pid" 2>/dev/null; done; }
trap cleanup EXIT
trap 'exit 130' INT TERM

for name in "$@"; do
    echo "=== $name"
    stage foreground "$name"
done

if [ ${#lane_pids[@]} -gt 0 ]; then
    echo "=== waiting for the background lanes"
    wait "${lane_pids[@]}"
    lane_pids=()
    for lane in "${lanes[@]}"; do
        for name in $lane; do
            echo "=== $name (background)"
            cat "$logs/$name.log" 2>/dev/null
        done
    done
fi

echo
echo "=== time per stage"
passed=0
failed=0
while IFS=$'\t' read -r name lane seconds result; do
    printf '  %-20s %-10s %4d:%02d  %s\n' "$name" "$lane" $((seconds / 60)) $((seconds % 60)) "$result"
    if [ "$result" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done <"$results"
total=$((SECONDS - start))
printf '  %-20s %-10s %4d:%02d\n' total "" $((total / 60)) $((total % 60))
echo "stages: $passed passed, $failed failed"
[ $failed = 0 ]
