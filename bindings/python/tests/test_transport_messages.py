"""What a failed request says, for each way a connection can go wrong (real sockets)."""
from __future__ import annotations

import socket
import struct
import threading
from typing import Callable, Iterator

import pytest

import catfacts

from conftest import HANG_S


def serve(reply: Callable[[socket.socket], None]) -> Iterator[str]:
    """A TCP server on loopback that answers every connection with `reply`; yields its URL."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection:
                connection.recv(65536)
                reply(connection)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    server.close()


def failure(url: str) -> str:
    with catfacts.Client(base_url=url, retries=0, timeout=HANG_S) as client:
        with pytest.raises(catfacts.NetworkError) as caught:
            client.breeds_page(1, limit=2)
    return str(caught.value)


@pytest.fixture
def not_http() -> Iterator[str]:
    yield from serve(lambda c: c.sendall(b"SSH-2.0-OpenSSH_9.2\r\n"))


@pytest.fixture
def huge_header() -> Iterator[str]:
    yield from serve(lambda c: c.sendall(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 1_000_000
                                         + b"\r\nContent-Length: 2\r\n\r\n{}"))


@pytest.fixture
def resetting() -> Iterator[str]:
    yield from serve(lambda c: c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)))


@pytest.fixture
def silent_close() -> Iterator[str]:
    yield from serve(lambda c: None)


def test_a_reply_that_is_not_http_says_so(not_http: str) -> None:
    assert (f"network error for {not_http}/breeds?page=1&limit=2: the reply is not HTTP "
            "(is this the address of an HTTP server?)") in failure(not_http)


def test_a_header_too_large_says_so(huge_header: str) -> None:
    message = failure(huge_header)
    assert "the response's headers are over libcurl's limit (100 kB a line, 300 kB in all)" in message
    assert "check that the address is the API's" in message


def test_a_reset_says_reset(resetting: str) -> None:
    assert "the server reset the connection" in failure(resetting)


def test_a_close_without_reply_says_so(silent_close: str) -> None:
    assert "the server closed the connection without a reply" in failure(silent_close)


def test_credentials_in_the_base_url_are_never_shown(silent_close: str) -> None:
    url = silent_close.replace("http://", "http://reader:s3cret@")
    message = failure(url)
    assert "reader:***@" in message and "s3cret" not in message
