"""Script mode: how commands are read, the exit status, the output of what cannot be
golden (metrics, random facts), and the error lines for a dead server, a 429 and a
malformed body."""
import json
import re
import shutil
import subprocess
import time

import pytest

from conftest import run_shell, stable_env


# --- reading commands -------------------------------------------------------------------

def test_commands_from_c_a_script_file_and_stdin_print_the_same(tmp_path):
    script = "breeds 2\nshow 12  # a comment\n# a whole comment\nsearch am; show 1\n"
    path = tmp_path / "tour.cf"
    path.write_text(script)
    from_c = run_shell("--mock", "-c", script)
    from_file = run_shell("--mock", str(path))
    from_stdin = run_shell("--mock", stdin=script)
    from_dash = run_shell("--mock", "-", stdin=script)
    assert from_c.status == 0 and "Bambino" in from_c.stdout and "American Bobtail" in from_c.stdout
    assert from_file.stdout == from_c.stdout
    assert from_stdin.stdout == from_c.stdout
    assert from_dash.stdout == from_c.stdout


def test_quoted_names_keep_their_spaces_and_semicolons_split_commands():
    run = run_shell("--mock", "-c", "show \"Turkish Van\"; show 'norwegian forest cat'")
    assert run.status == 0
    assert "Turkish Van" in run.stdout and "Norwegian Forest Cat" in run.stdout


def test_quit_stops_a_script():
    run = run_shell("--mock", "-c", "breeds; quit; breeds 2")
    assert run.status == 0
    assert "page 1 of" in run.stdout and "page 2 of" not in run.stdout


def test_a_missing_script_file_is_one_clear_line_and_status_2(tmp_path):
    run = run_shell(str(tmp_path / "nope.cf"))
    assert run.status == 2
    assert run.error_lines == [f"catfacts: {tmp_path / 'nope.cf'}: cannot read the script: No such file or directory; check the path"]


# --- exit status ------------------------------------------------------------------------

def test_exit_status_is_zero_when_every_command_succeeds():
    assert run_shell("--mock", "-c", "breeds; next; show 11; facts; metrics; source; help").status == 0


def test_exit_status_is_one_when_a_command_fails_and_the_rest_still_run():
    run = run_shell("--mock", "-c", "breeds; show Nope; breeds 2")
    assert run.status == 1
    assert "page 1 of" in run.stdout and "page 2 of" in run.stdout
    assert run.error_lines == ["catfacts: show Nope: not found: no breed is named 'Nope'; "
                               "search PREFIX finds breeds by name, breeds lists them"]


def test_an_unknown_command_suggests_the_nearest():
    run = run_shell("--mock", "-c", "breds")
    assert run.status == 1
    assert run.error_lines == ["catfacts: breds: unknown command; did you mean 'breeds'? (help lists the commands)"]


def test_bad_flags_are_refused_before_anything_runs():
    # Usage errors exit 2, as --help and catfacts(1) say (ArgumentParser's own would be 64).
    both = run_shell("--mock", "--base-url", "http://x", "-c", "breeds")
    assert both.status == 2
    assert both.error_lines[0] == "Error: --mock and --base-url exclude each other."
    assert run_shell("--cache", "/tmp/x", "--no-cache", "-c", "source").status == 2
    unknown = run_shell("--bogus")
    assert unknown.status == 2 and unknown.error_lines[0] == "Error: Unknown option '--bogus'"
    run = run_shell("--base-url", "ftp://example.com", "-c", "breeds")
    assert run.status == 2
    assert run.error_lines[0] == ("catfacts: invalid argument: --base-url 'ftp://example.com': uses scheme 'ftp'; "
                                  "only http and https are accepted; e.g. --base-url https://catfact.ninja")


# --- output that is not golden ----------------------------------------------------------

def test_json_flag_prints_the_library_json():
    run = run_shell("--mock", "--json", "-c", "breeds 3")
    page = json.loads(run.stdout)
    assert page["page"] == 3 and page["per_page"] == 10 and page["total"] == 98
    assert page["items"][0] == {"breed": "Burmilla", "coat": "Short/Long", "country": "United Kingdom",
                                "origin": "Crossbreed", "pattern": "Shaded"}
    assert page["source"] == "network"


def test_a_page_seen_before_is_labelled_when_it_comes_from_the_cache():
    run = run_shell("--mock", "-c", "breeds; next; prev")
    titles = [line for line in run.stdout.splitlines() if line.startswith("Breeds —")]
    assert titles == ["Breeds — page 1 of 10 (98 in all)", "Breeds — page 2 of 10 (98 in all)",
                      "Breeds — page 1 of 10 (98 in all) (cache)"]


def test_fact_prints_one_fact_in_every_output_mode():
    table = run_shell("--mock", "-c", "fact 80")
    assert table.status == 0 and 0 < len(table.stdout.strip()) <= 80
    fact = json.loads(run_shell("--mock", "--json", "-c", "fact 80").stdout)
    assert set(fact) == {"fact", "length"} and fact["length"] <= 80
    plain = run_shell("--mock", "-c", "set output plain; fact").stdout
    assert len(plain.splitlines()) == 1


def test_metrics_table_names_each_endpoint_the_device_the_os_and_the_memory():
    # Pages 1 and 3: not in order, so nothing is read ahead and the count is of the pages asked.
    run = run_shell("--mock", "-c", "breeds; breeds 3; facts; metrics")
    lines = run.stdout.splitlines()
    header = next(line for line in lines if line.startswith("Endpoint"))
    assert header.split() == ["Endpoint", "Requests", "Errors", "Retries", "Avg", "ms", "p50", "p95", "p99", "Last"]
    breeds = next(line for line in lines if line.startswith("/breeds"))
    assert breeds.split()[1:4] == ["2", "0", "0"]
    assert all(re.fullmatch(r"\d+\.\d", cell) for cell in breeds.split()[4:])
    assert next(line for line in lines if line.startswith("/facts")).split()[1:3] == ["1", "0"]
    for name in ("Device", "OS", "Memory", "Online"):
        assert any(line.startswith(name + " ") for line in lines), name
    assert re.search(r"^Memory  \d+\.\d MiB in use, peak \d+\.\d MiB$", run.stdout, re.M)
    assert "Online  yes" in lines


def test_metrics_prom_passes_promtool_check_metrics():
    """Prometheus' own linter: base units, _total counters, a histogram, HELP and TYPE."""
    promtool = shutil.which("promtool")
    assert promtool, "promtool is missing: make test-deps installs Debian's prometheus package"
    out = run_shell("--mock", "-c", "set output plain; breeds; fact; show Abyssinian; metrics --prom").stdout
    prom = out[out.index("# HELP"):]
    assert 'catfacts_request_duration_seconds_bucket{endpoint="/breeds",le="+Inf"} ' in prom, prom
    checked = subprocess.run([promtool, "check", "metrics"], input=prom, capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout == "" and checked.stderr == "", checked.stdout + checked.stderr


def test_metrics_json_prom_and_plain_are_the_raw_forms():
    snapshot = json.loads(run_shell("--mock", "-c", "breeds; metrics --json").stdout.splitlines()[-1])
    assert snapshot["endpoints"][0]["endpoint"] == "/breeds" and snapshot["endpoints"][0]["requests"] == 1
    assert {"device", "os", "memory", "online", "app"} <= set(snapshot)
    same = json.loads(run_shell("--mock", "--json", "-c", "metrics").stdout)
    assert same["endpoints"] == []
    prom = run_shell("--mock", "-c", "set output plain; breeds; metrics --prom").stdout
    assert re.search(r'^\w+\{endpoint="/breeds"[^}]*\} \d', prom, re.M), prom
    plain = run_shell("--mock", "-c", "set output plain; breeds; metrics").stdout.splitlines()[10:]
    assert plain[0].split("\t")[:4] == ["/breeds", "1", "0", "0"]
    assert [line.split("\t")[0] for line in plain[1:]] == ["device", "os", "memory", "online"]


def test_metrics_watch_needs_a_terminal():
    run = run_shell("--mock", "-c", "metrics --watch")
    assert run.status == 1
    assert run.error_lines == ["catfacts: metrics --watch: --watch needs a terminal; "
                               "metrics prints the table once, metrics --json the JSON"]


def test_the_cache_file_answers_a_later_session_when_the_server_is_gone(tmp_path, mock_server):
    path = tmp_path / "cache.sqlite"
    mock = mock_server()
    first = run_shell("--base-url", mock.url, "--cache", str(path), "-c", "breeds 2; source")
    assert first.status == 0 and path.exists()
    assert f"Cache     {path} (last written" in first.stdout
    mock.stop()
    later = run_shell("--base-url", mock.url, "--cache", str(path), "--no-fallback", "-c", "breeds 2")
    assert later.status == 0
    assert "Breeds — page 2 of 10 (98 in all) (cache)" in later.stdout
    assert "Bombay" in later.stdout


def test_no_cache_and_mock_say_where_pages_are_kept():
    assert "Cache     off (--no-cache)" in run_shell("--mock", "--no-cache", "-c", "source").stdout
    assert "Cache     in memory, for this session (--mock)" in run_shell("--mock", "-c", "source").stdout
    no_cache = run_shell("--mock", "--no-cache", "-c", "breeds; next; prev").stdout
    assert "(cache)" not in no_cache and no_cache.count("Breeds —") == 3


# --- a server that cannot be reached ------------------------------------------------------

def test_a_dead_server_is_said_once_and_the_bundled_catalog_answers_labelled():
    run = run_shell("--base-url", "http://127.0.0.1:1", "-c", "breeds; breeds 2; fact; source")
    # 3: every command succeeded, but from the bundled catalog, not the server.
    assert run.status == 3
    assert run.error_lines == ["catfacts: cannot reach http://127.0.0.1:1 (network error: connection refused "
                               "(is the server running?)); showing the bundled offline catalog"]
    assert "Breeds — page 1 of 10 (98 in all) (offline catalog)" in run.stdout
    assert "Breeds — page 2 of 10 (98 in all) (offline catalog)" in run.stdout
    assert "State     offline: the server cannot be reached; answers come from the bundled catalog" in run.stdout
    assert "Last      the bundled offline catalog" in run.stdout


def test_an_unknown_host_falls_back_the_same_way():
    run = run_shell("--base-url", "http://catfacts.invalid", "-c", "breeds")
    assert run.status == 3
    assert len(run.error_lines) == 1
    assert run.error_lines[0].startswith("catfacts: cannot reach http://catfacts.invalid (network error: ")
    assert run.error_lines[0].endswith("); showing the bundled offline catalog")
    assert "(offline catalog)" in run.stdout


def test_without_fallback_a_dead_server_is_an_error_line_per_command():
    run = run_shell("--base-url", "http://127.0.0.1:1", "--no-fallback", "-c", "breeds; show abyssinian")
    assert run.status == 1
    assert run.error_lines == [
        "catfacts: breeds: network error for http://127.0.0.1:1/breeds?page=1&limit=10: connection refused "
        "(is the server running?); check the address and your connection",
        "catfacts: show abyssinian: network error for http://127.0.0.1:1/breeds?page=1&limit=1000: connection refused "
        "(is the server running?); check the address and your connection",
    ]
    assert run.stdout == ""


def test_offline_sends_nothing_and_labels_everything():
    run = run_shell("--offline", "-c", "breeds; show 3; source; metrics")
    assert run.status == 0 and run.error_lines == []
    assert "Breeds — page 1 of 10 (98 in all) (offline catalog)" in run.stdout
    assert "Breed    American Bobtail" in run.stdout
    assert "State     offline (--offline): nothing is sent; answers come from the bundled catalog" in run.stdout
    assert "Online  no (--offline: nothing is sent)" in run.stdout


# --- a server that answers badly ----------------------------------------------------------

def test_a_429_is_one_line_with_the_retry_after(mock_server):
    mock = mock_server("--fail-rate", "1", "--faults", "429")
    run = run_shell("--base-url", mock.url, "-c", "breeds; metrics")
    assert run.status == 1
    assert run.error_lines == [f"catfacts: breeds: rate limited (HTTP 429) by {mock.url}/breeds?page=1&limit=10; retry after 1 s"]
    # One retry, after the server's Retry-After.
    assert next(line for line in run.stdout.splitlines() if line.startswith("/breeds")).split()[1:4] == ["2", "2", "1"]


def test_a_malformed_body_is_one_line_saying_what_was_wrong(mock_server):
    mock = mock_server("--fail-rate", "1", "--faults", "malformed")
    run = run_shell("--base-url", mock.url, "-c", "breeds; group coat")
    assert run.status == 1
    assert len(run.error_lines) == 2
    assert re.fullmatch(
        rf"catfacts: breeds: could not decode the response from {re.escape(mock.url)}/breeds\?page=1&limit=10: "
        r"the body is not valid JSON \(\d+ bytes: expected a value at byte 0\); the server does not answer like the Cat Facts API; check --base-url",
        run.error_lines[0]), run.error_lines[0]
    assert run.error_lines[1].startswith("catfacts: group coat: could not decode the response")


def test_a_server_error_says_to_try_later(mock_server):
    mock = mock_server("--fail-rate", "1", "--faults", "500")
    run = run_shell("--base-url", mock.url, "-c", "facts")
    assert run.status == 1
    assert run.error_lines == [f"catfacts: facts: HTTP 500 from {mock.url}/facts?page=1&limit=10: Server Error; "
                               "the server failed; try again later"]


# --- the fault matrix, with a page already cached -----------------------------------------

FAULTS = [
    # (fault, what the shell shows): "cache" is the stale page, labelled; "decode" an error line.
    ("500", "cache"), ("429", "cache"), ("reset", "cache"), ("malformed", "decode"), ("truncated", "decode"),
    ("slow", "live"),  # the body takes 2 s: within the shell's 30 s timeout, so it simply arrives
    ("dead", "cache"),
]


@pytest.mark.parametrize("fault,shown", FAULTS, ids=[fault for fault, _ in FAULTS])
def test_fault_matrix_with_a_cached_page(tmp_path, mock_server, fault, shown):
    path = tmp_path / "cache.sqlite"
    good = mock_server()
    url = good.url
    assert run_shell("--base-url", url, "--cache", str(path), "-c", "breeds").status == 0
    good.stop()
    # The same server (its address is the cache's key), now faulty or gone.
    if fault != "dead":
        assert mock_server("--port", url.rsplit(":", 1)[1], "--fail-rate", "1", "--faults", fault).url == url
    started = time.monotonic()
    run = run_shell("--base-url", url, "--cache", str(path), "--cache-ttl", "0", "--no-fallback", "-c", "breeds")
    # Sooner than the shell's 30 s timeout: the fault was answered, not waited out.
    assert time.monotonic() - started < 30
    title = "Breeds — page 1 of 10 (98 in all)"
    if shown == "decode":
        assert run.status == 1
        assert len(run.error_lines) == 1 and "could not decode the response" in run.error_lines[0]
    else:
        assert run.status == 0, run.stderr
        assert (title + " (cache)" if shown == "cache" else title) in run.stdout.splitlines()
        assert " 1  Abyssinian" in run.stdout


def test_one_default_cache_file_serves_every_server(tmp_path):
    # Keys carry the server, so one file holds them all; files of the per-server era go.
    env = stable_env(XDG_CACHE_HOME=str(tmp_path))
    folder = tmp_path / "catfacts"
    folder.mkdir()
    for name in ("cache-127.0.0.1-1.sqlite", "cache-127.0.0.1-1.sqlite-wal", "cache-localhost-8106.sqlite"):
        (folder / name).write_bytes(b"old")
    other = run_shell("--base-url", "http://127.0.0.1:1", "-c", "set output plain; source", env=env)
    assert f"cache\t{folder}/cache.sqlite (" in other.stdout
    assert other.error_lines[0] == ("catfacts: cache: removed 2 per-server cache files of an earlier version "
                                    f"from {folder}; {folder}/cache.sqlite now serves every server")
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith("cache-")) == []
    real = run_shell("--offline", "-c", "set output plain; source", env=env)
    assert f"cache\t{folder}/cache.sqlite (" in real.stdout
    assert not any("removed" in line for line in real.error_lines)
