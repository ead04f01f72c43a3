"""Output that scripts can use: JSON Lines (every line on stdout and stderr parses), CSV
(RFC 4180), -o FILE and .output FILE."""
import csv
import io
import json
import subprocess

from conftest import HANG_S, SHELL, run_shell, stable_env


def json_lines(text):
    """Every non-empty line of `text` as JSON (fails on the first line that is not)."""
    return [json.loads(line) for line in text.splitlines() if line]


# --- JSON Lines -------------------------------------------------------------------------

def test_json_every_line_on_stdout_and_stderr_is_one_json_value():
    run = run_shell("--mock", "--json", "-c",
                    "set; set page-size 3; breeds; show Nope; bogus; breeds x; help; help show; source; group origin")
    assert run.status == 1
    out = json_lines(run.stdout)
    errors = json_lines(run.stderr)
    assert out[0] == {"output": "json", "page_size": 10}
    assert [b["breed"] for b in out[1]["items"]] == ["Abyssinian", "Aegean", "American Bobtail"]
    assert errors == [
        {"command": "show Nope", "error": "not found: no breed is named 'Nope'",
         "advice": "search PREFIX finds breeds by name, breeds lists them"},
        {"command": "bogus", "error": "unknown command", "advice": "help lists the commands"},
        {"command": "breeds x", "error": "'x' is not a page number", "advice": "usage: breeds [PAGE|--page N]"},
    ]
    helps = [line for line in out if "synopsis" in line]
    assert helps[0] == {"name": "breeds", "aliases": [], "synopsis": "breeds [PAGE|--page N]", "summary": "a page of breeds, numbered"}
    assert helps[-1]["name"] == "show" and helps[-1]["details"].startswith("Shows every field of a breed;")
    assert "\n" not in helps[-1]["details"].split("\n\n")[0]
    assert out[-1]["page"] == 1 and out[-1]["last_page"] == 31 and out[-1]["total"] == 92
    assert sum(len(group["items"]) for group in out[-1]["groups"]) == 3


def test_json_the_offline_notice_is_a_json_warning_and_the_page_says_its_source():
    run = run_shell("--base-url", "http://127.0.0.1:9", "--retries", "0", "--json", "-c", "breeds")
    assert run.status == 3, run.stderr
    [warning] = json_lines(run.stderr)
    assert list(warning) == ["warning"]
    assert warning["warning"].startswith("cannot reach http://127.0.0.1:9 (")
    assert warning["warning"].endswith("); showing the bundled offline catalog")
    [page] = json_lines(run.stdout)
    assert page["source"] == "offline-catalog"


def test_json_usage_errors_of_the_shell_itself_are_json_too(tmp_path):
    run = run_shell("--json", str(tmp_path / "nope.cf"))
    assert run.status == 2
    assert json_lines(run.stderr) == [
        {"error": f"{tmp_path / 'nope.cf'}: cannot read the script: No such file or directory; check the path"}]


# --- CSV --------------------------------------------------------------------------------

def records(text):
    return list(csv.reader(io.StringIO(text, newline="")))


def raw_stdout(*args):
    """stdout as the bytes were written, decoded without turning CRLF into LF."""
    done = subprocess.run([SHELL, *args], capture_output=True, env=stable_env(), timeout=HANG_S)
    return done.stdout.decode("utf-8")


def test_csv_has_a_header_row_crlf_record_ends_and_the_same_data_as_json():
    stdout = raw_stdout("--mock", "--csv", "-c", "breeds 2")
    assert stdout.endswith("\r\n") and "\n" not in stdout.replace("\r\n", "")
    rows = records(stdout)
    assert rows[0] == ["number", "breed", "country", "origin", "coat", "pattern"]
    assert [row[0] for row in rows[1:]] == [str(n) for n in range(11, 21)]
    page = json.loads(run_shell("--mock", "--json", "-c", "breeds 2").stdout)
    assert [row[1] for row in rows[1:]] == [b["breed"] for b in page["items"]]
    assert [row[2] for row in rows[1:]] == [b.get("country", "") for b in page["items"]]


def test_csv_quotes_fields_with_commas_and_quotes():
    stdout = raw_stdout("--mock", "--csv", "-c", "set page-size 50; facts")
    rows = records(stdout)
    assert rows[0] == ["number", "fact"]
    assert all(len(row) == 2 for row in rows)
    facts = json.loads(run_shell("--mock", "--json", "-c", "set page-size 50; facts").stdout)["items"]
    assert [row[1] for row in rows[1:]] == [f["fact"] for f in facts]
    with_comma = next(f["fact"] for f in facts if "," in f["fact"])
    assert '"' + with_comma.replace('"', '""') + '"\r\n' in stdout


def test_csv_for_show_group_and_set():
    run = run_shell("--mock", "--csv", "-c", "show abyssinian; group origin; set")
    rows = records(run.stdout)
    assert rows[0:2] == [["breed", "country", "origin", "coat", "pattern"],
                         ["Abyssinian", "Ethiopia", "Natural/Standard", "Short", "Ticked"]]
    assert rows[2] == ["group", "number", "breed", "country", "origin", "coat", "pattern"]
    assert [row[1] for row in rows[3:13]] == [str(n) for n in range(1, 11)]
    assert rows[13:] == [["name", "value"], ["page-size", "10"], ["output", "csv"]]


def test_set_output_csv_and_json_and_csv_together_is_a_usage_error():
    assert raw_stdout("--mock", "-c", "set output csv; breeds").startswith("number,breed,country,origin,coat,pattern\r\n")
    both = run_shell("--json", "--csv", "-c", "breeds")
    assert both.status == 2 and both.error_lines[0] == "Error: --json and --csv exclude each other."


# --- -o FILE and .output FILE -----------------------------------------------------------

def test_dash_o_writes_the_results_to_a_file_and_errors_stay_on_stderr(tmp_path):
    path = tmp_path / "out.txt"
    run = run_shell("--mock", "-o", str(path), "-c", "breeds; show Nope")
    assert run.status == 1
    assert run.stdout == ""
    assert path.read_text().startswith("Breeds — page 1 of 10 (98 in all)\n")
    assert run.error_lines[0].startswith("catfacts: show Nope: not found")


def test_dot_output_redirects_and_with_no_argument_goes_back_to_stdout(tmp_path):
    path = tmp_path / "page1.txt"
    path.write_text("old contents\n")
    run = run_shell("--mock", "-c", f".output {path}; breeds; .output; breeds 2")
    assert run.status == 0, run.stderr
    assert path.read_text().startswith("Breeds — page 1 of 10") and "old contents" not in path.read_text()
    assert "page 2 of 10" not in path.read_text()
    assert run.stdout.startswith("Breeds — page 2 of 10") and "page 1 of 10" not in run.stdout


def test_an_output_file_that_cannot_be_written_is_one_line(tmp_path):
    run = run_shell("--mock", "-o", str(tmp_path / "no" / "such" / "x"), "-c", "breeds")
    assert run.status == 2
    assert run.error_lines == [f"catfacts: -o: cannot write {tmp_path / 'no' / 'such' / 'x'}: No such file or directory; "
                               "check the folder exists and is writable"]
    inside = run_shell("--mock", "-c", f".output {tmp_path / 'no' / 'x'}; breeds")
    assert inside.status == 1 and inside.error_lines[0].startswith(f"catfacts: .output {tmp_path / 'no' / 'x'}: cannot write")
    assert inside.stdout.startswith("Breeds — page 1 of 10")


# --- metrics: "no data" is never a number ------------------------------------------------

def test_metrics_show_a_dash_not_zero_for_an_endpoint_whose_every_request_got_no_response(mock_server):
    """/breeds: the connection drops (no response to time); /fact is answered. The table and the
    plain lines show — for /breeds' five times, CSV an empty field, JSON null; /fact has numbers."""
    mock = mock_server("--faults", "reset", "--fail-first", "1")
    run = run_shell("--base-url", mock.url, "--retries", "0", "--no-fallback", "--no-cache", "-c",
                    "breeds; fact; set output table; metrics; set output plain; metrics; set output csv; metrics; "
                    "set output json; metrics")
    assert run.status == 1 and "breeds" in run.error_lines[0]
    lines = run.stdout.splitlines()
    table = [line.split() for line in lines if line.startswith("/breeds ")]
    plain = [line.split("\t") for line in lines if line.startswith("/breeds\t")]
    records = list(csv.reader(io.StringIO("\n".join(line for line in lines if line.startswith("/breeds,")))))
    [metrics] = [json.loads(line) for line in lines if line.startswith("{")]
    assert table == [["/breeds", "1", "1", "0", "—", "—", "—", "—", "—"]]
    assert plain == [["/breeds", "1", "1", "0", "—", "—", "—", "—", "—"]]
    assert records == [["/breeds", "1", "1", "0", "", "", "", "", ""]]
    breeds, fact = sorted(metrics["endpoints"], key=lambda e: e["endpoint"])
    assert breeds["endpoint"] == "/breeds" and (breeds["requests"], breeds["errors"]) == (1, 1)
    times = ("avg_ms", "last_ms", "min_ms", "max_ms", "p50_ms", "p95_ms", "p99_ms")
    assert [breeds[key] for key in times] == [None] * len(times)
    assert fact["endpoint"] == "/fact" and all(isinstance(fact[key], (int, float)) and fact[key] > 0 for key in times)
    [fact_plain] = [line.split("\t") for line in lines if line.startswith("/fact\t")]
    assert all(float(cell) >= 0 for cell in fact_plain[4:])
