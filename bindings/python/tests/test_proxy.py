"""Proxies as curl reads them, with loopback always direct (real sockets, a real forwarding proxy)."""
from __future__ import annotations

import http.server
import os
import socket
import subprocess
import sys
import textwrap
import threading
import urllib.request
from pathlib import Path
from typing import Iterator, List

import pytest

import catfacts

PYTHON_DIR = Path(__file__).resolve().parents[1]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ForwardingProxy(http.server.ThreadingHTTPServer):
    """An HTTP proxy: takes absolute-form GETs for any host and forwards them to `target`."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.seen: List[str] = []
        super().__init__(("127.0.0.1", 0), ProxyHandler)


class ProxyHandler(http.server.BaseHTTPRequestHandler):
    server: ForwardingProxy

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self.server.seen.append(self.path)
        path = self.path.split("/", 3)[3] if self.path.startswith("http://") else self.path.lstrip("/")
        with urllib.request.urlopen(f"{self.server.target}/{path}") as answer:
            body = answer.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def proxy(mock_url: str) -> Iterator[ForwardingProxy]:
    server = ForwardingProxy(mock_url)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def run_with_environment(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter, so the environment is the one the library reads at cf_client_open."""
    full = {**os.environ, **env, "PYTHONPATH": str(PYTHON_DIR)}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          env=full, timeout=60)


def test_a_proxy_in_the_environment_never_catches_loopback(mock_url: str) -> None:
    dead = f"http://127.0.0.1:{closed_port()}"
    done = run_with_environment(f"""
        import catfacts
        with catfacts.Client(base_url={mock_url!r}, retries=0) as client:
            page = client.breeds_page(1, limit=3)
            print(page.source, len(page.items))
        """, {"http_proxy": dead, "https_proxy": dead, "all_proxy": dead, "ALL_PROXY": dead})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["network", "3"]


def test_the_proxy_option_carries_requests_for_other_hosts(proxy: ForwardingProxy,
                                                           all_breeds: List[catfacts.Breed]) -> None:
    # catfacts.test does not resolve: only a proxy can answer for it.
    with catfacts.Client(base_url="http://catfacts.test:8106", proxy=f"http://127.0.0.1:{proxy.server_port}",
                         retries=0) as client:
        page = client.breeds_page(2, limit=4)
    assert [b.breed for b in page.items] == [b.breed for b in all_breeds[4:8]]
    assert proxy.seen == ["http://catfacts.test:8106/breeds?page=2&limit=4"]


def test_the_environment_proxy_is_used_and_no_proxy_is_honoured(proxy: ForwardingProxy) -> None:
    through = f"http://127.0.0.1:{proxy.server_port}"
    done = run_with_environment("""
        import catfacts
        with catfacts.Client(base_url="http://catfacts.test:8106", retries=0) as client:
            print(len(client.breeds_page(1, limit=2).items))
        """, {"http_proxy": through})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2"] and proxy.seen == ["http://catfacts.test:8106/breeds?page=1&limit=2"]
    direct = run_with_environment("""
        import catfacts
        try:
            with catfacts.Client(base_url="http://catfacts.test:8106", retries=0) as client:
                client.breeds_page(1, limit=2)
        except catfacts.NetworkError as error:
            print(error)
        """, {"http_proxy": through, "no_proxy": "example.org,.test"})
    assert "host not found" in direct.stdout, direct.stdout + direct.stderr
    assert len(proxy.seen) == 1


def test_a_failing_proxy_is_named_without_its_password() -> None:
    port = closed_port()
    with catfacts.Client(base_url="http://catfacts.test:8106", proxy=f"http://me:hunter2@127.0.0.1:{port}",
                         retries=0) as client:
        with pytest.raises(catfacts.NetworkError) as caught:
            client.breeds_page(1, limit=2)
    message = str(caught.value)
    assert f"cannot go through the proxy http://me:***@127.0.0.1:{port} (from the proxy option)" in message
    assert "hunter2" not in message


def test_a_proxy_that_is_no_url_is_an_argument_error() -> None:
    with pytest.raises(catfacts.ArgumentError) as caught:
        catfacts.Client(proxy="proxy.corp:3128")
    assert "proxy='proxy.corp:3128': is not a proxy URL" in str(caught.value)
