"""Control characters and escape sequences in the server's text and in error messages are
shown escaped, never sent to the terminal (script mode here; test_terminal.py at a pty)."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import pytest

from conftest import run_shell

HOSTILE = [
    {"breed": "Evil\x1b]0;owned\x07Cat", "country": "\x1b[2JClear", "origin": "Bell\x07", "coat": "Two\nLines",
     "pattern": "C1\u009b31m"},
    {"breed": "Plain", "country": "Tab\there", "origin": "", "coat": "Short", "pattern": ""},
]
FACT = "Cats\x1b[31m are red\x1b[0m.\nSecond line."


class HostileHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        if url.path == "/fact":
            body = {"fact": FACT, "length": len(FACT)}
        else:
            page = int(query.get("page", ["1"])[0])
            items = HOSTILE if url.path == "/breeds" else [{"fact": FACT, "length": len(FACT)}]
            body = {"current_page": page, "data": items if page == 1 else [], "last_page": 1,
                    "per_page": 10, "total": len(items), "from": 1, "to": len(items)}
        # Compact, as the real service sends it.
        data = json.dumps(body, separators=(",", ":")).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def hostile_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), HostileHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def assert_no_controls(text):
    bad = [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]
    assert not bad, (bad, text)


@pytest.mark.parametrize("prefix", ["", "set output plain; "])
def test_server_text_is_escaped_in_tables_and_plain(hostile_url, prefix):
    run = run_shell("--base-url", hostile_url, "-c", prefix + "breeds; show 1; facts; fact")
    assert run.status == 0, run.stderr
    assert_no_controls(run.stdout)
    assert "Evil\\e]0;owned\\x07Cat" in run.stdout
    assert "\\e[2JClear" in run.stdout and "C1\\u{9B}31m" in run.stdout
    assert "Cats\\e[31m are red\\e[0m." in run.stdout


def test_a_newline_in_a_cell_never_splits_its_row(hostile_url):
    run = run_shell("--base-url", hostile_url, "-c", "breeds")
    rows = run.stdout.splitlines()[2:]
    assert len(rows) == 2
    assert rows[0].startswith("1  Evil") and "Two\\nLines" in rows[0]


def test_json_and_csv_keep_the_data_json_escaping_it(hostile_url):
    run = run_shell("--base-url", hostile_url, "--json", "-c", "breeds; show \u009bnope")
    page = json.loads(run.stdout)
    assert page["items"][0]["breed"] == HOSTILE[0]["breed"]
    assert page["items"][0]["pattern"] == HOSTILE[0]["pattern"]
    # JSON may carry C1 controls raw, and some terminals obey them: escaped, the same value.
    assert_no_controls(run.stdout)
    assert_no_controls(run.stderr)
    assert "C1\\u009B31m" in run.stdout
    assert json.loads(run.stderr)["command"] == "show \u009bnope"
    csv_out = run_shell("--base-url", hostile_url, "--csv", "-c", "breeds").stdout
    assert "\x1b" not in csv_out and "\x07" not in csv_out
    assert '"Two\nLines"' in csv_out


def test_error_messages_are_escaped(hostile_url):
    run = run_shell("--base-url", hostile_url, "-c", "show \x1b[2Jnope; \x1b]0:x\x07")
    assert run.status == 1
    assert_no_controls(run.stderr)
    assert run.error_lines[0].startswith("catfacts: show \\e[2Jnope: not found: no breed is named '\\e[2Jnope'")
    assert run.error_lines[1].startswith("catfacts: \\e]0:x\\x07: unknown command")
