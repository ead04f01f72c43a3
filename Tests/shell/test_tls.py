"""https with a CA of the user's own: --ca-file, SSL_CERT_FILE and CURL_CA_BUNDLE, against a
real TLS server (a CA openssl makes for the test, in front of the real mock); without any CA
bundle on the machine, the error says what to install or set."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import HANG_S, ROOT, SHELL, Mock, run_shell, stable_env

sys.path.insert(0, str(ROOT / "bindings/python/tests"))
from tls_front import Authority, TLSFront, free_of, host_port  # noqa: E402


@pytest.fixture(scope="module")
def authority(tmp_path_factory):
    return Authority(tmp_path_factory.mktemp("ca"))


@pytest.fixture(scope="module")
def https_url(authority):
    mock = Mock()
    front = TLSFront(authority, host_port(mock.url))
    yield front.url
    front.stop()
    mock.stop()


def breeds(url, *flags, **environment):
    """`catfacts --base-url URL --no-fallback --json -c 'breeds 1'` with only `environment`'s CA variables."""
    env = {**free_of(stable_env()), **environment}
    return run_shell("--base-url", url, "--no-fallback", "--retries", "0", "--no-cache", "--json", *flags, "-c", "breeds",
                     env=env)


def first_breed(run):
    assert run.status == 0, run.stderr
    return json.loads(run.stdout)["items"][0]["breed"]


def test_without_the_ca_the_error_says_how_to_name_one(https_url):
    run = breeds(https_url)
    assert run.status == 1
    [error] = [json.loads(line) for line in run.error_lines]
    assert "could not be verified against the system's CA certificates" in error["error"]
    assert "(--ca-file in the shell)" in error["error"]


def test_ca_file_trusts_the_server(https_url, authority):
    assert first_breed(breeds(https_url, "--ca-file", str(authority.ca))) == "Abyssinian"


def test_ssl_cert_file_trusts_the_server(https_url, authority):
    assert first_breed(breeds(https_url, SSL_CERT_FILE=str(authority.ca))) == "Abyssinian"


def test_curl_ca_bundle_trusts_the_server(https_url, authority):
    assert first_breed(breeds(https_url, CURL_CA_BUNDLE=str(authority.ca))) == "Abyssinian"


def test_ca_file_wins_over_the_environment(https_url, authority):
    run = breeds(https_url, "--ca-file", str(authority.ca), CURL_CA_BUNDLE=str(authority.other_ca))
    assert first_breed(run) == "Abyssinian"


def test_a_ca_file_that_cannot_be_read_is_a_usage_error_naming_the_flag(tmp_path):
    run = run_shell("--base-url", "https://127.0.0.1:9", "--ca-file", str(tmp_path / "nope.pem"), "-c", "breeds")
    assert run.status == 2
    assert run.error_lines == [f"catfacts: invalid argument: --ca-file '{tmp_path / 'nope.pem'}': cannot be read "
                               "(No such file or directory); name a PEM file of CA certificates"]


def test_help_names_ca_file_and_the_variables():
    help_text = run_shell("--help").stdout
    assert "--ca-file <PATH>" in help_text
    manual = subprocess.run([SHELL, "--manual-page"], capture_output=True, text=True, timeout=HANG_S).stdout
    assert "CURL_CA_BUNDLE, SSL_CERT_FILE, SSL_CERT_DIR" in manual


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="needs root and unshare(1) to hide the system's CA bundles")
def test_with_no_ca_bundle_on_the_machine_the_error_says_what_to_install_or_set(https_url):
    """The system's bundles hidden (an empty tmpfs over /etc/ssl, in a mount namespace of the test's own)."""
    hide = 'mount -t tmpfs none /etc/ssl && { ! test -d /etc/pki || mount -t tmpfs none /etc/pki; } && exec "$@"'
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", hide, "sh", os.path.abspath(SHELL),
                           "--base-url", https_url, "--no-fallback", "--retries", "0", "--no-cache", "-c", "breeds"],
                          capture_output=True, text=True, env=free_of(stable_env()), timeout=HANG_S)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no CA certificates to verify the server with" in done.stderr
    assert "install the ca-certificates package, or name a PEM file of CA certificates in the ca_file option " \
           "(--ca-file in the shell), SSL_CERT_FILE or CURL_CA_BUNDLE" in done.stderr
