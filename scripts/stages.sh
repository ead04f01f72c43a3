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

# children_cpu: sets cpu_now to the CPU (user + system, in tenths of a second) this shell's
# finished children used. No subshell: a subshell's children are not this shell's.
children_cpu() {
    local file=$logs/.times.$BASHPID shell_times children part minutes seconds
    times >"$file"
    { read -r shell_times; read -r children; } <"$file"
    rm -f "$file"
    cpu_now=0
    for part in $children; do # "1m2.345s 0m0.678s"
        [[ $part =~ ^([0-9]+)m([0-9]+)\.([0-9]) ]] || continue
        minutes=${BASH_REMATCH[1]} seconds=${BASH_REMATCH[2]}
        cpu_now=$((cpu_now + (10#$minutes * 60 + 10#$seconds) * 10 + BASH_REMATCH[3]))
    done
}

# stage LANE NAME: runs make NAME, appends "name<TAB>lane<TAB>seconds<TAB>result<TAB>cpu tenths"
# to the results.
stage() {
    local lane=$1 name=$2 began=$SECONDS cpu_before result
    children_cpu
    cpu_before=$cpu_now
    if make --no-print-directory "$name"; then result=ok; else result=FAILED; fi
    children_cpu
    printf '%s\t%s\t%d\t%s\t%d\n' "$name" "$lane" $((SECONDS - began)) "$result" \
        $((cpu_now - cpu_before)) >>"$results"
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

# In a subshell of its own: `times` in the shell that started the lanes also counts each lane's
# CPU once the lane has ended (it is that shell's child), so the foreground stage running then
# was credited with it (c-valgrind-quick with 808 CPU seconds in 2:38 of wall time).
(
    for name in "$@"; do
        echo "=== $name"
        stage foreground "$name"
    done
)

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
cpu_total=0
printf '  %-20s %-10s %7s %9s\n' stage lane wall "CPU (s)"
while IFS=$'\t' read -r name lane seconds result cpu; do
    cpu=${cpu:-0}
    printf '  %-20s %-10s %4d:%02d %7d.%d  %s\n' "$name" "$lane" $((seconds / 60)) $((seconds % 60)) \
        $((cpu / 10)) $((cpu % 10)) "$result"
    cpu_total=$((cpu_total + cpu))
    if [ "$result" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done <"$results"
total=$((SECONDS - start))
cores=$(nproc 2>/dev/null || echo 1)
floor=$((cpu_total / 10 / cores))
printf '  %-20s %-10s %4d:%02d %7d.%d\n' total "" $((total / 60)) $((total % 60)) $((cpu_total / 10)) $((cpu_total % 10))
# The least wall time the run could take on this machine: its CPU spread over every core.
printf '  the CPU floor on %d cores: %d:%02d\n' "$cores" $((floor / 60)) $((floor % 60))
echo "stages: $passed passed, $failed failed"
[ $failed = 0 ]
