"""OpenTelemetry export and trace context, against the real mock and the test collector
(Tests/otlp/collector.py), which decodes every payload with the OpenTelemetry protobuf
definitions: metrics' names, units, attributes and exact bucket counts; a span per call and per
attempt whose ids are those of the traceparent the mock received; the host's trace; what a dead,
failing or hanging collector does to the figures and to close(); bad values refused.

The exporter sends at close (the client's close flushes), so no test waits for an interval;
those that need the exporter to try before it set OTEL_BSP_MAX_EXPORT_BATCH_SIZE=2, so that
each call (two spans) makes a full batch, which is sent at once.
"""
from __future__ import annotations

import asyncio
import os
import re
import socket
import sys
import threading
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

import pytest
from opentelemetry.proto.common.v1.common_pb2 import KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

import catfacts

from conftest import HANG_S, ROOT, Mock, wait_for
from tls_front import Authority, TLSFront

sys.path.insert(0, str(ROOT / "Tests" / "otlp"))
from collector import Collector  # noqa: E402

HOST_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
HOST_PARENT = "00f067aa0ba902b7"
HOST_TRACEPARENT = f"00-{HOST_TRACE}-{HOST_PARENT}-01"
OTHER_TRACE, OTHER_PARENT = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
OTHER_TRACEPARENT = f"00-{OTHER_TRACE}-{OTHER_PARENT}-00"

#: http.client.request.duration's buckets, as the HTTP semantic conventions advise them.
BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]
CLIENT = 3  # SpanKind CLIENT
UNSET, ERROR = 0, 2  # Status codes

A_DAY_MS = "86400000"

#: A client that sends one request per call: no cache answering, no pages read ahead.
ONE_REQUEST_PER_CALL: Dict[str, Any] = {"cache_max_bytes": 0, "read_ahead": 0}


@pytest.fixture(autouse=True)
def no_otel_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests set the OTEL_* variables they mean; the runner's own are left out."""
    for name in [name for name in os.environ if name.startswith("OTEL_")]:
        monkeypatch.delenv(name)


class LoggingMock(Mock):
    """A mock started with ``--log-requests``: ``requests`` holds (request line, traceparent or
    None) for each request it received, in order."""

    LINE = re.compile(r"request GET (\S+) traceparent=(\S+)")

    def __init__(self, *flags: str) -> None:
        self.requests: List[Tuple[str, Optional[str]]] = []  # before Mock starts the reader
        super().__init__("--log-requests", *flags)

    def _drain(self) -> None:
        for line in self.process.stdout or ():
            match = self.LINE.fullmatch(line.strip())
            if match:
                self.requests.append((match.group(1), None if match.group(2) == "-" else match.group(2)))

    def wait_for_requests(self, count: int) -> List[Tuple[str, Optional[str]]]:
        assert wait_for(lambda: len(self.requests) >= count), self.requests
        assert len(self.requests) == count, self.requests
        return list(self.requests)


@pytest.fixture
def logging_mock() -> Iterator[Any]:
    """A factory of LoggingMocks (flags as for ``make_mock``), all stopped after the test."""
    started: List[LoggingMock] = []

    def make(*flags: str) -> LoggingMock:
        started.append(LoggingMock(*flags))
        return started[-1]

    yield make
    for mock in started:
        mock.stop()


@pytest.fixture
def collector() -> Iterator[Collector]:
    with Collector() as running:
        yield running


def values(attributes: Iterable[KeyValue]) -> Dict[str, Any]:
    """OTLP attributes as a dict of plain values."""
    found: Dict[str, Any] = {}
    for attribute in attributes:
        kind = attribute.value.WhichOneof("value")
        found[attribute.key] = getattr(attribute.value, kind) if kind else None
    return found


def ids(traceparent: Optional[str]) -> Tuple[str, str]:
    """The trace id and span id of a traceparent the library sent (version 00, sampled)."""
    assert traceparent is not None
    match = re.fullmatch(r"00-([0-9a-f]{32})-([0-9a-f]{16})-01", traceparent)
    assert match, traceparent
    return match.group(1), match.group(2)


def closed_port_url() -> str:
    """A loopback URL nothing listens on: connections to it are refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def export_state(client: catfacts.Client) -> catfacts.ExportState:
    state = client.metrics().export
    assert state is not None
    return state


# Spans and trace context


def test_each_call_is_a_span_and_each_attempt_a_child_with_the_ids_the_server_received(
        logging_mock: Any, collector: Collector) -> None:
    mock = logging_mock("--fail-first", "1", "--faults", "503", "--retry-after", "0")
    with catfacts.Client(mock.url, retries=1, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
        client.breeds_page(1, limit=5)  # a 503, then the retry's answer
        client.fact()
    (breeds, first), (retried, second), (fact, third) = mock.wait_for_requests(3)
    assert (breeds, retried, fact) == ("/breeds?page=1&limit=5",) * 2 + ("/fact",)

    spans = {span.span_id.hex(): span for span in collector.spans()}
    assert len(spans) == 5 and collector.errors() == []
    calls = [span for span in spans.values() if not span.parent_span_id]
    assert [(span.name, span.kind, span.status.code) for span in calls] == [
        ("GET /breeds", CLIENT, UNSET), ("GET /fact", CLIENT, UNSET)]
    assert values(calls[0].attributes) == {
        "http.request.method": "GET", "server.address": "127.0.0.1", "server.port": mock.port,
        "catfacts.endpoint": "/breeds", "catfacts.source": "network", "catfacts.attempts": 2}

    attempts: List[Span] = []
    for call, traceparent in ((calls[0], first), (calls[0], second), (calls[1], third)):
        trace_id, span_id = ids(traceparent)
        attempt = spans[span_id]  # the span the request's traceparent named
        assert (attempt.trace_id.hex(), attempt.parent_span_id, attempt.kind) == (trace_id, call.span_id, CLIENT)
        assert call.trace_id.hex() == trace_id
        attempts.append(attempt)
    assert ids(first)[0] != ids(third)[0]  # a call without a trace parent starts a trace of its own

    refused, answered = values(attempts[0].attributes), values(attempts[1].attributes)
    assert (refused["http.response.status_code"], refused["error.type"], refused["http.request.resend_count"]) == (
        503, "503", 0)
    assert refused["catfacts.retry_wait_s"] >= 0 and attempts[0].status.code == ERROR and attempts[0].status.message
    assert (answered["http.response.status_code"], answered["http.request.resend_count"]) == (200, 1)
    assert "error.type" not in answered and attempts[1].status.code == UNSET


def test_calls_inside_trace_parent_are_in_the_hosts_trace_and_the_one_before_is_back_after(
        logging_mock: Any, collector: Collector) -> None:
    mock = logging_mock()
    with catfacts.Client(mock.url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
        with client.trace_parent(HOST_TRACEPARENT):
            client.fact()
            with client.trace_parent(f"00-{OTHER_TRACE}-{OTHER_PARENT}-01"):
                client.fact()
            with pytest.raises(catfacts.ArgumentError):
                client.set_trace_parent("00-not-a-trace")  # refused: the trace parent stays
            client.fact()
        client.fact()
    sent = [ids(traceparent) for _, traceparent in mock.wait_for_requests(4)]
    assert [trace for trace, _ in sent[:3]] == [HOST_TRACE, OTHER_TRACE, HOST_TRACE]
    assert sent[3][0] not in (HOST_TRACE, OTHER_TRACE)

    spans = {span.span_id.hex(): span for span in collector.spans()}
    assert len(spans) == 8
    calls = [spans[spans[attempt].parent_span_id.hex()] for _, attempt in sent]  # each request's call span
    assert [(call.trace_id.hex(), call.parent_span_id.hex()) for call in calls] == [
        (HOST_TRACE, HOST_PARENT), (OTHER_TRACE, OTHER_PARENT), (HOST_TRACE, HOST_PARENT), (sent[3][0], "")]


def test_no_traceparent_without_export_or_a_trace_parent_and_the_hosts_with_one(
        logging_mock: Any, collector: Collector, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)  # "" below wins over it
    mock = logging_mock()
    with catfacts.Client(mock.url, otlp_endpoint="", **ONE_REQUEST_PER_CALL) as client:
        assert client.metrics().export is None
        client.fact()
        with client.trace_parent(HOST_TRACEPARENT):
            client.fact()
    (_, none), (_, hosts) = mock.wait_for_requests(2)
    assert none is None
    trace_id, span_id = ids(hosts)
    assert trace_id == HOST_TRACE and span_id != HOST_PARENT  # the attempt's own id, as when exporting
    assert collector.trace_requests() == [] and collector.metric_requests() == []


@pytest.mark.parametrize("traceparent, why", [
    (HOST_TRACEPARENT[:-1], "it is 54 characters long, expected 55"),
    ("0g" + HOST_TRACEPARENT[2:], "the version is not 2 lowercase hex digits"),
    (f"00-{HOST_TRACE.upper()}-{HOST_PARENT}-01", "the trace id is not 32 lowercase hex digits"),
    (f"00-{'0' * 32}-{HOST_PARENT}-01", "the trace id is all zeros"),
    (f"00-{HOST_TRACE}-{'0' * 16}-01", "the parent id is all zeros"),
    (f"ff-{HOST_TRACE}-{HOST_PARENT}-01", "version ff is forbidden"),
    (f"00_{HOST_TRACE}-{HOST_PARENT}-01", "the fields must be separated by '-'"),
])
def test_a_malformed_traceparent_is_refused_saying_what_is_wrong(client: catfacts.Client, traceparent: str,
                                                                 why: str) -> None:
    with pytest.raises(ValueError) as refused:
        client.set_trace_parent(traceparent)
    assert isinstance(refused.value, catfacts.ArgumentError)
    assert why in str(refused.value) and "traceparent" in str(refused.value)
    with pytest.raises(catfacts.ArgumentError, match=re.escape(why)), client.trace_parent(traceparent):
        pass


def test_a_traceparent_that_is_no_string_is_a_type_error(client: catfacts.Client) -> None:
    with pytest.raises(TypeError, match=r"^traceparent=b'00-4bf92f.*: must be a str, not bytes$"):
        client.set_trace_parent(HOST_TRACEPARENT.encode())  # type: ignore[arg-type]
    with pytest.raises(catfacts.ArgumentError, match=r"^invalid argument: traceparent=.00-4bf92f.*: contains a NUL character$"):
        client.set_trace_parent(HOST_TRACEPARENT + "\0")
    client.set_trace_parent(None)  # clearing what was never set is fine


def call_parents(collector: Collector) -> List[Tuple[str, str]]:
    """(trace id, parent span id) of each call span received (attempt spans left out)."""
    spans = collector.spans()
    attempts = {span.parent_span_id for span in spans if span.parent_span_id}
    calls = [span for span in spans if span.span_id in attempts]
    return [(span.trace_id.hex(), span.parent_span_id.hex()) for span in calls]


def test_each_thread_has_its_own_trace_parent_and_none_leaks_to_other_calls(
        logging_mock: Any, collector: Collector) -> None:
    mock = logging_mock()
    with catfacts.Client(mock.url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
        inside = threading.Barrier(2)

        def traced(traceparent: str) -> None:
            with client.trace_parent(traceparent):
                inside.wait()  # both blocks open at once
                client.fact()
                inside.wait()

        threads = [threading.Thread(target=traced, args=(parent,)) for parent in (HOST_TRACEPARENT, OTHER_TRACEPARENT)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        client.fact()  # after both blocks: in a trace of its own
    sent = [traceparent for _, traceparent in mock.wait_for_requests(3)]
    assert sorted(parent[3:35] for parent in sent[:2]) == sorted([HOST_TRACE, OTHER_TRACE])
    assert sent[2] is not None and sent[2][3:35] not in (HOST_TRACE, OTHER_TRACE)
    # OTHER_TRACEPARENT is not sampled: its call is not exported.
    assert sorted(call_parents(collector)) == sorted([(HOST_TRACE, HOST_PARENT), (sent[2][3:35], "")])


def test_overlapping_tasks_each_keep_their_own_trace_parent(logging_mock: Any, collector: Collector) -> None:
    """The issue's case: two AsyncClient tasks, each in its own trace_parent block, overlapping;
    after both blocks end, a later call joins neither trace."""
    mock = logging_mock()
    sampled_other = f"00-{OTHER_TRACE}-{OTHER_PARENT}-01"

    async def main() -> None:
        async with catfacts.AsyncClient(mock.url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
            first_in, second_in = asyncio.Event(), asyncio.Event()

            async def task(traceparent: str, mine: asyncio.Event, other: asyncio.Event) -> None:
                with client.trace_parent(traceparent):
                    mine.set()
                    await other.wait()
                    await client.fact()
                    await client.fact()

            await asyncio.gather(task(HOST_TRACEPARENT, first_in, second_in), task(sampled_other, second_in, first_in))
            await client.fact()

    asyncio.run(main())
    sent = [traceparent for _, traceparent in mock.wait_for_requests(5)]
    assert sorted(parent[3:35] for parent in sent[:4]) == sorted([HOST_TRACE] * 2 + [OTHER_TRACE] * 2)
    assert sent[4] is not None and sent[4][3:35] not in (HOST_TRACE, OTHER_TRACE)
    assert sorted(call_parents(collector)) == sorted([(HOST_TRACE, HOST_PARENT)] * 2 + [(OTHER_TRACE, OTHER_PARENT)] * 2
                                                     + [(sent[4][3:35], "")])


def test_an_unsampled_parent_is_sent_on_unsampled_and_its_spans_are_not_exported(
        logging_mock: Any, collector: Collector) -> None:
    mock = logging_mock()
    with catfacts.Client(mock.url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
        with client.trace_parent(OTHER_TRACEPARENT):  # flags 00
            client.fact()
        with client.trace_parent(HOST_TRACEPARENT, "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"):
            client.fact()
    (_, unsampled), (_, sampled) = mock.wait_for_requests(2)
    assert re.fullmatch(f"00-{OTHER_TRACE}-[0-9a-f]{{16}}-00", unsampled or ""), unsampled
    assert ids(sampled)[0] == HOST_TRACE
    spans = collector.spans()
    assert {span.trace_id.hex() for span in spans} == {HOST_TRACE} and len(spans) == 2
    assert {span.trace_state for span in spans} == {"congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"}
    assert collector.metric_requests()  # the metrics go whatever the sampling


def test_a_tracestate_outside_printable_ascii_is_refused(client: catfacts.Client) -> None:
    with pytest.raises(catfacts.ArgumentError, match="tracestate .* outside printable ASCII at byte 5"), \
            client.trace_parent(HOST_TRACEPARENT, "congo\u00e9"):
        pass


def test_the_span_current_in_opentelemetry_is_each_calls_parent_without_code(
        logging_mock: Any, collector: Collector) -> None:
    sdk_trace = pytest.importorskip("opentelemetry.sdk.trace")
    from opentelemetry import trace
    provider = sdk_trace.TracerProvider()
    tracer = provider.get_tracer("otlp-test")
    mock = logging_mock()
    with catfacts.Client(mock.url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client, \
            catfacts.Client(mock.url, otel_context=False, **ONE_REQUEST_PER_CALL) as ignoring:
        with tracer.start_as_current_span("handler") as span:
            host = span.get_span_context()
            client.fact()
            ignoring.fact()
            with client.trace_parent(None):  # a block says "no parent" over OpenTelemetry's
                client.fact()
        client.fact()  # no span current: a trace of its own
    assert trace.get_current_span() is trace.INVALID_SPAN
    sent = [traceparent for _, traceparent in mock.wait_for_requests(4)]
    host_trace, host_span = f"{host.trace_id:032x}", f"{host.span_id:016x}"
    assert ids(sent[0])[0] == host_trace
    assert sent[1] is None  # otel_context=False, no export, no parent: no header at all
    assert ids(sent[2])[0] != host_trace and ids(sent[3])[0] != host_trace
    assert call_parents(collector)[0] == (host_trace, host_span)
    assert [parent for _, parent in call_parents(collector)[1:]] == ["", ""]


# Metrics


def test_metrics_have_the_conventions_names_units_attributes_and_exact_bucket_counts(
        mock_url: str, collector: Collector, monkeypatch: pytest.MonkeyPatch) -> None:
    """Export turned on by the environment alone, as a host would: every figure against the
    requests sent (their times from on_request, which reads the same clock)."""
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)
    monkeypatch.setenv("OTEL_SERVICE_NAME", "otlp-test")
    monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=ci,service.name=ignored")
    monkeypatch.setenv("OTEL_METRIC_EXPORT_INTERVAL", A_DAY_MS)  # the close's metrics request is the only one
    times: Dict[str, List[float]] = {}
    with catfacts.Client(mock_url, retries=0, **ONE_REQUEST_PER_CALL) as client:
        client.on_request(lambda endpoint, ms, ok: times.setdefault(endpoint, []).append(ms / 1000))
        for _ in range(3):
            client.breeds_page(1, limit=5)
        for _ in range(2):
            client.facts_page(1, limit=5)
        client.fact()
        assert wait_for(lambda: sum(map(len, times.values())) == 6)
        stats = client.metrics()
        state = stats.export
        assert state is not None and (state.endpoint, state.dropped, state.warnings) == (collector.url, 0, ())
    requests = {"/breeds": 3, "/facts": 2, "/fact": 1}
    assert {endpoint: len(seconds) for endpoint, seconds in times.items()} == requests

    (request,) = collector.metric_requests()
    assert collector.errors() == []
    (resource_metrics,) = request.resource_metrics
    resource = values(resource_metrics.resource.attributes)
    assert {key: resource[key] for key in ("service.name", "os.type", "os.version", "telemetry.sdk.name",
                                           "telemetry.sdk.language", "telemetry.sdk.version",
                                           "deployment.environment")} == {
        "service.name": "otlp-test", "os.type": "linux", "os.version": stats.os.kernel,
        "telemetry.sdk.name": "catfacts", "telemetry.sdk.language": "swift",
        "telemetry.sdk.version": catfacts.library_version(), "deployment.environment": "ci"}
    assert resource["host.arch"] == {"x86_64": "amd64", "aarch64": "arm64"}.get(stats.device.arch, stats.device.arch)
    (scope_metrics,) = resource_metrics.scope_metrics
    assert (scope_metrics.scope.name, scope_metrics.scope.version) == ("catfacts", catfacts.library_version())
    metrics = {metric.name: metric for metric in scope_metrics.metrics}

    duration = metrics["http.client.request.duration"]
    assert duration.unit == "s" and duration.histogram.aggregation_temporality == 2  # cumulative
    port = int(mock_url.rsplit(":", 1)[1])
    for point in duration.histogram.data_points:
        labels = values(point.attributes)
        endpoint = labels["catfacts.endpoint"]
        assert labels == {"http.request.method": "GET", "server.address": "127.0.0.1", "server.port": port,
                          "catfacts.endpoint": endpoint, "http.response.status_code": 200,
                          "catfacts.client.id": labels["catfacts.client.id"]}
        assert isinstance(labels["catfacts.client.id"], int)
        expected = [0] * (len(BOUNDS) + 1)
        for seconds in times[endpoint]:
            expected[next((index for index, bound in enumerate(BOUNDS) if seconds <= bound), len(BOUNDS))] += 1
        assert list(point.explicit_bounds) == BOUNDS
        assert (point.count, list(point.bucket_counts)) == (requests[endpoint], expected)
        assert point.sum == pytest.approx(sum(times[endpoint]), rel=1e-6)
    assert sorted(values(point.attributes)["catfacts.endpoint"] for point in duration.histogram.data_points) == sorted(
        requests)

    def by_endpoint(name: str) -> Dict[str, int]:
        metric = metrics[name]
        assert (metric.sum.aggregation_temporality, metric.sum.is_monotonic) == (2, True), name
        return {values(point.attributes)["catfacts.endpoint"]: point.as_int for point in metric.sum.data_points}

    assert by_endpoint("catfacts.client.requests") == requests
    assert by_endpoint("catfacts.client.errors") == by_endpoint("catfacts.client.retries") == dict.fromkeys(requests, 0)
    assert by_endpoint("catfacts.client.cache_hits") == dict.fromkeys(requests, 0)
    assert metrics["catfacts.client.received_bytes"].unit == "By"
    received = {endpoint: stats.endpoint(endpoint).bytes for endpoint in requests}  # type: ignore[union-attr]
    assert by_endpoint("catfacts.client.received_bytes") == received and all(received.values())
    memory = metrics["process.memory.usage"]
    assert (memory.unit, len(memory.gauge.data_points)) == ("By", 1) and memory.gauge.data_points[0].as_int > 0

    spans = collector.spans()
    assert len(spans) == 12 and len({span.trace_id for span in spans if not span.parent_span_id}) == 6


def test_each_signal_goes_where_its_own_variables_say_and_the_status_shows_it(
        mock_url: str, collector: Collector, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.url)
    monkeypatch.setenv("OTEL_METRICS_EXPORTER", "none")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_RETRY_ENABLED", "true")
    with Collector() as traces:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", f"{traces.url}/v1/traces")
        with catfacts.Client(mock_url, **ONE_REQUEST_PER_CALL) as client:
            client.fact()
            state = export_state(client)
        assert (state.endpoint, state.traces_endpoint, state.metrics_endpoint) == (
            collector.url, f"{traces.url}/v1/traces", None)
        assert state.warnings == ("OTEL_EXPORTER_OTLP_RETRY_ENABLED ignored: the library does not support it",)
        assert len(traces.spans()) == 2 and traces.metric_requests() == []
    assert collector.spans() == [] and collector.metric_requests() == []
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    with catfacts.Client(mock_url, **ONE_REQUEST_PER_CALL) as client:
        assert client.metrics().export is None


def test_a_bad_otel_variable_is_ignored_with_a_warning_naming_it(collector: Collector,
                                                                 monkeypatch: pytest.MonkeyPatch, mock_url: str) -> None:
    monkeypatch.setenv("OTEL_BSP_MAX_QUEUE_SIZE", "lots")
    with catfacts.Client(mock_url, otlp_endpoint=collector.url) as client:
        (warning,) = export_state(client).warnings
    assert warning.startswith("OTEL_BSP_MAX_QUEUE_SIZE 'lots' ignored")


def test_export_state_reads_the_librarys_export_block() -> None:
    base = {"endpoints": [], "device": {"make": "m", "model": "m", "arch": "x86_64", "cpus": 2},
            "os": {"name": "Linux", "version": "12", "kernel": "6.1"}, "app": {"name": "a", "library_version": "0.1.0"},
            "memory": {"resident_bytes": 1, "peak_resident_bytes": 2}, "online": True}
    assert catfacts.Metrics.from_json(base).export is None
    assert catfacts.Metrics.from_json({**base, "export": None}).export is None
    refused = {"endpoint": None, "sent": 0, "dropped": 0, "failures": 0, "queued": 0,
               "warnings": ["OTEL_EXPORTER_OTLP_ENDPOINT ignored: 'ftp://x' uses scheme 'ftp'"]}
    assert catfacts.Metrics.from_json({**base, "export": refused}).export == catfacts.ExportState(
        None, 0, 0, 0, 0, ("OTEL_EXPORTER_OTLP_ENDPOINT ignored: 'ftp://x' uses scheme 'ftp'",))
    working = {"endpoint": "http://127.0.0.1:4318", "sent": 12, "dropped": 3, "failures": 1, "queued": 4,
               "warnings": []}
    assert catfacts.Metrics.from_json({**base, "export": working}).export == catfacts.ExportState(
        endpoint="http://127.0.0.1:4318", sent=12, dropped=3, failures=1, queued=4, warnings=())


# Encodings, compression and the shared exporter


PROTOBUF, JSON = "application/x-protobuf", "application/json"


def test_payloads_are_protobuf_by_default_and_json_where_a_signal_asks(
        mock_url: str, collector: Collector, monkeypatch: pytest.MonkeyPatch) -> None:
    with catfacts.Client(mock_url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
        client.fact()
    assert sorted(collector.formats()) == [("/v1/metrics", PROTOBUF, "identity"), ("/v1/traces", PROTOBUF, "identity")]
    assert len(collector.spans()) == 2 and collector.errors() == []

    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "http/protobuf")
    with Collector() as second, catfacts.Client(mock_url, otlp_endpoint=second.url, **ONE_REQUEST_PER_CALL) as client:
        client.fact()
        state = export_state(client)
        assert (state.warnings, state.traces_endpoint, state.metrics_endpoint) == (
            (), f"{second.url}/v1/traces", f"{second.url}/v1/metrics")
    assert sorted(second.formats()) == [("/v1/metrics", PROTOBUF, "identity"), ("/v1/traces", JSON, "identity")]
    # The same spans either way: the call and its attempt, with the same attributes.
    assert [len(second.spans()), second.errors()] == [2, []]
    assert [values(span.attributes).keys() for span in second.spans()] == [
        values(span.attributes).keys() for span in collector.spans()]


def test_gzip_compresses_what_the_environment_says_and_a_signal_may_turn_it_off(
        mock_url: str, collector: Collector, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", "none")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "http/json")
    with catfacts.Client(mock_url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
        client.fact()
    assert sorted(collector.formats()) == [("/v1/metrics", JSON, "gzip"), ("/v1/traces", PROTOBUF, "identity")]
    assert collector.metrics()["catfacts.client.requests"].sum.data_points[0].as_int == 1

    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", "zstd")
    with Collector() as second, catfacts.Client(mock_url, otlp_endpoint=second.url, **ONE_REQUEST_PER_CALL) as client:
        client.fact()
        assert export_state(client).warnings == ("OTEL_EXPORTER_OTLP_TRACES_COMPRESSION 'zstd' ignored: expected gzip or none",)
    assert sorted(second.formats()) == [("/v1/metrics", JSON, "gzip"), ("/v1/traces", PROTOBUF, "gzip")]
    assert len(second.spans()) == 2 and second.errors() == []


def threads() -> int:
    """This process's threads, as the kernel counts them."""
    return len(os.listdir("/proc/self/task"))


def test_clients_share_one_exporter_thread_and_keep_their_metrics_apart(
        mock_url: str, collector: Collector, monkeypatch: pytest.MonkeyPatch) -> None:
    """20 clients exporting to one collector run one thread more than 20 that do not (each
    client's calls have a thread of the library's either way), and the last close sends every
    client's metrics, each its own stream; 1,000 opened and closed leave no thread behind.
    Nothing is sent before the closes (a day's delay and interval), so the collector's own
    threads, one per connection, do not enter the counts."""
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", A_DAY_MS)
    monkeypatch.setenv("OTEL_METRIC_EXPORT_INTERVAL", A_DAY_MS)

    def twenty_calling(endpoint: str) -> List[catfacts.Client]:
        clients = [catfacts.Client(mock_url, otlp_endpoint=endpoint, **ONE_REQUEST_PER_CALL) for _ in range(20)]
        for number, client in enumerate(clients):
            for _ in range(number % 3 + 1):
                client.fact()
        return clients

    before = threads()
    quiet = twenty_calling("")
    without_export = threads()
    for client in quiet:
        client.close()
    assert wait_for(lambda: threads() <= before), (threads(), before)
    clients = twenty_calling(collector.url)
    assert threads() <= without_export + 1, (threads(), without_export)
    assert [export_state(client).queued for client in clients] == [2 * (number % 3 + 1) for number in range(20)]
    for client in clients:
        client.close()
    assert wait_for(lambda: threads() <= before), (threads(), before)
    assert len(collector.spans()) == sum(2 * (number % 3 + 1) for number in range(20))
    (request,) = collector.metric_requests()  # the last close's, with every client's figures
    (resource_metrics,) = request.resource_metrics
    (scope_metrics,) = resource_metrics.scope_metrics
    metrics = {metric.name: metric for metric in scope_metrics.metrics}
    calls = {values(point.attributes)["catfacts.client.id"]: point.as_int
             for point in metrics["catfacts.client.requests"].sum.data_points}
    assert sorted(calls.values()) == sorted(number % 3 + 1 for number in range(20)) and len(calls) == 20
    durations = metrics["http.client.request.duration"].histogram.data_points
    assert sorted(values(point.attributes)["catfacts.client.id"] for point in durations) == sorted(calls)

    many = [catfacts.Client(mock_url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) for _ in range(1000)]
    assert threads() <= before + 1
    for client in many:
        client.close()
    assert wait_for(lambda: threads() <= before), (threads(), before)


# A collector that is down, failing or hanging


def test_spans_go_out_when_due_though_no_batch_filled_and_no_metrics_are_due(
        mock_url: str, collector: Collector, monkeypatch: pytest.MonkeyPatch) -> None:
    """The exporter's thread sleeps until the next metrics export (a day here) while nothing is
    queued: the first span queued after that must wake it, so that spans leave
    OTEL_BSP_SCHEDULE_DELAY after they end, not a day later (nor only at close)."""
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "10")
    monkeypatch.setenv("OTEL_METRIC_EXPORT_INTERVAL", A_DAY_MS)
    with catfacts.Client(mock_url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
        client.fact()
        assert wait_for(lambda: len(collector.spans()) == 2), collector.spans()  # the call and its attempt
        assert wait_for(lambda: export_state(client).sent == 2), export_state(client)
        assert collector.metric_requests() == []  # not due yet: the spans went out on their own


def test_exports_reuse_one_connection_to_the_collector(
        mock_url: str, collector: Collector, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each signal keeps its connection alive between exports, as OpenTelemetry's SDKs do: six
    trace requests (each call's spans sent before the next call) come over one connection, not six."""
    monkeypatch.setenv("OTEL_BSP_SCHEDULE_DELAY", "1")
    monkeypatch.setenv("OTEL_METRIC_EXPORT_INTERVAL", A_DAY_MS)
    with catfacts.Client(mock_url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
        for number in range(1, 7):
            client.fact()
            assert wait_for(lambda: len(collector.trace_requests()) == number), collector.summary()
        assert collector.connections() == 1, collector.summary()
    # The close's metrics request: the metrics signal's own connection.
    assert len(collector.metric_requests()) == 1 and collector.connections() == 2, collector.summary()


def test_a_dead_collector_drops_the_oldest_spans_past_the_bound_and_counts_them(
        mock_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Queue bound 4, 5 calls of one request each: 10 spans, none delivered, so exactly 6
    dropped and 4 queued (a batch being sent stays queued, so the count does not depend on
    when the exporter tries)."""
    monkeypatch.setenv("OTEL_BSP_MAX_QUEUE_SIZE", "4")  # the batch size follows it down: a full batch at once
    dead = closed_port_url()
    with catfacts.Client(mock_url, retries=0, otlp_endpoint=dead, **ONE_REQUEST_PER_CALL) as client:
        for _ in range(5):
            assert client.fact().text
        state = export_state(client)
        assert (state.endpoint, state.sent, state.dropped, state.queued) == (dead, 0, 6, 4)
        assert wait_for(lambda: export_state(client).failures >= 1), export_state(client)
        assert client.metrics().endpoint("/fact").errors == 0  # type: ignore[union-attr]


@pytest.mark.parametrize("trusted", [True, False], ids=["its CA given", "another CA given"])
def test_a_collector_with_its_own_ca_takes_spans_when_the_certificate_variable_names_that_ca(
        mock_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, trusted: bool) -> None:
    """https to a collector whose certificate chains to a CA of the test's own (no system CA
    knows it): OTEL_EXPORTER_OTLP_CERTIFICATE naming that CA is enough; naming another CA,
    every export fails the handshake and is counted, and nothing reaches the collector."""
    authority = Authority(tmp_path)
    monkeypatch.setenv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "2")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_CERTIFICATE", str(authority.ca if trusted else authority.other_ca))
    with Collector() as collector:
        host, port = collector.url.removeprefix("http://").rsplit(":", 1)
        front = TLSFront(authority, (host, int(port)))
        try:
            with catfacts.Client(mock_url, retries=0, otlp_endpoint=front.url, **ONE_REQUEST_PER_CALL) as client:
                client.fact()
                if trusted:
                    assert wait_for(lambda: len(collector.spans()) >= 2), export_state(client)
                    assert wait_for(lambda: export_state(client).sent >= 2), export_state(client)
                    assert export_state(client).failures == 0
                else:
                    assert wait_for(lambda: export_state(client).failures >= 1), export_state(client)
                    assert export_state(client).sent == 0
        finally:
            front.stop()
        assert (len(collector.spans()) >= 2) == trusted
        assert front.handshakes >= 1 if trusted else front.handshakes == 0


def test_a_collector_answering_500_counts_failures_and_keeps_the_spans(
        mock_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "2")
    with Collector("500") as failing, \
            catfacts.Client(mock_url, retries=0, otlp_endpoint=failing.url, **ONE_REQUEST_PER_CALL) as client:
        client.fact()
        assert wait_for(lambda: export_state(client).failures >= 1), export_state(client)
        state = export_state(client)
        assert (state.sent, state.dropped, state.queued) == (0, 0, 2)
        assert failing.errors() == [] and len(failing.spans()) >= 2  # decoded, then answered 500


def test_close_returns_while_the_collector_hangs_and_calls_go_on_meanwhile(
        mock_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "2")
    with Collector("hang") as hanging:
        client = catfacts.Client(mock_url, retries=0, otlp_endpoint=hanging.url, **ONE_REQUEST_PER_CALL)
        client.fact()
        assert hanging.wait_for(lambda: hanging.trace_requests())  # the exporter waits for an answer now
        assert client.fact().text and export_state(client).queued == 4
        closing = threading.Thread(target=client.close)
        closing.start()
        closing.join(HANG_S)
        assert not closing.is_alive(), "close() did not return with the collector hanging"


# Options


@pytest.mark.parametrize("endpoint, why", [
    ("ftp://127.0.0.1:4318", "uses scheme 'ftp'; only http and https are accepted"),
    ("http://127.0.0.1:4318/a b", "otlp_endpoint contains a control character or a space at byte 23"),
    ("127.0.0.1:4318", "otlp_endpoint='127.0.0.1:4318': is not a URL"),
    ("http://" + "a" * 2048, "otlp_endpoint is 2055 bytes long; at most 2048"),
])
def test_a_bad_otlp_endpoint_is_refused_naming_it(mock_url: str, endpoint: str, why: str) -> None:
    for client in (catfacts.Client, catfacts.AsyncClient):
        with pytest.raises(catfacts.ArgumentError, match=re.escape(why)) as refused:
            client(mock_url, otlp_endpoint=endpoint)
        assert "otlp_endpoint" in str(refused.value)
    with pytest.raises(TypeError, match=re.escape("otlp_endpoint=b'http://127.0.0.1:4318': must be a str, not bytes")):
        catfacts.Client(mock_url, otlp_endpoint=b"http://127.0.0.1:4318")  # type: ignore[arg-type]


def test_async_client_exports_and_puts_its_calls_in_the_hosts_trace(mock_url: str, collector: Collector) -> None:
    async def main() -> None:
        async with catfacts.AsyncClient(mock_url, otlp_endpoint=collector.url, **ONE_REQUEST_PER_CALL) as client:
            with client.trace_parent(HOST_TRACEPARENT):
                await asyncio.gather(*(client.fact() for _ in range(3)))
            state = (await client.metrics()).export
            assert state is not None and state.endpoint == collector.url

    asyncio.run(main())
    calls = [span for span in collector.spans() if span.parent_span_id.hex() == HOST_PARENT]
    assert [(span.name, span.trace_id.hex()) for span in calls] == [("GET /fact", HOST_TRACE)] * 3
    assert len(collector.spans()) == 6
