#!/usr/bin/env bash
# Runs the C samples against catfacts-mock and checks what they print.
#
#   bindings/c/test.sh            (make -C bindings/c test builds the samples first)
#   VALGRIND=1 bindings/c/test.sh every sample run under valgrind; memory errors and
#                                 definite leaks fail the run (valgrind also reads
#                                 VALGRIND_OPTS, e.g. --suppressions=Tests/C/valgrind.supp,
#                                 the toolchain leaks make test suppresses)
#
# Environment: SAMPLES_DIR (default bindings/c/build), CATFACTS_MOCK (default
# .build/debug/catfacts-mock). Needs curl and python3 (to read the mock's catalog directly).
# Last line: "c-samples: N passed, N failed"; the exit status is non-zero on any failure.
set -u

here=$(cd "$(dirname "$0")" && pwd)
checkout=$(cd "$here/../.." && pwd)
samples_dir=${SAMPLES_DIR:-$here/build}
mock=${CATFACTS_MOCK:-$checkout/.build/debug/catfacts-mock}
valgrind=${VALGRIND:-0}
[ "$valgrind" = 0 ] && run_timeout=120 || run_timeout=900
passed=0
failed=0

# setup_error MESSAGE: nothing could be checked; still ends with the summary line.
setup_error() {
    echo "test.sh: $1" >&2
    echo "c-samples: $passed passed, $((failed + 1)) failed"
    exit 1
}

for need in "$mock" "$samples_dir/page_breeds" "$samples_dir/breed_detail" "$samples_dir/metrics" \
    "$samples_dir/endpoint_times"; do
    if [ ! -x "$need" ]; then
        setup_error "$need is missing; build first (swift build; make -C bindings/c)"
    fi
done
tools=(curl python3 timeout)
[ "$valgrind" != 0 ] && tools+=(valgrind)
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || setup_error "$tool is not installed"
done

tmp=$(mktemp -d)
mock_pids=()
cleanup() {
    local pid
    for pid in "${mock_pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_mock NAME ARGS...: starts the mock, sets NAME to its base URL.
start_mock() {
    local var=$1 log="$tmp/mock.$1"
    shift
    "$mock" --port 0 "$@" >"$log.out" 2>"$log.err" &
    local pid=$!
    mock_pids+=("$pid")
    local line="" waited=0
    while [ $waited -lt 300 ]; do
        line=$(head -n 1 "$log.out" 2>/dev/null)
        case $line in
            "listening on "*) break ;;
        esac
        if ! kill -0 "$pid" 2>/dev/null; then
            setup_error "the mock exited: $(head -n 3 "$log.err")"
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    case $line in
        "listening on http://"*) printf -v "$var" '%s' "${line#listening on }" ;;
        *) setup_error "the mock said no \"listening on\" line within 30 s" ;;
    esac
}

pass() { passed=$((passed + 1)); echo "ok   - $1"; }
# fail WHAT DETAIL...: the check, then indented details (the run's output, what differed).
fail() {
    failed=$((failed + 1))
    echo "FAIL - $1"
    shift
    local line
    for line in "$@"; do printf '%s\n' "$line" | sed 's/^/       /'; done
}
# check WHAT CONDITION-EXIT-STATUS: pass or fail with the last run's output.
check() {
    if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "$(run_report)"; fi
}

# run SAMPLE ARGS...: runs build/SAMPLE; sets rc, out (stdout file), err (stderr file).
runs=0
run() {
    local sample=$1
    shift
    runs=$((runs + 1))
    out="$tmp/run$runs.out" err="$tmp/run$runs.err"
    last_command="$sample $*"
    local wrapper=()
    if [ "$valgrind" != 0 ]; then
        vg_log="$tmp/run$runs.valgrind"
        wrapper=(valgrind --leak-check=full --errors-for-leak-kinds=definite
                 --error-exitcode=99 --log-file="$vg_log")
    fi
    timeout "$run_timeout" "${wrapper[@]}" "$samples_dir/$sample" "$@" >"$out" 2>"$err"
    rc=$?
    if [ "$valgrind" != 0 ]; then
        if [ $rc = 99 ]; then
            local kept="$checkout/.build/c-samples-valgrind/run$runs.log"
            mkdir -p "${kept%/*}" && cp "$vg_log" "$kept"
            fail "valgrind: $last_command has memory errors or definite leaks" \
                "$(grep -E 'ERROR SUMMARY|definitely lost|Invalid|uninitialised' "$vg_log" | head -n 8)" \
                "(full log: $kept)"
        else
            pass "valgrind: $last_command is clean"
        fi
    fi
    if [ $rc = 124 ]; then
        echo "       ($last_command timed out after $run_timeout s)"
    fi
}
run_report() {
    printf '$ %s   -> exit %s\n' "$last_command" "$rc"
    [ -s "$out" ] && { echo "stdout:"; head -n 12 "$out"; }
    [ -s "$err" ] && { echo "stderr:"; head -n 6 "$err"; }
    true
}
one_line_stderr() { [ "$(wc -l <"$err")" -eq 1 ]; }
# exited N: the last run exited N. Under valgrind, 99 hides the sample's own status; that run
# has already failed its valgrind check, so the other checks judge its output alone.
exited() { [ "$rc" = "$1" ] || { [ "$valgrind" != 0 ] && [ "$rc" = 99 ]; }; }

# compare_rows FILE CATALOG_JSON SUMMARY: numbered rows 1..N whose names are the catalog's,
# in order, then SUMMARY as the last line. Prints what differs.
compare_rows() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
output_path, catalog_path, summary = sys.argv[1:4]
lines = open(output_path, encoding="utf-8").read().splitlines()
catalog = json.load(open(catalog_path, encoding="utf-8"))
if len(catalog["data"]) != catalog["total"]:
    sys.exit(f"the mock capped limit=1000: {len(catalog['data'])} of {catalog['total']} breeds")
expected = [b["breed"] for b in catalog["data"]]
row = re.compile(r"^ *(\d+)\. (.+?) \u2014 (.*)$")
rows = [m for m in map(row.match, lines) if m]
problems = []
if len(rows) != len(expected):
    problems.append(f"{len(rows)} numbered rows, the mock has {len(expected)} breeds")
for i, m in enumerate(rows):
    if int(m.group(1)) != i + 1:
        problems.append(f"row {i + 1} is numbered {m.group(1)}")
        break
names = [m.group(2) for m in rows]
for i, (got, want) in enumerate(zip(names, expected)):
    if got != want:
        problems.append(f"row {i + 1}: {got!r}, the mock's breed {i + 1} is {want!r}")
        break
if not lines or lines[-1] != summary:
    problems.append(f"last line {lines[-1] if lines else ''!r}, wanted {summary!r}")
if len(lines) != len(rows) + 1:
    problems.append(f"{len(lines) - len(rows)} lines that are not rows (wanted the summary only)")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
}

start_mock url
start_mock synthetic_url --breeds 250
echo "# mock: $url (bundled catalog), $synthetic_url (250 synthetic breeds)"
curl -sf "$url/breeds?limit=1000" >"$tmp/catalog.json" || setup_error "curl $url/breeds failed"
curl -sf "$synthetic_url/breeds?limit=1000" >"$tmp/synthetic.json" \
    || setup_error "curl $synthetic_url/breeds failed"

# page_breeds
run page_breeds --base-url "$url"
check "page_breeds exits 0 with nothing on stderr" "$(exited 0 && [ ! -s "$err" ]; echo $?)"
if diff=$(compare_rows "$out" "$tmp/catalog.json" "98 breeds in 4 pages (source: network)"); then
    pass "page_breeds lists the mock's 98 breeds in order, numbered, in 4 pages of 25"
else
    fail "page_breeds lists the mock's 98 breeds in order, numbered, in 4 pages of 25" "$diff" "$(run_report)"
fi
check "page_breeds starts with Abyssinian, then Aegean" \
    "$([ "$(sed -nE '1,2s/^ *[0-9]+\. (.*) — .*$/\1/p' "$out" | tr '\n' ,)" = Abyssinian,Aegean, ]; echo $?)"
check "page_breeds prints a full row as: number, name — country, origin, coat, pattern" \
    "$(grep -qx '  1\. Abyssinian — Ethiopia, Natural/Standard, Short, Ticked' "$out"; echo $?)"
check "page_breeds shows absent fields as n/a" \
    "$(grep -qE '^ *[0-9]+\. Ojos Azules — United States, n/a, n/a, n/a$' "$out"; echo $?)"

run page_breeds --base-url "$url" --limit 10
if diff=$(compare_rows "$out" "$tmp/catalog.json" "98 breeds in 10 pages (source: network)"); then
    pass "page_breeds --limit 10 lists the same 98 breeds in 10 pages"
else
    fail "page_breeds --limit 10 lists the same 98 breeds in 10 pages" "$diff" "$(run_report)"
fi

run page_breeds --base-url="$synthetic_url" --limit=100
if diff=$(compare_rows "$out" "$tmp/synthetic.json" "250 breeds in 3 pages (source: network)"); then
    pass "page_breeds lists 250 synthetic breeds in 3 pages, the last one partial"
else
    fail "page_breeds lists 250 synthetic breeds in 3 pages, the last one partial" "$diff" "$(run_report)"
fi

# breed_detail
run breed_detail --base-url "$url" abyssinian
printf 'Breed: Abyssinian\nCountry: Ethiopia\nOrigin: Natural/Standard\nCoat: Short\nPattern: Ticked\n' >"$tmp/abyssinian"
check "breed_detail abyssinian prints Breed, Country, Origin, Coat and Pattern" \
    "$(exited 0 && [ ! -s "$err" ] && cmp -s "$out" "$tmp/abyssinian"; echo $?)"

run breed_detail --base-url "$url" "  ABYSSINIAN "
check "breed_detail matches case-insensitively, ignoring surrounding blanks" \
    "$(exited 0 && cmp -s "$out" "$tmp/abyssinian"; echo $?)"

run breed_detail --base-url "$url" "Ojos Azules"
printf 'Breed: Ojos Azules\nCountry: United States\nOrigin: (not given)\nCoat: (not given)\nPattern: (not given)\n' >"$tmp/ojos"
check "breed_detail says (not given) for absent fields" \
    "$(exited 0 && cmp -s "$out" "$tmp/ojos"; echo $?)"

run breed_detail --base-url "$url" "No Such Cat"
check "breed_detail \"No Such Cat\" exits 1 with one line on stderr saying not found" \
    "$(exited 1 && [ ! -s "$out" ] && one_line_stderr && grep -qi 'not found' "$err" \
        && grep -q 'CF_ERR_NOT_FOUND' "$err"; echo $?)"
# The part from cf_last_error(): between the sample's "cannot find breed "...": " and " [status]".
library_message=$(sed -e 's/^breed_detail: cannot find breed "[^"]*": //' -e 's/ \[CF_[A-Z_]*:.*\]$//' "$err")
check "cf_last_error names the breed that was not found" \
    "$(printf '%s' "$library_message" | grep -q 'No Such Cat'; echo $?)"

# metrics
run metrics --base-url "$url"
check "metrics exits 0 with nothing on stderr" "$(exited 0 && [ ! -s "$err" ]; echo $?)"
for endpoint in /breeds /facts /fact; do
    check "metrics shows $endpoint with 1 request, 0 errors" \
        "$(awk -v e="$endpoint" '$1 == e && $2 == 1 && $3 == 0 { found = 1 } END { exit !found }' "$out"; echo $?)"
done
check "metrics shows exactly those three endpoints" \
    "$([ "$(grep -c '^/' "$out")" = 3 ]; echo $?)"
check "metrics shows device, OS, memory and online" \
    "$(grep -qE '^Device: +make .+, model .+, arch [^-].*, [0-9]+ CPUs?$' "$out" \
        && grep -qE '^OS: +.+, kernel .+$' "$out" \
        && grep -qE '^Memory: +resident [0-9.]+ MiB, peak [0-9.]+ MiB$' "$out" \
        && grep -qx 'Online:  yes' "$out"; echo $?)"

# endpoint_times: the times as structs (cf_metrics_endpoints), no JSON parser linked.
# check_times FILE ENDPOINT REQUESTS ERRORS MEASURED: ENDPOINT's row has those counts and, when
# MEASURED is 1, six times in order (min <= p50 <= p95 <= p99 <= max, avg within min..max);
# when 0, "—" in all six.
check_times() {
    python3 - "$@" <<'PY'
import sys
path, endpoint, requests, errors, measured = sys.argv[1:6]
rows = [line.split() for line in open(path, encoding="utf-8") if line.split()[:1] == [endpoint]]
if len(rows) != 1:
    sys.exit(f"{len(rows)} rows for {endpoint}")
row = rows[0]
if len(row) != 9 or row[1:3] != [requests, errors]:
    sys.exit(f"row {row}: wanted {requests} requests, {errors} errors and 6 times")
if measured == "0":
    sys.exit(0 if row[3:] == ["\u2014"] * 6 else f"times {row[3:]}: wanted \u2014 for each")
try:
    avg, low, p50, p95, p99, high = map(float, row[3:])
except ValueError:
    sys.exit(f"times {row[3:]} are not all numbers")
# The percentiles come from a histogram to 3 significant digits, printed to 0.1 ms.
slack = high * 0.001 + 0.05
if not (0 <= low <= p50 + slack and p50 <= p95 <= p99 <= high + slack and low <= avg <= high):
    sys.exit(f"times out of order: avg {avg}, min {low}, p50 {p50}, p95 {p95}, p99 {p99}, max {high}")
PY
}
# check_row WHAT ENDPOINT REQUESTS ERRORS MEASURED: check_times on the last run's output.
check_row() {
    local what=$1 diff
    shift
    if diff=$(check_times "$out" "$@"); then pass "$what"; else fail "$what" "$diff" "$(run_report)"; fi
}

run endpoint_times --base-url "$url"
check "endpoint_times exits 0 with nothing on stderr" "$(exited 0 && [ ! -s "$err" ]; echo $?)"
for endpoint in /breeds /facts /fact; do
    check_row "endpoint_times shows $endpoint with 3 requests, 0 errors and its times in order" "$endpoint" 3 0 1
done
check "endpoint_times shows exactly those three endpoints, sorted by path" \
    "$([ "$(grep '^/' "$out" | cut -d' ' -f1 | tr '\n' ,)" = /breeds,/fact,/facts, ]; echo $?)"
check "endpoint_times links no JSON parser" \
    "$(readelf -d "$samples_dir/endpoint_times" | grep NEEDED | grep -q jansson; [ $? = 1 ]; echo $?)"

# A closed port: every sample fails with a network error, on one line.
closed_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
closed_url="http://127.0.0.1:$closed_port"
for args in "page_breeds" "breed_detail abyssinian" "metrics"; do
    # shellcheck disable=SC2086  # args is a sample name and its words
    run $args --base-url "$closed_url"
    check "${args%% *} on a closed port exits 1 with one CF_ERR_NETWORK line on stderr" \
        "$(exited 1 && one_line_stderr && grep -q '\[CF_ERR_NETWORK:' "$err"; echo $?)"
    check "${args%% *} on a closed port: cf_last_error names the address" \
        "$(grep -q "127.0.0.1:$closed_port" "$err"; echo $?)"
done

# endpoint_times on a closed port: each call fails (one line each), and the table still shows
# the three endpoints, every request an error, "—" for every time, never 0.0.
run endpoint_times --base-url "$closed_url" --rounds 1
check "endpoint_times on a closed port exits 1 with one CF_ERR_NETWORK line per call on stderr" \
    "$(exited 1 && [ "$(grep -c '\[CF_ERR_NETWORK:' "$err")" = 3 ] && [ "$(wc -l <"$err")" = 3 ]; echo $?)"
for endpoint in /breeds /facts /fact; do
    # Each call is sent 3 times (the default 2 retries), each without a response.
    check_row "endpoint_times on a closed port shows $endpoint with 3 failed requests and — for its times" \
        "$endpoint" 3 3 0
done

# Arguments
for sample in page_breeds breed_detail metrics endpoint_times; do
    run "$sample" --help
    check "$sample --help prints the usage and exits 0" \
        "$(exited 0 && head -n 1 "$out" | grep -q "^usage: $sample"; echo $?)"
    run "$sample" --no-such-option
    check "$sample --no-such-option exits 2 with the usage on stderr" \
        "$(exited 2 && grep -q "^usage: $sample" "$err"; echo $?)"
done
run breed_detail --base-url "$url"
check "breed_detail without NAME exits 2" "$(exited 2; echo $?)"
run page_breeds --limit 0
check "page_breeds --limit 0 exits 2" "$(exited 2; echo $?)"
for rounds in 0 99999999999999999999; do
    run endpoint_times --rounds "$rounds"
    check "endpoint_times --rounds $rounds exits 2 naming the value" \
        "$(exited 2 && grep -q -- "--rounds wants a whole number from 1 to 1000, not $rounds" "$err"; echo $?)"
done

echo "c-samples: $passed passed, $failed failed"
[ "$failed" = 0 ]
