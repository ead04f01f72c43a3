"""The test collector's own tests: a payload written by hand from the OTLP/JSON spec decodes and
is summed up exactly; malformed ones (bad ids, wrong types, unknown or snake_case fields, not
JSON) are answered 400 and counted; the 500 and hang modes answer as they say; the command
line prints its URL and serves the same."""
from __future__ import annotations

import copy
import gzip
import http.client
import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest

from collector import Collector, HANG_S

COLLECTOR = Path(__file__).resolve().parent / "collector.py"

TRACE_ID = "5B8EFFF798038103D269B633813FC60C"  # upper case: OTLP/JSON hex is case-insensitive
CALL_SPAN = "eee19b7ec3c1b174"
ATTEMPT_SPAN = "eee19b7ec3c1b175"
NANOS = "1544712660300000000"  # 64-bit integers as decimal strings...


def attribute(key: str, value: Dict[str, Any]) -> Dict[str, Any]:
    return {"key": key, "value": value}


RESOURCE = {"attributes": [attribute("service.name", {"stringValue": "collector-test"}),
                           attribute("telemetry.sdk.name", {"stringValue": "catfacts"})]}
SCOPE = {"name": "catfacts", "version": "0.1.0"}

TRACES: Dict[str, Any] = {"resourceSpans": [{"resource": RESOURCE, "scopeSpans": [{"scope": SCOPE, "spans": [
    {"traceId": TRACE_ID, "spanId": CALL_SPAN, "parentSpanId": "", "name": "GET /breeds", "kind": 3,
     "startTimeUnixNano": NANOS, "endTimeUnixNano": 1544712660400000000,  # ...or numbers
     "attributes": [attribute("catfacts.source", {"stringValue": "network"})], "status": {}},
    {"traceId": TRACE_ID, "spanId": ATTEMPT_SPAN, "parentSpanId": CALL_SPAN, "name": "GET", "kind": 3,
     "startTimeUnixNano": NANOS, "endTimeUnixNano": NANOS,
     "attributes": [attribute("http.response.status_code", {"intValue": "503"}),
                    attribute("error.type", {"stringValue": "503"})],
     "events": [{"timeUnixNano": NANOS, "name": "retry wait", "attributes": [
         attribute("catfacts.retry.wait_s", {"doubleValue": 0.25})]}],
     "links": [{"traceId": TRACE_ID, "spanId": CALL_SPAN}],
     "status": {"code": 2, "message": "HTTP 503"}}]}]}]}

BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

METRICS: Dict[str, Any] = {"resourceMetrics": [{"resource": RESOURCE, "scopeMetrics": [{"scope": SCOPE, "metrics": [
    {"name": "http.client.request.duration", "unit": "s", "histogram": {"aggregationTemporality": 2, "dataPoints": [
        {"startTimeUnixNano": NANOS, "timeUnixNano": NANOS, "count": "3", "sum": 0.021,
         "bucketCounts": ["0", "2", "1"] + ["0"] * 12, "explicitBounds": BOUNDS,
         "attributes": [attribute("catfacts.endpoint", {"stringValue": "/breeds"})],
         "exemplars": [{"timeUnixNano": NANOS, "asDouble": 0.009, "traceId": TRACE_ID, "spanId": CALL_SPAN}]},
        {"startTimeUnixNano": NANOS, "timeUnixNano": NANOS, "count": 2, "sum": 0.03,
         "bucketCounts": [0, 0, 2] + [0] * 12, "explicitBounds": BOUNDS,
         "attributes": [attribute("catfacts.endpoint", {"stringValue": "/facts"})]}]}},
    {"name": "catfacts.client.requests", "unit": "{request}", "sum": {
        "aggregationTemporality": 2, "isMonotonic": True, "dataPoints": [
            {"startTimeUnixNano": NANOS, "timeUnixNano": NANOS, "asInt": "3"},
            {"startTimeUnixNano": NANOS, "timeUnixNano": NANOS, "asInt": "2"}]}},
    {"name": "process.memory.usage", "unit": "By", "gauge": {"dataPoints": [
        {"timeUnixNano": NANOS, "asInt": "52428800"}]}},
    {"name": "catfacts.ratio", "gauge": {"dataPoints": [{"timeUnixNano": NANOS, "asDouble": 0.5}]}}]}]}]}


def request(url: str, method: str, path: str, body: bytes = b"", content_type: str = "application/json",
            chunked: bool = False, encoding: str = "identity") -> Tuple[int, bytes]:
    """One request to the collector at ``url``: its status and body (``chunked``: the body sent
    in chunks of 100 bytes, Transfer-Encoding: chunked)."""
    host, port = url[len("http://"):].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=HANG_S)
    try:
        headers = {"Content-Type": content_type} if body else {}
        if encoding != "identity":
            headers["Content-Encoding"] = encoding
        if chunked:
            chunks = iter([body[start:start + 100] for start in range(0, len(body), 100)])
            connection.request(method, path, chunks, headers, encode_chunked=True)
        else:
            connection.request(method, path, body, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def post(url: str, path: str, payload: Any, content_type: str = "application/json") -> Tuple[int, bytes]:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return request(url, "POST", path, body, content_type)


def test_a_payload_written_from_the_spec_decodes_and_is_summed_up_exactly() -> None:
    with Collector() as collector:
        assert post(collector.url, "/v1/traces", TRACES) == (200, b"{}")
        assert post(collector.url, "/v1/metrics", METRICS) == (200, b"{}")
        status, summary = request(collector.url, "GET", "/_collector/summary")
        assert status == 200
        trace = TRACE_ID.lower()
        assert summary.decode().splitlines() == [
            "metrics_requests 1", "trace_requests 1", "spans 2", "errors 0", "protobuf_requests 0", "gzip_requests 0",
            f"span {trace} {CALL_SPAN} - 3 0 GET /breeds",
            f"span {trace} {ATTEMPT_SPAN} {CALL_SPAN} 3 2 GET",
            "metric http.client.request.duration s 2 5",
            "metric catfacts.client.requests {request} 2 5",
            "metric process.memory.usage By 1 52428800",
            "metric catfacts.ratio - 1 0.5"]
        spans = collector.spans()
        assert [span.name for span in spans] == ["GET /breeds", "GET"]
        assert spans[1].events[0].attributes[0].value.double_value == 0.25
        assert spans[0].end_time_unix_nano == 1544712660400000000
        duration = collector.metrics()["http.client.request.duration"].histogram.data_points[0]
        assert (list(duration.bucket_counts), list(duration.explicit_bounds)) == ([0, 2, 1] + [0] * 12, BOUNDS)
        assert duration.exemplars[0].trace_id.hex() == trace


def test_received_answers_every_request_as_otlp_json_with_hex_ids() -> None:
    with Collector() as collector:
        post(collector.url, "/v1/traces", TRACES)
        status, body = request(collector.url, "GET", "/_collector/received")
        received = json.loads(body)
        assert status == 200 and received["metrics"] == [] and received["errors"] == []
        spans = received["traces"][0]["resourceSpans"][0]["scopeSpans"][0]["spans"]
        assert [(span["traceId"], span["spanId"], span.get("parentSpanId")) for span in spans] == [
            (TRACE_ID.lower(), CALL_SPAN, None), (TRACE_ID.lower(), ATTEMPT_SPAN, CALL_SPAN)]
        assert spans[1]["links"] == [{"traceId": TRACE_ID.lower(), "spanId": CALL_SPAN}]


def first_span(payload: Dict[str, Any]) -> Dict[str, Any]:
    span: Dict[str, Any] = payload["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    return span


def spoiled(change: Callable[[Dict[str, Any]], None]) -> Dict[str, Any]:
    """The trace payload with ``change`` applied to its first span."""
    payload = copy.deepcopy(TRACES)
    change(first_span(payload))
    return payload


MALFORMED: List[Tuple[str, Any, str, str]] = [
    ("a trace id one digit short", spoiled(lambda span: span.update(traceId=TRACE_ID[1:])),
     "/v1/traces", "traceId '" + TRACE_ID[1:] + "' has 31 hex digits, not 32"),
    ("a span id in base64", spoiled(lambda span: span.update(spanId="7uGbfsPBsXQ=")),
     "/v1/traces", "spanId '7uGbfsPBsXQ=' has 12 hex digits, not 16"),
    ("a span id that is not hex", spoiled(lambda span: span.update(spanId="eee19b7ec3c1b17g")),
     "/v1/traces", "is not hex"),
    ("a parent id that is a number", spoiled(lambda span: span.update(parentSpanId=12)),
     "/v1/traces", "an id is a hex string, not int"),
    ("an all-zero trace id", spoiled(lambda span: span.update(traceId="0" * 32)),
     "/v1/traces", "spans[0]: traceId is missing or all zeros"),
    ("a missing span id", spoiled(lambda span: span.pop("spanId")),
     "/v1/traces", "spanId is missing or all zeros"),
    ("a name that is a number", spoiled(lambda span: span.update(name=5)),
     "/v1/traces", "name"),
    ("a kind that is no SpanKind", spoiled(lambda span: span.update(kind="CALL")),
     "/v1/traces", "kind"),
    ("a time that is no number", spoiled(lambda span: span.update(startTimeUnixNano="soon")),
     "/v1/traces", "startTimeUnixNano"),
    ("an unknown field", spoiled(lambda span: span.update(colour="red")),
     "/v1/traces", 'no field named "colour"'),
    ("a snake_case field name", spoiled(lambda span: span.update(end_time_unix_nano=span.pop("endTimeUnixNano"))),
     "/v1/traces", ".end_time_unix_nano: OTLP/JSON keys are lowerCamelCase"),
    ("metrics sent to the traces path", METRICS, "/v1/traces", 'no field named "resourceMetrics"'),
    ("a key twice", b'{"resourceSpans": [], "resourceSpans": []}', "/v1/traces", "the key 'resourceSpans' appears twice"),
    ("a bare NaN", b'{"resourceMetrics": NaN}', "/v1/metrics", "NaN is not JSON"),
    ("not JSON", b'{"resourceMetrics": [', "/v1/metrics", "the body is not JSON"),
    ("a JSON array", b"[]", "/v1/metrics", "the body is a JSON list, not an object"),
]


@pytest.mark.parametrize("payload, path, reason", [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_a_malformed_payload_is_answered_400_and_counted(payload: Any, path: str, reason: str) -> None:
    with Collector() as collector:
        status, body = post(collector.url, path, payload)
        assert status == 400, body
        assert reason in json.loads(body)["message"]
        assert len(collector.errors()) == 1 and reason in collector.errors()[0], collector.errors()
        assert collector.trace_requests() == [] and collector.metric_requests() == []
        assert request(collector.url, "GET", "/_collector/summary")[1].decode().splitlines()[:4] == [
            "metrics_requests 0", "trace_requests 0", "spans 0", "errors 1"]


def test_a_chunked_body_decodes_as_a_whole_one() -> None:
    with Collector() as collector:
        assert request(collector.url, "POST", "/v1/traces", json.dumps(TRACES).encode(), chunked=True) == (200, b"{}")
        assert [span.span_id.hex() for span in collector.spans()] == [CALL_SPAN, ATTEMPT_SPAN]


def protobuf(payload: Dict[str, Any], kind: Any) -> bytes:
    """``payload`` (OTLP/JSON, as above) in protobuf's wire format."""
    from collector import _ids_to_base64
    from google.protobuf import json_format
    message = kind()
    json_format.ParseDict(_ids_to_base64(payload, "$"), message)
    return bytes(message.SerializeToString())


def test_protobuf_and_gzip_bodies_decode_as_the_same_json_does() -> None:
    from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    traces, metrics = protobuf(TRACES, ExportTraceServiceRequest), protobuf(METRICS, ExportMetricsServiceRequest)
    with Collector() as collector:
        assert post(collector.url, "/v1/traces", traces, "application/x-protobuf") == (200, b"{}")
        assert request(collector.url, "POST", "/v1/metrics", gzip.compress(metrics), "application/x-protobuf",
                       encoding="gzip") == (200, b"{}")
        assert request(collector.url, "POST", "/v1/traces", gzip.compress(json.dumps(TRACES).encode()),
                       encoding="gzip") == (200, b"{}")
        assert collector.errors() == []
        assert [span.span_id.hex() for span in collector.spans()] == [CALL_SPAN, ATTEMPT_SPAN] * 2
        assert collector.trace_requests()[0] == collector.trace_requests()[1]
        assert collector.metrics()["catfacts.client.requests"].sum.data_points[0].as_int == 3
        assert collector.formats() == [("/v1/traces", "application/x-protobuf", "identity"),
                                       ("/v1/metrics", "application/x-protobuf", "gzip"),
                                       ("/v1/traces", "application/json", "gzip")]
        assert collector.summary().splitlines()[4:6] == ["protobuf_requests 2", "gzip_requests 2"]


@pytest.mark.parametrize("body, content_type, encoding, reason", [
    (b"\x0a\x00", "text/plain", "identity", "Content-Type is 'text/plain', not 'application/x-protobuf' or 'application/json'"),
    (b"\x0a\x05\x01", "application/x-protobuf", "identity", "not a protobuf ExportMetricsServiceRequest"),
    (b"\x0a\x03\xa0\x06\x01", "application/x-protobuf", "identity", "$.resource_metrics[0]: unknown field number(s) [100]"),
    (b"\x0a\x00", "application/x-protobuf", "gzip", "Content-Encoding gzip, but the body is not gzip"),
    (b"\x0a\x00", "application/x-protobuf", "br", "Content-Encoding 'br' is not supported"),
])
def test_a_bad_protobuf_or_gzip_body_is_answered_400_saying_why(body: bytes, content_type: str, encoding: str,
                                                                reason: str) -> None:
    with Collector() as collector:
        status, _ = request(collector.url, "POST", "/v1/metrics", body, content_type, encoding=encoding)
        assert status == 400
        assert len(collector.errors()) == 1 and reason in collector.errors()[0], collector.errors()


def test_500_mode_answers_500_and_still_records_the_payload() -> None:
    with Collector("500") as collector:
        status, _ = post(collector.url, "/v1/traces", TRACES)
        assert status == 500
        assert len(collector.spans()) == 2
        collector.mode = "ok"
        assert post(collector.url, "/v1/traces", TRACES) == (200, b"{}")
        assert len(collector.trace_requests()) == 2


def test_hang_mode_never_answers_and_lets_go_when_stopped() -> None:
    outcome: List[BaseException] = []

    def send() -> None:
        try:
            post(collector.url, "/v1/metrics", METRICS)
        except BaseException as error:  # what the sender saw instead of an answer
            outcome.append(error)

    collector = Collector("hang")
    sender = threading.Thread(target=send)
    try:
        sender.start()
        assert collector.wait_for(lambda: len(collector.metric_requests()) == 1)
        assert outcome == [] and sender.is_alive()  # recorded, unanswered
    finally:
        collector.close()
    sender.join(HANG_S)
    assert [type(error) for error in outcome] == [http.client.RemoteDisconnected]


def test_the_command_line_prints_its_url_and_serves_the_same() -> None:
    process = subprocess.Popen([sys.executable, str(COLLECTOR), "--port", "0", "--mode", "ok"],
                               stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline() if process.stdout else ""
        assert line.startswith("listening on http://127.0.0.1:"), line
        url = line.split()[-1]
        assert post(url, "/v1/traces", TRACES) == (200, b"{}")
        status, summary = request(url, "GET", "/_collector/summary")
        assert status == 200 and summary.decode().splitlines()[:4] == [
            "metrics_requests 0", "trace_requests 1", "spans 2", "errors 0"]
        assert request(url, "GET", "/elsewhere")[0] == 404
    finally:
        process.terminate()
        process.wait(HANG_S)


def test_wait_for_gives_up_at_its_bound() -> None:
    with Collector(hang_s=0.05) as collector:
        assert collector.wait_for(lambda: collector.spans()) is False
        with pytest.raises(ValueError, match="mode 'slow' is not one of ok, 500, hang"):
            collector.mode = "slow"
