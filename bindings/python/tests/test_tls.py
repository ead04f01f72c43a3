"""https as users configure it: a CA of their own through ca_file=, REQUESTS_CA_BUNDLE,
SSL_CERT_FILE, SSL_CERT_DIR or CURL_CA_BUNDLE, against a real TLS server (a CA made by openssl
for the test, in front of the real mock); and what the errors say when it goes wrong, without
any CA bundle on the machine included."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, Sequence

import pytest

import catfacts

from conftest import HANG_S, PYTHON_DIR
from tls_front import Authority, TLSFront, free_of, host_port, many_headers, serve_once_each


@pytest.fixture(scope="module")
def authority(tmp_path_factory: pytest.TempPathFactory) -> Authority:
    return Authority(tmp_path_factory.mktemp("ca"))


@pytest.fixture(scope="module")
def https_url(authority: Authority, mock_url: str) -> Iterator[str]:
    front = TLSFront(authority, host_port(mock_url))
    yield front.url
    front.stop()


def first_breed(environment: Dict[str, str], url: str, prefix: Sequence[str] = (), **options: str) -> Dict[str, str]:
    """Opens a client in a fresh interpreter with ``environment`` (the library reads the CA
    variables when the client is opened) and asks for one breed: {"breed": ...} or
    {"error": type, "message": ...}. ``prefix``: a command the interpreter runs under."""
    script = f"""
import json, catfacts
try:
    with catfacts.Client(base_url={url!r}, retries=0, timeout={HANG_S}, **{options!r}) as client:
        print(json.dumps({{"breed": client.breeds_page(1, limit=1).items[0].breed}}))
except catfacts.CatFactsError as error:
    print(json.dumps({{"error": type(error).__name__, "message": str(error)}}))
"""
    done = subprocess.run([*prefix, sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_S,
                          env={**free_of(dict(os.environ)), **environment, "PYTHONPATH": str(PYTHON_DIR)})
    assert done.returncode == 0, done.stderr
    answer: Dict[str, str] = json.loads(done.stdout)
    return answer


def test_without_the_ca_the_server_is_not_trusted_and_the_message_says_what_to_set(https_url: str) -> None:
    answer = first_breed({}, https_url)
    assert answer["error"] == "NetworkError"
    assert "the server's TLS certificate could not be verified against the system's CA certificates" in answer["message"]
    assert "name its certificate in the ca_file option" in answer["message"]
    assert "SSL_CERT_FILE or CURL_CA_BUNDLE" in answer["message"]


def test_ca_file_trusts_the_server(https_url: str, authority: Authority) -> None:
    assert first_breed({}, https_url, ca_file=str(authority.ca)) == {"breed": "Abyssinian"}


def test_ca_file_takes_a_path_object(https_url: str, authority: Authority) -> None:
    with catfacts.Client(base_url=https_url, ca_file=authority.ca, retries=0, timeout=HANG_S) as client:
        assert client.breeds_page(1, limit=1).items[0].breed == "Abyssinian"


def test_ssl_cert_file_trusts_the_server(https_url: str, authority: Authority) -> None:
    assert first_breed({"SSL_CERT_FILE": str(authority.ca)}, https_url) == {"breed": "Abyssinian"}


def test_ssl_cert_dir_trusts_the_server(https_url: str, authority: Authority) -> None:
    assert first_breed({"SSL_CERT_DIR": str(authority.hashed_folder())}, https_url) == {"breed": "Abyssinian"}


def test_curl_ca_bundle_trusts_the_server(https_url: str, authority: Authority) -> None:
    assert first_breed({"CURL_CA_BUNDLE": str(authority.ca)}, https_url) == {"breed": "Abyssinian"}


def test_requests_ca_bundle_trusts_the_server(https_url: str, authority: Authority) -> None:
    assert first_breed({"REQUESTS_CA_BUNDLE": str(authority.ca)}, https_url) == {"breed": "Abyssinian"}


def test_ca_file_wins_over_the_environment(https_url: str, authority: Authority) -> None:
    other = str(authority.other_ca)
    assert first_breed({"REQUESTS_CA_BUNDLE": other, "CURL_CA_BUNDLE": other, "SSL_CERT_FILE": other}, https_url,
                       ca_file=str(authority.ca)) == {"breed": "Abyssinian"}


def test_a_bundle_without_the_servers_ca_is_named_with_where_it_came_from(https_url: str, authority: Authority) -> None:
    answer = first_breed({"CURL_CA_BUNDLE": str(authority.other_ca)}, https_url)
    assert answer["error"] == "NetworkError"
    assert f"could not be verified against {authority.other_ca} (from CURL_CA_BUNDLE)" in answer["message"]
    assert "this bundle holds the CA that signed the server's certificate" in answer["message"]


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="needs root and unshare(1) to hide the system's CA bundles")
def test_with_no_ca_bundle_on_the_machine_the_error_says_what_to_install_or_set(https_url: str) -> None:
    """The system's bundles hidden (an empty tmpfs over /etc/ssl, and /etc/pki where it exists, in a
    mount namespace of the child interpreter's own)."""
    hide = 'mount -t tmpfs none /etc/ssl && { ! test -d /etc/pki || mount -t tmpfs none /etc/pki; } && exec "$@"'
    answer = first_breed({}, https_url, prefix=["unshare", "--mount", "--propagation", "private", "sh", "-c", hide, "sh"])
    assert answer["error"] == "NetworkError"
    assert "no CA certificates to verify the server with" in answer["message"]
    assert "install the ca-certificates package, or name a PEM file of CA certificates in the ca_file option " \
           "(--ca-file in the shell), SSL_CERT_FILE or CURL_CA_BUNDLE" in answer["message"]


def test_an_environment_bundle_that_does_not_exist_is_named(https_url: str, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.pem"
    answer = first_breed({"SSL_CERT_FILE": str(missing)}, https_url)
    assert answer["error"] == "NetworkError"
    assert f"the CA certificates in {missing} (from SSL_CERT_FILE) cannot be used" in answer["message"]


def test_a_ca_file_that_cannot_be_read_is_an_argument_error_at_once(tmp_path: Path) -> None:
    with pytest.raises(catfacts.ArgumentError, match=r"ca_file='.*nowhere.pem': cannot be read .*; name a PEM file of CA certificates"):
        catfacts.Client(base_url="https://127.0.0.1:9", ca_file=str(tmp_path / "nowhere.pem"))
    with pytest.raises(catfacts.ArgumentError, match=r"ca_file='.*': is a folder"):
        catfacts.Client(base_url="https://127.0.0.1:9", ca_file=str(tmp_path))
    with pytest.raises(TypeError, match=r"ca_file=3: must be a str or a path, not int"):
        catfacts.Client(base_url="https://127.0.0.1:9", ca_file=3)  # type: ignore[arg-type]


def test_requests_ca_bundle_that_cannot_be_read_is_named(https_url: str, tmp_path: Path) -> None:
    script = f"""
import catfacts
try:
    catfacts.Client(base_url={https_url!r})
except catfacts.ArgumentError as error:
    print(error)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_S,
                          env={**free_of(dict(os.environ)), "REQUESTS_CA_BUNDLE": str(tmp_path / "gone.pem"),
                               "PYTHONPATH": str(PYTHON_DIR)})
    assert "REQUESTS_CA_BUNDLE='" in done.stdout and "gone.pem': cannot be read" in done.stdout, done.stdout + done.stderr


def test_four_hundred_kilobytes_of_headers_are_headers_over_the_limit_not_a_lost_connection() -> None:
    for url in serve_once_each(lambda connection: connection.sendall(many_headers())):
        with catfacts.Client(base_url=url, retries=0, timeout=HANG_S) as client:
            with pytest.raises(catfacts.NetworkError) as caught:
                client.breeds_page(1, limit=2)
        message = str(caught.value)
        assert "the response's headers are over libcurl's limit" in message, message
        assert "connection was lost" not in message
        assert "check that the address is the API's" in message
