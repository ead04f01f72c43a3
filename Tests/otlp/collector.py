#!/usr/bin/env python3
"""The test collector: an OTLP/HTTP receiver (protobuf and JSON encodings, gzip-compressed or not)
that decodes every payload with the OpenTelemetry protobuf definitions, so a payload a real
collector would refuse fails the tests.

    python3 Tests/otlp/collector.py --port 0 [--mode ok|500|hang]

prints ``listening on http://127.0.0.1:PORT`` and serves until killed:

- ``POST /v1/metrics`` and ``POST /v1/traces``: the body (``Content-Type: application/x-protobuf``
  or ``application/json``, ``Content-Encoding: gzip`` or none) is decoded strictly (below); a body
  that fails is answered 400 and counted in ``errors``. A decoded one is recorded, then answered by the
  mode: ``ok`` 200 ``{}``, ``500`` 500, ``hang`` never (the connection stays open, unanswered,
  until the collector stops).
- ``GET /_collector/summary``: plain text for C's sscanf: ``metrics_requests N``,
  ``trace_requests N``, ``spans N``, ``errors N``, ``protobuf_requests N``, ``gzip_requests N``,
  ``connections N`` (TCP connections accepted), then a line per span received,
  ``span <traceId> <spanId> <parentSpanId|-> <kind> <status code> <name>``, then a line per
  metric of the latest metrics request, ``metric <name> <unit|-> <data points> <total>`` (the
  total: the points' counts summed for histograms and summaries, else their values summed).
- ``GET /_collector/received``: every recorded request as JSON (``{"metrics": [...],
  "traces": [...], "errors": [...]}``, each request as OTLP/JSON writes it: ids in hex).

Strict protobuf decoding refuses what the message classes would let through: unknown fields
(a wrong field number) anywhere in the message. Strict JSON decoding follows the OTLP/JSON mapping, which differs from protobuf's JSON in places:
keys are lowerCamelCase only (the original snake_case names are refused); traceId, spanId and
parentSpanId are hex strings (json_format expects base64: they are checked for hex and length,
then converted); enums are integers and 64-bit integers numbers or decimal strings (json_format
takes both). Unknown fields, wrong types, duplicate keys and bare NaN/Infinity are refused.

Python tests import it instead: ``with Collector() as collector:`` serves on a thread of the
test process (``collector.url``; ``collector.spans()``, ``collector.wait_for(...)``).
"""
from __future__ import annotations

import argparse
import base64
import binascii
import gzip
import json
import zlib
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Callable, Dict, List, Optional, Tuple, Type, Union
from urllib.parse import urlsplit

from google.protobuf import json_format, message as protobuf_message, unknown_fields
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.metrics.v1.metrics_pb2 import Metric
from opentelemetry.proto.trace.v1.trace_pb2 import Span

__all__ = ["Collector", "PayloadError", "decode", "MODES", "HANG_S"]

#: How the collector answers a payload it decoded: 200, 500, or never.
MODES = ("ok", "500", "hang")

#: How long :meth:`Collector.wait_for` waits: only a hang reaches it (the suites' bound, HANG_S).
HANG_S = 60.0

#: The id fields of OTLP (spans, span links, exemplars) and their sizes in bytes.
_ID_BYTES = {"traceId": 16, "spanId": 8, "parentSpanId": 8}

#: The largest body read: far above any batch the library sends, below what would hurt the tests.
_MAX_BODY = 32 << 20

ExportRequest = Union[ExportMetricsServiceRequest, ExportTraceServiceRequest]
_KINDS: Dict[str, Type[ExportRequest]] = {"/v1/metrics": ExportMetricsServiceRequest,
                                          "/v1/traces": ExportTraceServiceRequest}

JSONValue = Any  # what json.loads gives: dicts, lists, strings, numbers, booleans, None


class PayloadError(ValueError):
    """A body that is not a valid OTLP/JSON export request; the message says what and where."""


# Decoding


def _refuse_constant(name: str) -> None:
    raise PayloadError(f"{name} is not JSON (OTLP/JSON writes NaN and Infinity as strings)")


def _object(pairs: List[Tuple[str, JSONValue]]) -> Dict[str, JSONValue]:
    obj: Dict[str, JSONValue] = {}
    for key, value in pairs:
        if key in obj:
            raise PayloadError(f"the key {key!r} appears twice in one object")
        obj[key] = value
    return obj


def _id_to_base64(value: JSONValue, key: str, where: str) -> str:
    """A hex id as json_format's base64, after checking it is hex of the id's size (or empty:
    absent, which _check_spans refuses where an id is required)."""
    if not isinstance(value, str):
        raise PayloadError(f"{where}: an id is a hex string, not {type(value).__name__}")
    if value and len(value) != 2 * _ID_BYTES[key]:
        raise PayloadError(f"{where}: {key} {value!r} has {len(value)} hex digits, not {2 * _ID_BYTES[key]}")
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise PayloadError(f"{where}: {key} {value!r} is not hex (OTLP/JSON ids are hex, not base64)") from None
    return base64.b64encode(raw).decode("ascii")


def _ids_to_base64(node: JSONValue, where: str) -> JSONValue:
    """``node`` with its ids in base64; refuses keys that are not lowerCamelCase. (OTLP has no
    map fields: every object key is a field name.)"""
    if isinstance(node, list):
        return [_ids_to_base64(item, f"{where}[{index}]") for index, item in enumerate(node)]
    if not isinstance(node, dict):
        return node
    converted: Dict[str, JSONValue] = {}
    for key, value in node.items():
        if "_" in key:
            raise PayloadError(f"{where}.{key}: OTLP/JSON keys are lowerCamelCase, not the proto field names")
        if key in _ID_BYTES:
            converted[key] = _id_to_base64(value, key, f"{where}.{key}")
        else:
            converted[key] = _ids_to_base64(value, f"{where}.{key}")
    return converted


def _check_spans(request: ExportTraceServiceRequest) -> None:
    """Every span and link names its trace and span (non-zero ids): OTLP makes them required."""
    for r, resource_spans in enumerate(request.resource_spans):
        for s, scope_spans in enumerate(resource_spans.scope_spans):
            for n, span in enumerate(scope_spans.spans):
                where = f"resourceSpans[{r}].scopeSpans[{s}].spans[{n}]"
                for name, value in (("traceId", span.trace_id), ("spanId", span.span_id)):
                    if not any(value):
                        raise PayloadError(f"{where}: {name} is missing or all zeros")
                for link_index, link in enumerate(span.links):
                    if not any(link.trace_id) or not any(link.span_id):
                        raise PayloadError(f"{where}.links[{link_index}]: traceId and spanId are required")


def decode(body: bytes, kind: Type[ExportRequest]) -> ExportRequest:
    """``body``, an OTLP/JSON export request of ``kind``, decoded strictly (see the module).

    Raises:
        PayloadError: what was wrong, with where in the payload.
    """
    try:
        loaded = json.loads(body.decode("utf-8"), object_pairs_hook=_object, parse_constant=_refuse_constant)
    except UnicodeDecodeError as error:
        raise PayloadError(f"the body is not UTF-8: {error}") from None
    except json.JSONDecodeError as error:
        raise PayloadError(f"the body is not JSON: {error}") from None
    if not isinstance(loaded, dict):
        raise PayloadError(f"the body is a JSON {type(loaded).__name__}, not an object")
    message = kind()
    try:
        # ParseDict rather than Parse: the ids are converted between loading and decoding.
        json_format.ParseDict(_ids_to_base64(loaded, "$"), message, ignore_unknown_fields=False)
    except json_format.ParseError as error:
        raise PayloadError(f"not a {kind.DESCRIPTOR.name}: {error}") from None
    if isinstance(message, ExportTraceServiceRequest):
        _check_spans(message)
    return message


def _check_known_fields(message: protobuf_message.Message, where: str) -> None:
    """Refuses a message holding a field its schema does not have, at any depth."""
    unknown = unknown_fields.UnknownFieldSet(message)
    if len(unknown):
        numbers = sorted({unknown[index].field_number for index in range(len(unknown))})
        raise PayloadError(f"{where}: unknown field number(s) {numbers} in {message.DESCRIPTOR.name}")
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        if field.is_repeated:
            for index, item in enumerate(value):
                _check_known_fields(item, f"{where}.{field.name}[{index}]")
        else:
            _check_known_fields(value, f"{where}.{field.name}")


def decode_protobuf(body: bytes, kind: Type[ExportRequest]) -> ExportRequest:
    """``body``, an export request of ``kind`` in protobuf's wire format, decoded strictly.

    Raises:
        PayloadError: what was wrong (not the wire format, unknown fields, missing ids).
    """
    message = kind()
    try:
        message.ParseFromString(body)
    except protobuf_message.DecodeError as error:
        raise PayloadError(f"not a protobuf {kind.DESCRIPTOR.name}: {error}") from None
    _check_known_fields(message, "$")
    if isinstance(message, ExportTraceServiceRequest):
        _check_spans(message)
    return message


#: The Content-Types the collector decodes, and how.
_DECODERS: Dict[str, Callable[[bytes, Type[ExportRequest]], ExportRequest]] = {
    "application/json": decode, "application/x-protobuf": decode_protobuf}


def _ids_to_hex(node: JSONValue) -> JSONValue:
    """MessageToDict's output with its base64 ids in hex, as OTLP/JSON writes them."""
    if isinstance(node, list):
        return [_ids_to_hex(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {key: base64.b64decode(value).hex() if key in _ID_BYTES else _ids_to_hex(value)
            for key, value in node.items()}


# What was received


def _spans_of(request: ExportTraceServiceRequest) -> List[Span]:
    return [span for resource_spans in request.resource_spans for scope_spans in resource_spans.scope_spans
            for span in scope_spans.spans]


def _metrics_of(request: ExportMetricsServiceRequest) -> List[Metric]:
    return [metric for resource_metrics in request.resource_metrics
            for scope_metrics in resource_metrics.scope_metrics for metric in scope_metrics.metrics]


def _points_and_total(metric: Metric) -> Tuple[int, Union[int, float]]:
    """A metric's data points and their total: counts summed for histograms and summaries,
    values summed for sums and gauges."""
    data = metric.WhichOneof("data")
    if data in ("histogram", "exponential_histogram", "summary"):
        counted = getattr(metric, data).data_points
        return len(counted), sum(point.count for point in counted)
    if data in ("sum", "gauge"):
        valued = getattr(metric, data).data_points
        values = [point.as_int if point.WhichOneof("value") == "as_int" else point.as_double for point in valued]
        return len(valued), sum(values)
    return 0, 0


class _Record:
    """Every request received, under one lock; ``changed`` is notified at each."""

    def __init__(self) -> None:
        self.changed = threading.Condition(threading.RLock())
        self.metrics: List[ExportMetricsServiceRequest] = []
        self.traces: List[ExportTraceServiceRequest] = []
        self.errors: List[str] = []
        #: (path, Content-Type, Content-Encoding or "identity") of each request decoded.
        self.formats: List[Tuple[str, str, str]] = []
        #: TCP connections accepted (a client that keeps its connection alive opens few).
        self.connections = 0

    def connected(self) -> None:
        with self.changed:
            self.connections += 1
            self.changed.notify_all()

    def add(self, message: ExportRequest, path: str = "", content_type: str = "", encoding: str = "identity") -> None:
        with self.changed:
            self.formats.append((path, content_type, encoding))
            if isinstance(message, ExportMetricsServiceRequest):
                self.metrics.append(message)
            else:
                self.traces.append(message)
            self.changed.notify_all()

    def refuse(self, error: str) -> None:
        with self.changed:
            self.errors.append(error)
            self.changed.notify_all()

    def summary(self) -> str:
        with self.changed:
            spans = [span for request in self.traces for span in _spans_of(request)]
            lines = [f"metrics_requests {len(self.metrics)}", f"trace_requests {len(self.traces)}",
                     f"spans {len(spans)}", f"errors {len(self.errors)}",
                     f"protobuf_requests {sum(1 for _, kind, _ in self.formats if kind == 'application/x-protobuf')}",
                     f"gzip_requests {sum(1 for _, _, encoding in self.formats if encoding == 'gzip')}",
                     f"connections {self.connections}"]
            for span in spans:
                lines.append(f"span {span.trace_id.hex()} {span.span_id.hex()} {span.parent_span_id.hex() or '-'} "
                             f"{span.kind} {span.status.code} {span.name}")
            for metric in _metrics_of(self.metrics[-1]) if self.metrics else []:
                points, total = _points_and_total(metric)
                lines.append(f"metric {metric.name} {metric.unit or '-'} {points} {total!r}")
        return "\n".join(lines) + "\n"

    def received(self) -> Dict[str, JSONValue]:
        with self.changed:
            return {"metrics": [_ids_to_hex(json_format.MessageToDict(request)) for request in self.metrics],
                    "traces": [_ids_to_hex(json_format.MessageToDict(request)) for request in self.traces],
                    "errors": list(self.errors),
                    "formats": [list(entry) for entry in self.formats]}


# Serving


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a hanging answer must not keep the process alive

    def __init__(self, port: int, mode: str) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.record = _Record()
        self.mode = mode
        self.stopping = threading.Event()  # ends the hanging answers


class _Handler(BaseHTTPRequestHandler):
    # HTTP/1.1: connections kept alive (as real collectors do) and curl's Expect: 100-continue answered.
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as real collectors set it (Go's net/http does): on a kept-alive connection,
    # an answer written as headers then body would otherwise wait for the client's delayed
    # ACK (40 ms on Linux) before its body goes out.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: refused payloads are reported (stderr), not every request."""

    def setup(self) -> None:
        super().setup()
        self._server.record.connected()

    @property
    def _server(self) -> _Server:
        assert isinstance(self.server, _Server)
        return self.server

    def _answer(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks: List[bytes] = []
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
                if sum(map(len, chunks)) > _MAX_BODY:
                    raise PayloadError(f"the body is over {_MAX_BODY} bytes")
        length = int(self.headers.get("Content-Length") or 0)
        if length > _MAX_BODY:
            raise PayloadError(f"the body is over {_MAX_BODY} bytes ({length})")
        return self.rfile.read(length)

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        kind = _KINDS.get(path)
        if kind is None:
            self._answer(404, b'{"message":"not an OTLP path: POST /v1/metrics or /v1/traces"}')
            return
        try:
            body = self._body()
            content_type = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            decoder = _DECODERS.get(content_type)
            if decoder is None:
                raise PayloadError(f"Content-Type is {content_type or 'missing'!r}, not 'application/x-protobuf' "
                                   "or 'application/json'")
            encoding = self.headers.get("Content-Encoding", "identity").strip().lower()
            if encoding == "gzip":
                try:
                    body = gzip.decompress(body)
                except (OSError, EOFError, zlib.error) as error:
                    raise PayloadError(f"Content-Encoding gzip, but the body is not gzip: {error}") from None
            elif encoding != "identity":
                raise PayloadError(f"Content-Encoding {self.headers['Content-Encoding']!r} is not supported")
            message = decoder(body, kind)
        except ValueError as error:  # a PayloadError, or a bad Content-Length or chunk size
            refused = f"POST {path}: {error}"
            self._server.record.refuse(refused)
            print(f"collector: refused {refused}", file=sys.stderr, flush=True)
            self._answer(400, json.dumps({"code": 3, "message": refused}).encode())
            self.close_connection = True  # the body may not have been read whole
            return
        self._server.record.add(message, path, content_type, encoding)
        mode = self._server.mode
        if mode == "hang":
            self._server.stopping.wait()
            self.close_connection = True
        elif mode == "500":
            self._answer(500, b'{"code":13,"message":"the test collector answers 500"}')
        else:
            self._answer(200, b"{}")

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == "/_collector/summary":
            self._answer(200, self._server.record.summary().encode(), "text/plain; charset=utf-8")
        elif path == "/_collector/received":
            self._answer(200, json.dumps(self._server.record.received()).encode())
        else:
            self._answer(404, b'{"message":"GET /_collector/summary or /_collector/received"}')


class Collector:
    """The collector on a thread of this process: ``with Collector("500") as collector:``.

    Args:
        mode: how decoded payloads are answered (:data:`MODES`); ``collector.mode`` may be
            changed while it runs.
        port: 0 for a free port.
        hang_s: how long :meth:`wait_for` waits before giving up.

    Every payload received is recorded whatever the mode answers, so in ``500`` mode the
    library's retries show up as repeated requests.
    """

    def __init__(self, mode: str = "ok", *, port: int = 0, hang_s: float = HANG_S) -> None:
        if mode not in MODES:
            raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
        self._server = _Server(port, mode)
        self._hang_s = hang_s
        # Polls for shutdown every 20 ms (not 0.5 s): each test stops a collector of its own.
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), name="otlp-collector",
                                        daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The base URL, ``http://127.0.0.1:PORT`` (the library's ``otlp_endpoint``)."""
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def mode(self) -> str:
        return self._server.mode

    @mode.setter
    def mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode {mode!r} is not one of {', '.join(MODES)}")
        self._server.mode = mode

    def metric_requests(self) -> List[ExportMetricsServiceRequest]:
        """Every metrics request decoded, in the order received."""
        with self._server.record.changed:
            return list(self._server.record.metrics)

    def trace_requests(self) -> List[ExportTraceServiceRequest]:
        """Every trace request decoded, in the order received."""
        with self._server.record.changed:
            return list(self._server.record.traces)

    def connections(self) -> int:
        """TCP connections accepted so far."""
        with self._server.record.changed:
            return self._server.record.connections

    def spans(self) -> List[Span]:
        """Every span received, in the order received."""
        return [span for request in self.trace_requests() for span in _spans_of(request)]

    def metrics(self) -> Dict[str, Metric]:
        """The metrics of the latest metrics request, by name (empty before the first)."""
        requests = self.metric_requests()
        return {metric.name: metric for metric in _metrics_of(requests[-1])} if requests else {}

    def formats(self) -> List[Tuple[str, str, str]]:
        """(path, Content-Type, Content-Encoding) of each request decoded, in the order received."""
        with self._server.record.changed:
            return list(self._server.record.formats)

    def errors(self) -> List[str]:
        """Why each refused payload was refused."""
        with self._server.record.changed:
            return list(self._server.record.errors)

    def summary(self) -> str:
        """What ``GET /_collector/summary`` answers."""
        return self._server.record.summary()

    def wait_for(self, predicate: Callable[[], object]) -> bool:
        """Whether ``predicate()`` (about what was received) became true within the hang bound;
        checked at each request received (and every 50 ms, for predicates that read more)."""
        deadline = time.monotonic() + self._hang_s
        with self._server.record.changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._server.record.changed.wait(min(left, 0.05))
        return True

    def close(self) -> None:
        """Stops serving; hanging answers end (their connections close unanswered)."""
        self._server.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> "Collector":
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Collector {self.url} {self.mode}>"


def main() -> int:
    parser = argparse.ArgumentParser(description="The OTLP/HTTP test collector (see the module's docstring).")
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    parser.add_argument("--mode", choices=MODES, default="ok")
    args = parser.parse_args()
    server = _Server(args.port, args.mode)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stopping.set()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
