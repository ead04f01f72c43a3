"""Metrics and the per-request callback."""
from __future__ import annotations

import sys
import threading
import time

import pytest

import catfacts

ENDPOINT_KEYS = {"endpoint", "requests", "errors", "avg_ms", "last_ms", "min_ms", "max_ms", "p50_ms",
                 "p95_ms", "p99_ms", "bytes", "cache_hits", "retries"}


def wait_for(condition, timeout=3.0):
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_metrics_have_the_documented_keys(client):
    client.breeds_page(1, limit=3)
    client.fact()
    metrics = client.metrics()
    assert {"endpoints", "device", "os", "app", "memory", "online", "collected_at"} <= metrics.keys()
    by_name = {entry["endpoint"]: entry for entry in metrics["endpoints"]}
    assert set(by_name) == {"/breeds", "/fact"}
    for entry in by_name.values():
        assert ENDPOINT_KEYS <= entry.keys() and entry["requests"] == 1 and entry["errors"] == 0
    assert {"arch", "cpus"} <= metrics["device"].keys()
    assert metrics["app"]["library_version"] == "0.1.0"
    assert metrics["memory"]["resident_bytes"] > 0 and metrics["online"] is True


def test_a_fresh_client_has_no_endpoint_metrics(client):
    assert client.metrics()["endpoints"] == []


def test_average_latency_matches_the_injected_latency(make_mock):
    mock = make_mock("--latency-ms", "50")
    with catfacts.Client(mock.url, retries=0) as c:
        for _ in range(20):
            c.fact()
        endpoint = c.metrics()["endpoints"][0]
    assert endpoint["endpoint"] == "/fact" and endpoint["requests"] == 20
    assert 50 <= endpoint["avg_ms"] <= 60
    assert endpoint["min_ms"] >= 50


def test_failed_requests_count_as_errors(make_mock):
    mock = make_mock("--fail-rate", "1", "--faults", "500")
    with catfacts.Client(mock.url, retries=0) as c:
        with pytest.raises(catfacts.HTTPError):
            c.breeds_page()
        endpoint = c.metrics()["endpoints"][0]
    assert endpoint["requests"] == 1 and endpoint["errors"] == 1


def test_prometheus_text_names_metrics_with_the_prefix(client):
    client.breeds_page()
    text = client.metrics_prometheus()
    assert "# TYPE catfacts_requests_total counter" in text
    assert 'catfacts_requests_total{endpoint="/breeds"} 1' in text
    samples = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert samples and all(line.startswith("catfacts_") for line in samples)


def test_on_request_reports_endpoint_time_and_success(client):
    seen = []
    client.on_request(lambda endpoint, ms, ok: seen.append((endpoint, ms, ok)))
    client.breeds_page()
    client.facts_page()
    client.fact()
    assert wait_for(lambda: len(seen) == 3)
    assert sorted(endpoint for endpoint, _, _ in seen) == ["/breeds", "/fact", "/facts"]
    assert all(ok is True and ms > 0 for _, ms, ok in seen)


def test_on_request_reports_failures_and_each_retry(make_mock):
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


def test_on_request_none_removes_the_callback(client):
    seen = []
    client.on_request(lambda *args: seen.append(args))
    client.fact()
    assert wait_for(lambda: len(seen) == 1)
    client.on_request(None)
    client.fact()
    time.sleep(0.1)
    assert len(seen) == 1


def test_on_request_needs_a_callable(client):
    with pytest.raises(TypeError):
        client.on_request("print")  # type: ignore[arg-type]


def test_a_raising_callback_is_reported_and_does_not_break_the_client(client, monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)

    def broken(endpoint, ms, ok):
        raise RuntimeError("callback bug")

    client.on_request(broken)
    # Three different pages: a page asked for again would come from the cache, with no request to hear.
    for page, name in ((1, "Abyssinian"), (2, "Aegean"), (3, "American Bobtail")):
        assert client.breeds_page(page, limit=1).items[0].name == name
    assert wait_for(lambda: len(reported) == 3)
    assert all(report.exc_type is RuntimeError for report in reported)
    assert "on_request" in "".join(getattr(reported[0].exc_value, "__notes__", ["on_request"]))
    client.on_request(None)
    assert client.metrics()["endpoints"][0]["requests"] == 3


def test_callbacks_run_on_library_threads(client):
    threads = []
    client.on_request(lambda *args: threads.append(threading.get_ident()))
    client.fact()
    assert wait_for(lambda: threads)
    assert threads[0] != threading.get_ident()


def test_blocking_calls_from_a_callback_raise_instead_of_deadlocking(client, monkeypatch):
    reported, metrics_seen = [], []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)

    def callback(endpoint, ms, ok):
        metrics_seen.append(client.metrics()["endpoints"][0]["endpoint"])  # not blocking: allowed
        client.fact()  # blocking: refused

    client.on_request(callback)
    client.breeds_page(1, limit=1)
    assert wait_for(lambda: reported)
    client.on_request(None)
    assert metrics_seen == ["/breeds"]
    assert reported[0].exc_type is RuntimeError and "listener" in str(reported[0].exc_value)
