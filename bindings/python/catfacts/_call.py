"""One-shot calls on a client's handle: a blocking call runs so that Ctrl-C stops it
(:mod:`._blocking`), is refused inside a listener, and its result or error is taken from the
library on the calling thread."""
from __future__ import annotations

import ctypes
import functools
from datetime import datetime, timezone
from typing import Any

from . import _tracing
from ._blocking import run_interruptible
from ._connection import Connection
from ._handles import forbid_in_listener
from ._native import CBreedPage, breeds_text, lib, take_string
from .errors import check, error_of
from .models import Breed, Page

__all__ = ["call_text", "breeds_page"]

_BreedPagePointer = ctypes.POINTER(CBreedPage)


def call_text(connection: Connection, function: Any, *args: Any, blocking: bool = True) -> str:
    """``function(handle, *args, &out)``, a library call that answers text (JSON, or the
    Prometheus text). ``blocking=False`` for calls that never wait for the network."""
    if blocking:
        forbid_in_listener(f"{function.__name__}()")
        parent = _tracing.current(connection.otel_context)  # the caller's, read on its thread
        return run_interruptible(functools.partial(_call_now, connection, function, *args, parent=parent),
                                 connection.interrupt)
    return _call_now(connection, function, *args)


def _traced(handle: int, parent: Any, call: Any) -> Any:
    """``call()`` with ``parent`` (see :mod:`._tracing`) as the trace context of the library
    calls this thread makes on ``handle``, cleared afterwards; UNSET: the client's applies."""
    if parent is _tracing.UNSET:
        return call()
    traceparent, tracestate = parent if parent is not None else ("", None)
    status = lib.cf_client_set_trace_context(handle, traceparent.encode(),
                                             None if tracestate is None else tracestate.encode())
    check(status)
    try:
        return call()
    finally:
        lib.cf_client_set_trace_context(handle, None, None)


def _call_now(connection: Connection, function: Any, *args: Any, parent: Any = _tracing.UNSET) -> str:
    out = ctypes.c_void_p()
    with connection.guard as handle:
        status = _traced(handle, parent, lambda: function(handle, *args, ctypes.byref(out)))
        error = error_of(status)
    text = take_string(out)  # NULL on failure; freed here whatever came back
    if error is not None:
        raise error
    return text


def breeds_page(connection: Connection, page: int, limit: int) -> Page[Breed]:
    """One page of breeds, ``page`` and ``limit`` already checked; interruptible as
    :func:`call_text`."""
    forbid_in_listener("cf_breeds_page_items()")
    parent = _tracing.current(connection.otel_context)
    return run_interruptible(functools.partial(_breeds_page_now, connection, page, limit, parent),
                             connection.interrupt)


def _breeds_page_now(connection: Connection, page: int, limit: int, parent: Any) -> Page[Breed]:
    """cf_breeds_page_items: the page as one block of breeds, no JSON (one decode and
    one split of its text, then a record per breed)."""
    out = _BreedPagePointer()
    with connection.guard as handle:
        status = _traced(handle, parent, lambda: lib.cf_breeds_page_items(handle, page, limit, ctypes.byref(out)))
        error = error_of(status)
    if error is not None:
        raise error
    try:
        block = out.contents
        breeds = block.breeds
        items = tuple(Breed._from_text(breeds_text(breeds), breeds.count))
        return Page(items, block.page, block.last_page, block.per_page, block.total,
                    (block.source or b"network").decode(),
                    datetime.fromtimestamp(block.fetched_at_ms / 1000, timezone.utc))
    finally:
        lib.cf_free(ctypes.cast(out, ctypes.c_void_p))
