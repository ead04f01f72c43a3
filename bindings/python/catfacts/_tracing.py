"""The trace context of the calls: the calling thread's or task's, never the client's alone.

``Client.trace_parent(tp)`` sets a :mod:`contextvars` variable for the block, so each thread and
each asyncio task has its own (a task started inside the block inherits it; nothing leaks out
of it). With no such block around a call, the span current in OpenTelemetry (when
``opentelemetry-api`` is importable and a client was not opened with ``otel_context=False``) is
the parent. A call with either hands it to the library for the thread that makes the call
(``cf_client_set_trace_context``) and clears it afterwards; a call with neither uses the
client's own (``set_trace_parent``), as before.
"""
from __future__ import annotations

import contextvars
from types import ModuleType
from typing import Any, Optional, Tuple

# opentelemetry-api is optional: without it, calls have no OpenTelemetry parent.
_otel_trace: Optional[ModuleType]
try:
    from opentelemetry import trace as _otel_trace
except ImportError:  # not installed
    _otel_trace = None

__all__ = ["Parent", "current", "scope", "UNSET"]

#: A trace context: (traceparent, tracestate or None), or None for "no parent".
Parent = Optional[Tuple[str, Optional[str]]]


class _Unset:
    """No ``trace_parent`` block around the call."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()

_parent: "contextvars.ContextVar[Any]" = contextvars.ContextVar("catfacts_trace_parent", default=UNSET)


def scope(parent: Parent) -> "contextvars.Token[Any]":
    """Sets the calling thread's or task's parent; ``_parent.reset(token)`` puts the previous back."""
    return _parent.set(parent)


def reset(token: "contextvars.Token[Any]") -> None:
    _parent.reset(token)


def _current_span() -> Parent:
    """OpenTelemetry's current span as a trace context; None when none is current (or
    ``opentelemetry-api`` is not installed)."""
    if _otel_trace is None:
        return None
    context = _otel_trace.get_current_span().get_span_context()
    if not context.is_valid:
        return None
    traceparent = f"00-{context.trace_id:032x}-{context.span_id:016x}-{int(context.trace_flags):02x}"
    state = context.trace_state.to_header() if context.trace_state else ""
    return traceparent, state or None


def current(otel_context: bool) -> Any:
    """The calling thread's or task's parent: a ``trace_parent`` block's (a tuple, or None for
    "none"), else OpenTelemetry's current span when ``otel_context`` (a tuple), else UNSET (the
    client's own applies)."""
    explicit = _parent.get()
    if explicit is not UNSET or not otel_context:
        return explicit
    found = _current_span()
    return UNSET if found is None else found
