# Sourced by the install checks (dist-check.sh, distro-check.sh, distro-check-wheel.sh): one
# way to run a named check, count it, and show the end of what it printed when it fails.
#
#   . scripts/checks.sh
#   check "NAME" COMMAND...      # prints "  ok   NAME" or "  FAIL NAME" and the output
#   echo "$passed passed, $failed failed"
passed=0 failed=0
check() {
    local name=$1; shift
    if output=$("$@" 2>&1); then
        passed=$((passed + 1)); echo "  ok   $name"
    else
        failed=$((failed + 1)); echo "  FAIL $name"; printf '%s\n' "$output" | tail -40 | sed 's/^/       /'
    fi
}
