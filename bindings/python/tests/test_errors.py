"""Exceptions: every status has its class, raised for the mock's faults."""
from __future__ import annotations

import builtins
import threading
import time
from typing import Any, List, Type

import pytest

import catfacts
from catfacts.errors import error_for, python_message

from conftest import HANG_S, MakeMock, established, wait_for

CLASSES = {
    catfacts.Status.ERR_ARGUMENT: catfacts.ArgumentError,
    catfacts.Status.ERR_NETWORK: catfacts.NetworkError,
    catfacts.Status.ERR_TIMEOUT: catfacts.TimeoutError,
    catfacts.Status.ERR_HTTP: catfacts.HTTPError,
    catfacts.Status.ERR_RATE_LIMITED: catfacts.RateLimitedError,
    catfacts.Status.ERR_DECODE: catfacts.DecodeError,
    catfacts.Status.ERR_NOT_FOUND: catfacts.NotFoundError,
    catfacts.Status.ERR_OFFLINE: catfacts.OfflineError,
    catfacts.Status.ERR_CANCELLED: catfacts.CancelledError,
    catfacts.Status.ERR_INTERNAL: catfacts.InternalError,
}


def test_status_values_match_the_header() -> None:
    assert [int(s) for s in catfacts.Status] == list(range(12))
    assert str(catfacts.Status.ERR_RATE_LIMITED) == "CF_ERR_RATE_LIMITED"


@pytest.mark.parametrize("status,cls", CLASSES.items())
def test_each_error_status_has_its_own_class(status: catfacts.Status, cls: Type[catfacts.CatFactsError]) -> None:
    error = error_for(status, "what failed")
    assert type(error) is cls and isinstance(error, catfacts.CatFactsError)
    assert error.status == status and error.message == str(error) == "what failed"


def test_errors_also_derive_from_the_builtins_they_resemble() -> None:
    assert issubclass(catfacts.NetworkError, ConnectionError)
    assert issubclass(catfacts.TimeoutError, builtins.TimeoutError)
    assert issubclass(catfacts.NotFoundError, LookupError)
    assert issubclass(catfacts.ArgumentError, ValueError)
    assert issubclass(catfacts.DecodeError, ValueError)
    assert issubclass(catfacts.RateLimitedError, catfacts.HTTPError)


def test_an_unknown_status_is_an_internal_error() -> None:
    error = error_for(42, "odd")
    assert isinstance(error, catfacts.InternalError) and "42" in error.message


#: How long the mock's slow bodies take: no timeout below reaches it on any machine, so a call
#: that ends sooner was ended by its timeout, not by the body arriving.
SLOW_MS = 30000


def fault_client(make_mock: MakeMock, fault: str, **options: Any) -> catfacts.Client:
    mock = make_mock("--fail-rate", "1", "--faults", fault, "--slow-ms", str(SLOW_MS))
    options.setdefault("retries", 0)
    return catfacts.Client(mock.url, **options)


def test_http_500_is_an_http_error(make_mock: MakeMock) -> None:
    with fault_client(make_mock, "500") as c, pytest.raises(catfacts.HTTPError) as caught:
        c.breeds_page()
    assert type(caught.value) is catfacts.HTTPError and caught.value.http_status == 500
    assert "/breeds" in caught.value.message


def test_429_without_retries_is_rate_limited_with_retry_after(make_mock: MakeMock) -> None:
    with fault_client(make_mock, "429") as c, pytest.raises(catfacts.RateLimitedError) as caught:
        c.facts_page()
    assert caught.value.retry_after == 1.0 and caught.value.http_status == 429


def test_429_with_retries_succeeds_after_retry_after(make_mock: MakeMock) -> None:
    mock = make_mock("--fail-first", "1", "--faults", "429")
    with catfacts.Client(mock.url, retries=2) as c:
        started = time.monotonic()
        page = c.breeds_page(1, limit=1)
        elapsed = time.monotonic() - started
        assert page.items[0].breed == "Abyssinian" and elapsed >= 0.9
        endpoint = c.metrics().endpoints[0]
    assert endpoint.requests == 2 and endpoint.retries == 1


def test_a_reset_connection_is_a_network_error(make_mock: MakeMock) -> None:
    with fault_client(make_mock, "reset") as c, pytest.raises(ConnectionError) as caught:
        c.fact()
    assert isinstance(caught.value, catfacts.NetworkError)


def test_a_refused_connection_is_a_network_error(make_mock: MakeMock) -> None:
    mock = make_mock()
    mock.stop()
    with catfacts.Client(mock.url, retries=0) as c, pytest.raises(catfacts.NetworkError) as caught:
        c.breeds_page()
    assert mock.url in caught.value.message


@pytest.mark.parametrize("fault", ["malformed", "truncated"])
def test_a_bad_body_is_a_decode_error(make_mock: MakeMock, fault: str) -> None:
    with fault_client(make_mock, fault) as c, pytest.raises(catfacts.DecodeError) as caught:
        c.breeds_page()
    assert isinstance(caught.value, ValueError)


def test_a_slow_body_past_the_timeout_is_a_timeout_error(make_mock: MakeMock) -> None:
    with fault_client(make_mock, "slow", timeout=0.5) as c:
        started = time.monotonic()
        with pytest.raises(TimeoutError) as caught:  # the built-in catches it
            c.breeds_page()
        elapsed = time.monotonic() - started
    assert isinstance(caught.value, catfacts.TimeoutError) and 0.4 <= elapsed < SLOW_MS / 1000


def test_an_unknown_breed_is_not_found(client: catfacts.Client) -> None:
    with pytest.raises(catfacts.NotFoundError):
        client.breed("Unicorn")


def test_a_wait_cut_short_by_close_is_cancelled(make_mock: MakeMock) -> None:
    latency_s = 30.0
    mock = make_mock("--latency-ms", str(int(latency_s * 1000)))
    with catfacts.Client(mock.url, retries=0) as c:
        lst = c.breeds(page_size=5, prefetch_distance=0)
        outcome: List[object] = []

        def read() -> None:
            try:
                outcome.append(lst[0])
            except BaseException as error:  # noqa: BLE001 - recorded for the assertion
                outcome.append(error)

        started = time.monotonic()
        reader = threading.Thread(target=read)
        reader.start()
        # Closed once the page's request is out (its answer 30 s away): the reader is waiting.
        assert wait_for(lambda: established(mock.port) == 1)
        lst.close()
        reader.join(timeout=HANG_S)
        # Sooner than the page could have come: the close ended the wait.
        assert not reader.is_alive() and time.monotonic() - started < latency_s
    assert len(outcome) == 1 and isinstance(outcome[0], catfacts.CancelledError)


def test_the_offline_status_maps_to_offline_error() -> None:
    # libCatFacts 0.1.0 has no path that returns CF_ERR_OFFLINE; the mapping still holds.
    assert isinstance(error_for(9, "offline: nothing cached"), catfacts.OfflineError)


def test_error_fields_come_from_the_library_not_the_message(make_mock: MakeMock) -> None:
    mock = make_mock("--fail-rate", "1", "--faults", "503")
    with catfacts.Client(mock.url, retries=0) as client:
        with pytest.raises(catfacts.HTTPError) as caught:
            client.breeds_page(1)
    error = caught.value
    assert (error.status_code, error.retry_after, error.attempts) == (503, 1.0, 1)
    assert error.message.endswith("; it asks to retry after 1 s")


def test_a_dead_server_has_no_status_and_counts_every_attempt(make_mock: MakeMock) -> None:
    mock = make_mock()
    url = mock.url
    mock.stop()
    with catfacts.Client(url, retries=2) as client:
        with pytest.raises(catfacts.NetworkError) as caught:
            client.facts_page(1)
    assert (caught.value.status_code, caught.value.retry_after, caught.value.attempts) == (None, None, 3)


def test_a_refused_argument_sent_nothing() -> None:
    with catfacts.Client("http://127.0.0.1:9") as client:
        with pytest.raises(catfacts.ArgumentError) as caught:
            client.breeds_page(0)
    assert (caught.value.status_code, caught.value.attempts) == (None, 0)


def test_offline_and_network_errors_are_connection_errors() -> None:
    assert issubclass(catfacts.OfflineError, ConnectionError)
    assert issubclass(catfacts.NetworkError, ConnectionError)
    assert not issubclass(catfacts.OfflineError, catfacts.NetworkError)


def test_timeout_is_the_timeout_error_requests_users_name() -> None:
    assert catfacts.Timeout is catfacts.TimeoutError
    assert issubclass(catfacts.Timeout, builtins.TimeoutError)


def test_timeout_bounds_the_whole_call_not_each_attempt(make_mock: MakeMock) -> None:
    mock = make_mock("--fail-rate", "1", "--faults", "slow", "--slow-ms", str(SLOW_MS))
    with catfacts.Client(mock.url, timeout=1, retries=2) as client:
        started = time.monotonic()
        with pytest.raises(catfacts.Timeout) as caught:
            client.breeds_page()
        elapsed = time.monotonic() - started
    assert 0.9 <= elapsed < SLOW_MS / 1000  # one bound for the call: not 3 attempts of 30 s
    assert caught.value.message.startswith("the call's timeout of 1 s passed after 1 attempt to ")
    assert caught.value.message.endswith("; raise timeout= to wait longer")
    assert "deadline" not in caught.value.message and "_ms" not in caught.value.message
    assert caught.value.attempts == 1


def test_attempt_timeout_bounds_one_request_and_says_its_python_name(make_mock: MakeMock) -> None:
    mock = make_mock("--fail-rate", "1", "--faults", "slow", "--slow-ms", str(SLOW_MS))
    with catfacts.Client(mock.url, attempt_timeout=0.3, retries=1, timeout=HANG_S) as client:
        started = time.monotonic()
        with pytest.raises(catfacts.TimeoutError) as caught:
            client.fact()
        elapsed = time.monotonic() - started
    # Two attempts of 0.3 s each, neither waiting for its 30 s body.
    assert 0.6 <= elapsed < SLOW_MS / 1000 and caught.value.attempts == 2
    assert caught.value.message.startswith("timed out after 0.3 s waiting for ")
    assert caught.value.message.endswith("; the server is slow or unreachable (raise attempt_timeout= to wait longer)")


def test_connect_timeout_bounds_the_wait_for_a_silent_server(make_mock: MakeMock) -> None:
    latency_s = 30.0
    mock = make_mock("--latency-ms", str(int(latency_s * 1000)))  # accepts, then says nothing for 30 s
    with catfacts.Client(mock.url, connect_timeout=0.3, retries=0) as client:
        started = time.monotonic()
        with pytest.raises(catfacts.TimeoutError) as caught:
            client.fact()
        elapsed = time.monotonic() - started
    assert 0.25 <= elapsed < latency_s and "timed out after 0.3 s" in caught.value.message


@pytest.mark.parametrize("library, python", [
    ("the call's deadline of 2500 ms passed after 3 attempts to URL: reset; raise deadline_ms to wait longer",
     "the call's timeout of 2.5 s passed after 3 attempts to URL: reset; raise timeout= to wait longer"),
    ("timed out after 30 s waiting for URL; the server is slow (raise timeout_ms to wait longer)",
     "timed out after 30 s waiting for URL; the server is slow (raise attempt_timeout= to wait longer)"),
    ("invalid argument: 'retries' in client options must be in 0..100; got -1",
     "invalid argument: retries=-1: must be in 0..100"),
    ("invalid argument: 'group_by' in the query names no field: 'x'; fields: breed, country",
     "invalid argument: by: names no field: 'x'; fields: breed, country"),
    ("connect_timeout_ms 0 is out of range; cache_ttl_ms too", "connect_timeout 0 is out of range; cache_ttl too"),
    ("the page_size_ms_x stays", "the page_size_ms_x stays"),
])
def test_messages_name_the_python_parameters(library: str, python: str) -> None:
    assert python_message(library) == python
