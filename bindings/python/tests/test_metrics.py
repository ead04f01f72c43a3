"""Metrics and the per-request callback."""
from __future__ import annotations

import dataclasses
import datetime
import os
import platform
import sys
import threading
import time
from typing import List

import pytest

import catfacts

from conftest import MakeMock, wait_for

def test_metrics_are_frozen_dataclasses_of_each_part(client: catfacts.Client) -> None:
    client.breeds_page(1, limit=3)
    client.fact()
    metrics = client.metrics()
    assert isinstance(metrics, catfacts.Metrics)
    assert [entry.endpoint for entry in metrics.endpoints] == ["/breeds", "/fact"]
    for entry in metrics.endpoints:
        assert isinstance(entry, catfacts.EndpointStats)
        assert (entry.requests, entry.errors, entry.retries, entry.cache_hits) == (1, 0, 0, 0)
        assert entry.min_ms is not None and entry.p50_ms is not None and entry.max_ms is not None
        assert entry.bytes > 0 and 0 < entry.min_ms <= entry.p50_ms <= entry.max_ms
    assert isinstance(metrics.device, catfacts.Device) and metrics.device.cpus == os.cpu_count()
    assert metrics.device.arch == platform.machine()
    assert isinstance(metrics.os, catfacts.OperatingSystem) and metrics.os.kernel == platform.release()
    assert metrics.app == catfacts.AppInfo(metrics.app.name, "0.2.0")
    assert isinstance(metrics.memory, catfacts.Memory) and metrics.memory.resident_bytes > 0
    assert metrics.memory.peak_resident_bytes >= metrics.memory.resident_bytes
    assert metrics.online is True
    assert metrics.collected_at is not None and metrics.collected_at.tzinfo is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        metrics.online = False  # type: ignore[misc]


def test_endpoint_finds_one_endpoints_stats_or_none(client: catfacts.Client) -> None:
    client.facts_page(1, limit=2)
    facts = client.metrics().endpoint("/facts")
    assert facts is not None and facts.endpoint == "/facts" and facts.requests == 1
    assert client.metrics().endpoint("/breeds") is None


def test_metrics_read_from_json_ignore_keys_added_later() -> None:
    endpoint = {"endpoint": "/fact", "requests": 2, "errors": 1, "avg_ms": 1.5, "last_ms": 1.0, "min_ms": 1.0,
                "max_ms": 2.0, "p50_ms": 1.0, "p95_ms": 2.0, "p99_ms": 2.0, "bytes": 10, "cache_hits": 0,
                "retries": 1, "new_key": "ignored"}
    metrics = catfacts.Metrics.from_json({
        "endpoints": [endpoint], "device": {"make": "m", "model": "n", "arch": "x", "cpus": 2, "extra": 1},
        "os": {"name": "Debian", "version": "12", "kernel": "6.1"}, "app": {"name": "p", "library_version": "9.9.9"},
        "memory": {"resident_bytes": 1, "peak_resident_bytes": 2}, "online": False,
        "collected_at": "2026-11-21T10:00:00Z", "future": {}})
    assert metrics.endpoints == (catfacts.EndpointStats("/fact", 2, 1, 1.5, 1.0, 1.0, 2.0, 1.0, 2.0, 2.0, 10, 0, 1),)
    assert metrics.device == catfacts.Device("m", "n", "x", 2)
    assert metrics.collected_at == datetime.datetime(2026, 11, 21, 10, tzinfo=datetime.timezone.utc)
    assert metrics.online is False


TIMES = ("avg_ms", "last_ms", "min_ms", "max_ms", "p50_ms", "p95_ms", "p99_ms")


def test_an_endpoint_whose_every_request_got_no_response_has_none_for_its_times(make_mock: MakeMock) -> None:
    """The connection drops twice (no response to time): None, never 0.0; the next endpoint's
    request is answered and timed."""
    mock = make_mock("--faults", "reset", "--fail-first", "2")
    with catfacts.Client(mock.url, retries=0, cache_max_bytes=0) as c:
        for _ in range(2):
            with pytest.raises(catfacts.NetworkError):
                c.facts_page(1, limit=5)
        c.fact()
        facts, fact = c.metrics().endpoint("/facts"), c.metrics().endpoint("/fact")
    assert facts is not None and (facts.requests, facts.errors) == (2, 2)
    assert [getattr(facts, name) for name in TIMES] == [None] * len(TIMES)
    assert fact is not None and all(isinstance(getattr(fact, name), float) for name in TIMES)
    assert catfacts.metrics.format_ms(facts.p95_ms) == "\u2014"


def test_metrics_read_from_json_take_null_times_as_none() -> None:
    stats = catfacts.EndpointStats.from_json({
        "endpoint": "/breeds", "requests": 1, "errors": 1, "bytes": 0, "cache_hits": 0, "retries": 0,
        **{name: None for name in TIMES}})
    assert stats == catfacts.EndpointStats("/breeds", 1, 1, None, None, None, None, None, None, None, 0, 0, 0)


def test_a_fresh_client_has_no_endpoint_metrics(client: catfacts.Client) -> None:
    assert client.metrics().endpoints == ()


def test_average_latency_matches_the_injected_latency(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", "50")
    with catfacts.Client(mock.url, retries=0) as c:
        started = time.monotonic()
        for _ in range(20):
            c.fact()
        wall_ms = (time.monotonic() - started) * 1000
        endpoint = c.metrics().endpoints[0]
    assert endpoint.endpoint == "/fact" and endpoint.requests == 20
    assert endpoint.avg_ms is not None and endpoint.min_ms is not None
    # At least the injected latency; at most what the clock saw (the 20 requests ran one after
    # another), however busy the machine is.
    assert 50 <= endpoint.avg_ms <= wall_ms / 20, f"avg {endpoint.avg_ms} ms of {wall_ms:.1f} ms in all"
    assert endpoint.min_ms >= 50


def test_failed_requests_count_as_errors(make_mock: MakeMock) -> None:
    mock = make_mock("--fail-rate", "1", "--faults", "500")
    with catfacts.Client(mock.url, retries=0) as c:
        with pytest.raises(catfacts.HTTPError):
            c.breeds_page()
        endpoint = c.metrics().endpoints[0]
    assert endpoint.requests == 1 and endpoint.errors == 1


def test_prometheus_text_names_metrics_with_the_prefix(client: catfacts.Client) -> None:
    client.breeds_page()
    text = client.metrics_prometheus()
    assert "# TYPE catfacts_requests_total counter" in text
    assert 'catfacts_requests_total{endpoint="/breeds"} 1' in text
    samples = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert samples and all(line.startswith("catfacts_") for line in samples)


def test_on_request_reports_endpoint_time_and_success(client: catfacts.Client) -> None:
    seen = []
    client.on_request(lambda endpoint, ms, ok: seen.append((endpoint, ms, ok)))
    client.breeds_page()
    client.facts_page()
    client.fact()
    assert wait_for(lambda: len(seen) == 3)
    assert sorted(endpoint for endpoint, _, _ in seen) == ["/breeds", "/fact", "/facts"]
    assert all(ok is True and ms > 0 for _, ms, ok in seen)


def test_on_request_reports_failures_and_each_retry(make_mock: MakeMock) -> None:
    mock = make_mock("--fail-first", "2", "--faults", "500,reset")
    seen = []
    with catfacts.Client(mock.url, retries=0) as c:
        c.on_request(lambda endpoint, ms, ok: seen.append((endpoint, ok)))
        with pytest.raises(catfacts.HTTPError):
            c.fact()
        with pytest.raises(catfacts.NetworkError):
            c.fact()
        c.fact()
        assert wait_for(lambda: len(seen) == 3)
    assert seen == [("/fact", False), ("/fact", False), ("/fact", True)]


def test_on_request_none_removes_the_callback(client: catfacts.Client) -> None:
    seen = []
    client.on_request(lambda *args: seen.append(args))
    client.fact()
    assert wait_for(lambda: len(seen) == 1)
    client.on_request(None)
    client.fact()  # removed before the request went out; the library records a request before its call returns
    assert len(seen) == 1


def test_on_request_needs_a_callable(client: catfacts.Client) -> None:
    with pytest.raises(TypeError):
        client.on_request("print")  # type: ignore[arg-type]


def test_a_raising_callback_is_reported_and_does_not_break_the_client(client: catfacts.Client,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    reported: List[sys.UnraisableHookArgs] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)

    def broken(endpoint: str, ms: float, ok: bool) -> None:
        raise RuntimeError("callback bug")

    client.on_request(broken)
    # Three different pages: a page asked for again would come from the cache, with no request to
    # hear; not in order, so nothing is read ahead and the requests are the three asked.
    for page, name in ((1, "Abyssinian"), (3, "American Bobtail"), (5, "American Shorthair")):
        assert client.breeds_page(page, limit=1).items[0].breed == name
    assert wait_for(lambda: len(reported) == 3)
    assert all(report.exc_type is RuntimeError for report in reported)
    assert "on_request" in "".join(getattr(reported[0].exc_value, "__notes__", ["on_request"]))
    client.on_request(None)
    assert client.metrics().endpoints[0].requests == 3


def test_callbacks_run_on_library_threads(client: catfacts.Client) -> None:
    threads = []
    client.on_request(lambda *args: threads.append(threading.get_ident()))
    client.fact()
    assert wait_for(lambda: threads)
    assert threads[0] != threading.get_ident()


def test_blocking_calls_from_a_callback_raise_instead_of_deadlocking(client: catfacts.Client,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    reported: List[sys.UnraisableHookArgs] = []
    metrics_seen: List[str] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)

    def callback(endpoint: str, ms: float, ok: bool) -> None:
        metrics_seen.append(client.metrics().endpoints[0].endpoint)  # not blocking: allowed
        client.fact()  # blocking: refused

    client.on_request(callback)
    client.breeds_page(1, limit=1)
    assert wait_for(lambda: reported)
    client.on_request(None)
    assert metrics_seen == ["/breeds"]
    assert reported[0].exc_type is RuntimeError and "listener" in str(reported[0].exc_value)
