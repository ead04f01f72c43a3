"""What ``Client.metrics()`` returns: the library's metrics as frozen dataclasses.

The library's JSON (``cf_metrics``) only ever gains keys, so each class reads the keys it
knows and ignores the others.
"""
from __future__ import annotations

from dataclasses import Field, dataclass, fields
from datetime import datetime
from typing import Any, Callable, ClassVar, Dict, Mapping, Optional, Tuple, Type, TypeVar

from .models import parse_time

__all__ = ["Metrics", "EndpointStats", "Device", "OperatingSystem", "AppInfo", "Memory", "CacheState", "ExportState",
           "format_ms", "NO_DATA"]

_D = TypeVar("_D", bound="_Scalars")

# The scalar types of the fields, by their annotations' names (this module's annotations are
# strings: ``from __future__ import annotations``). A time with nothing measured is null in the
# JSON and None here, never 0.0 (which would read as a 0 ms response).
_SCALARS: Dict[str, Callable[[Any], Any]] = {
    "str": str, "int": int, "float": float,
    "Optional[float]": lambda value: None if value is None else float(value),
}

#: What :func:`format_ms` shows for a time with nothing measured (the shell shows the same).
NO_DATA = "—"


def format_ms(value: Optional[float]) -> str:
    """A time of :class:`EndpointStats` for people: ``"12.3 ms"``, or ``"—"`` (:data:`NO_DATA`)
    when nothing was measured (None), never a 0 that reads as a 0 ms response.

    >>> from catfacts.metrics import format_ms
    >>> format_ms(12.345), format_ms(None)
    ('12.3 ms', '—')
    """
    return NO_DATA if value is None else f"{value:.1f} ms"


class _Scalars:
    """A dataclass of str, int, float and Optional[float] fields, read from the JSON keys named
    as its fields."""

    __dataclass_fields__: ClassVar[Dict[str, "Field[Any]"]]  # set by @dataclass on each subclass

    @classmethod
    def from_json(cls: Type[_D], obj: Mapping[str, Any]) -> _D:
        """From the library's object: each field converted to its type (KeyError for a
        missing key: the library always sends them)."""
        return cls(*[_SCALARS[str(each.type)](obj[each.name]) for each in fields(cls)])


@dataclass(frozen=True)
class EndpointStats(_Scalars):
    """The requests to one endpoint and their times (wall time from sending a request to
    having its whole body, over the requests that got a whole response).

    Attributes:
        endpoint: the path alone: "/breeds", "/facts" or "/fact".
        requests: requests sent, retries included.
        errors: requests that failed.
        avg_ms, last_ms, min_ms, max_ms, p50_ms, p95_ms, p99_ms: times in milliseconds; None
            when there is no response to measure (only cache hits, or every request failed
            without a response), never 0.0. :func:`format_ms` shows them ("—" for None).
        bytes: body bytes received.
        cache_hits: calls answered from the cache (a 304 counts as one too).
        retries: requests that were retries.
    """

    endpoint: str
    requests: int
    errors: int
    avg_ms: Optional[float]
    last_ms: Optional[float]
    min_ms: Optional[float]
    max_ms: Optional[float]
    p50_ms: Optional[float]
    p95_ms: Optional[float]
    p99_ms: Optional[float]
    bytes: int
    cache_hits: int
    retries: int


@dataclass(frozen=True)
class Device(_Scalars):
    """The machine: make and model ("unknown" when hidden), CPU architecture and count."""

    make: str
    model: str
    arch: str
    cpus: int


@dataclass(frozen=True)
class OperatingSystem(_Scalars):
    """The operating system's name and version (os-release) and the kernel's release."""

    name: str
    version: str
    kernel: str


@dataclass(frozen=True)
class AppInfo(_Scalars):
    """The host program's name and the loaded libCatFacts's version."""

    name: str
    library_version: str


@dataclass(frozen=True)
class Memory(_Scalars):
    """The process's memory in use now and at its peak, in bytes (0 where unreadable)."""

    resident_bytes: int
    peak_resident_bytes: int


@dataclass(frozen=True)
class CacheState:
    """The client's page cache: where it lives, how full it is, and what went wrong with it
    without failing a call (a damaged file moved aside, a write on a full disk or a read-only
    folder, pages evicted for the size cap), so a cache that stays empty says why.

    Attributes:
        path: the SQLite file, or None for a memory cache (also when the file could not be
            used; a warning then says why).
        bytes: the bytes the cached pages take, as the size cap counts them.
        max_bytes: the size cap (``cache_max_bytes``).
        entries: the pages stored.
        hits: calls answered from the cache (the endpoints' ``cache_hits``, summed).
        writes_failed: writes to the cache that failed.
        evicted_entries, evicted_bytes: pages evicted for the size cap, and their bytes.
        warnings: what went wrong, oldest first; a fault that recurs (every write on a full
            disk, evictions) is one line with its running count.
    """

    path: Optional[str]
    bytes: int
    max_bytes: int
    entries: int
    hits: int
    writes_failed: int
    evicted_entries: int
    evicted_bytes: int
    warnings: Tuple[str, ...]

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "CacheState":
        """From the library's ``"cache"``."""
        path = obj.get("path")
        return cls(None if path is None else str(path), int(obj["bytes"]), int(obj["max_bytes"]),
                   int(obj["entries"]), int(obj["hits"]), int(obj["writes_failed"]), int(obj["evicted_entries"]),
                   int(obj["evicted_bytes"]), tuple(str(line) for line in obj["warnings"]))


@dataclass(frozen=True)
class ExportState:
    """The OpenTelemetry export's figures (``otlp_endpoint``, or the ``OTEL_EXPORTER_OTLP_*``
    environment variables): what reached the collector and what did not.

    Attributes:
        endpoint: the collector's base URL; None when the environment named one that was
            refused (export is then off, and ``warnings`` says why).
        sent: items the collector took: spans, plus the data points of each metrics request.
        dropped: spans discarded, oldest first, past the queue's bound
            (``OTEL_BSP_MAX_QUEUE_SIZE``) while the collector did not take them.
        failures: export requests that failed (refused, timed out, a status other than 2xx).
        queued: spans waiting to be sent.
        warnings: the ``OTEL_*`` environment variables that were ignored, and why.
        traces_endpoint, metrics_endpoint: where each signal goes (its own
            ``OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT``, or the base URL's ``/v1/traces`` and
            ``/v1/metrics``); None when that signal is not sent.
    """

    endpoint: Optional[str]
    sent: int
    dropped: int
    failures: int
    queued: int
    warnings: Tuple[str, ...]
    traces_endpoint: Optional[str] = None
    metrics_endpoint: Optional[str] = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "ExportState":
        """From the library's ``"export"``."""
        def text(key: str) -> Optional[str]:
            value = obj.get(key)
            return None if value is None else str(value)

        return cls(text("endpoint"), int(obj["sent"]), int(obj["dropped"]), int(obj["failures"]), int(obj["queued"]),
                   tuple(str(line) for line in obj.get("warnings", ())), text("traces_endpoint"),
                   text("metrics_endpoint"))


@dataclass(frozen=True)
class Metrics:
    """A client's metrics when they were collected.

    Attributes:
        endpoints: one entry per endpoint the client has used, in the library's order.
        device, os, app, memory: the machine, its system, the program, its memory.
        online: False while the client is offline (calls in a row got no response).
        collected_at: when the snapshot was taken (UTC), if the library said.
        cache: the page cache's state; None when the client has no cache
            (``cache_max_bytes=0``), or from a library too old to say.
        export: the OpenTelemetry export's figures; None when the client does not export.
    """

    endpoints: Tuple[EndpointStats, ...]
    device: Device
    os: OperatingSystem
    app: AppInfo
    memory: Memory
    online: bool
    collected_at: Optional[datetime]
    cache: Optional[CacheState] = None
    export: Optional[ExportState] = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Metrics":
        """From the library's metrics JSON (``cf_metrics``)."""
        return cls(tuple(EndpointStats.from_json(entry) for entry in obj["endpoints"]),
                   Device.from_json(obj["device"]), OperatingSystem.from_json(obj["os"]),
                   AppInfo.from_json(obj["app"]), Memory.from_json(obj["memory"]), bool(obj["online"]),
                   parse_time(obj.get("collected_at")),
                   None if obj.get("cache") is None else CacheState.from_json(obj["cache"]),
                   None if obj.get("export") is None else ExportState.from_json(obj["export"]))

    def endpoint(self, path: str) -> Optional[EndpointStats]:
        """The stats of one endpoint ("/breeds"), or None if the client has not used it."""
        for stats in self.endpoints:
            if stats.endpoint == path:
                return stats
        return None
