"""Exit status a script can trust: 0, 1 for a failed command, 2 for usage, 3 when an
answer came from the bundled catalog instead of the server; -bail; --timeout and
--retries."""
import json
import pytest

from conftest import run_shell

DEAD = "http://127.0.0.1:9"


def test_bail_stops_at_the_first_failure_with_status_1():
    for flag in ("-bail", "--bail"):
        run = run_shell("--mock", flag, "-c", "breeds; show Nope; breeds 2")
        assert run.status == 1
        assert "page 1 of" in run.stdout and "page 2 of" not in run.stdout
        assert len(run.error_lines) == 1


def test_bail_stops_a_script_read_from_stdin_too():
    run = run_shell("--mock", "-bail", stdin="breeds\nbogus\nbreeds 2\n")
    assert run.status == 1 and "page 2 of" not in run.stdout


def test_without_bail_the_script_goes_on_and_still_exits_1():
    run = run_shell("--mock", "-c", "breeds; show Nope; breeds 2")
    assert run.status == 1 and "page 2 of" in run.stdout


def test_answers_from_the_bundled_catalog_exit_3_not_0():
    run = run_shell("--base-url", DEAD, "--retries", "0", "-c", "breeds; show abyssinian")
    assert run.status == 3, run.stderr
    assert "(offline catalog)" in run.stdout


def test_offline_by_request_exits_0_and_no_fallback_exits_1():
    assert run_shell("--offline", "-c", "breeds; show abyssinian").status == 0
    run = run_shell("--base-url", DEAD, "--retries", "0", "--no-fallback", "-c", "breeds")
    assert run.status == 1
    assert run.error_lines[0].startswith("catfacts: breeds: network error for http://127.0.0.1:9/breeds")


def test_a_failure_outranks_the_catalog():
    assert run_shell("--base-url", DEAD, "--retries", "0", "-c", "breeds; bogus").status == 1


@pytest.mark.parametrize("args, message", [
    (["--timeout", "0"], "Error: --timeout 0: must be more than 0 and at most 86400 seconds."),
    (["--timeout", "86400.5"], "Error: --timeout 86400.5: must be more than 0 and at most 86400 seconds."),
    (["--timeout", "soon"], "Error: The value 'soon' is invalid for '--timeout <SECONDS>'"),
    (["--retries", "101"], "Error: --retries 101: must be in 0..100."),
    (["--retries", "-1"], "Error: --retries -1: must be in 0..100."),
    (["--timeout", "0.0005"], "Error: --timeout 0.0005: must be more than 0 and at most 86400 seconds."),
    (["--timeout", "1.0015"], "Error: --timeout 1.0015: must be more than 0 and at most 86400 seconds, in steps of 0.001 seconds."),
    (["--timeout", "-2"], "Error: --timeout -2: must be more than 0 and at most 86400 seconds."),
    (["--max-connections", "0"], "Error: --max-connections 0: must be in 1..256."),
    (["--retries", "x"], "Error: The value 'x' is invalid for '--retries <N>'"),
    (["--cache-ttl", "-1"], "Error: --cache-ttl -1: must be in 0..31536000 seconds."),
    (["--cache-ttl=-1"], "Error: --cache-ttl -1: must be in 0..31536000 seconds."),
    (["--cache-ttl", "31536001"], "Error: --cache-ttl 31536001: must be in 0..31536000 seconds."),
    (["-o"], "Error: Missing value for '-o <FILE>'"),
    (["-c"], "Error: Missing value for '-c <COMMANDS>'"),
    (["--json", "--csv"], "Error: --json and --csv exclude each other."),
    (["--offline", "--mock"], "Error: --mock and --offline exclude each other."),
])
def test_every_usage_error_exits_2(args, message):
    run = run_shell(*args)
    assert run.status == 2, (args, run.stderr)
    if message:
        assert run.error_lines[0] == message, run.error_lines


def test_help_and_the_manual_say_what_each_status_means():
    help_text = run_shell("--help").stdout
    assert "Exit status: 0 every command succeeded; 1 a command failed; 2 a usage error" in " ".join(help_text.split())
    assert "3 every command succeeded but an answer came from the bundled offline catalog" in " ".join(help_text.split())
    page = run_shell("--manual-page").stdout
    exit_section = page.split(".SH EXIT STATUS")[1].split(".SH")[0]
    assert [line for line in exit_section.splitlines() if line.startswith(".B ")] == [".B 0", ".B 1", ".B 2", ".B 3", ".B 130"]
    for text in ("JSON Lines", "RFC 4180", "\\-bail", "\\-\\-timeout", "\\-\\-retries", ".output [FILE]", "\\-\\-page N",
                 "shown escaped"):
        assert text in page, text


def test_timeout_bounds_the_whole_call(mock_server):
    mock = mock_server("--latency-ms", "4000")
    run = run_shell("--base-url", mock.url, "--timeout", "0.5", "--no-fallback", "-c", "breeds")
    assert run.status == 1
    # In the shell's words: its --timeout, not the library's deadline_ms.
    assert run.error_lines == [f"catfacts: breeds: the call's deadline of 500 ms passed after 1 attempt to {mock.url}"
                               "/breeds?page=1&limit=10: the last attempt had no answer yet; raise --timeout to wait longer"]


@pytest.mark.parametrize("retries", [0, 3])
def test_retries_is_how_many_times_a_failed_request_is_sent_again(mock_server, retries):
    mock = mock_server("--fail-rate", "1", "--faults", "reset")
    run = run_shell("--base-url", mock.url, "--retries", str(retries), "--no-fallback", "-c", "breeds; metrics --json")
    assert run.status == 1
    metrics = json.loads(run.stdout.splitlines()[-1])
    [breeds] = [e for e in metrics["endpoints"] if e["endpoint"] == "/breeds"]
    assert breeds["retries"] == retries
