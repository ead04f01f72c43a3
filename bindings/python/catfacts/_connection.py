"""One open ``cf_client``: what :class:`Client` and :class:`AsyncClient` front, and what
lists, searches and calls are built on (they take this, never a client object)."""
from __future__ import annotations

import ctypes
import functools
import threading
import weakref
from typing import Any, Callable, Optional, Protocol

from ._config import ClientConfig
from ._handles import Guard, Listener, install_exit_hook, request_trampoline, set_listener, unregister
from ._native import NO_METRICS_LISTENER, lib
from .errors import check

__all__ = ["Connection"]


class _Closable(Protocol):
    def close(self) -> None: ...


def _detach_client(key: int, handle: int) -> None:
    lib.cf_client_set_metrics_listener(handle, NO_METRICS_LISTENER, None)
    unregister(key)


def _finalize(children: "weakref.WeakSet[_Closable]", lock: threading.Lock, guard: Guard) -> None:
    # Lists and searches first: the header asks for them to be closed before their client.
    with lock:
        open_children = list(children)
    for child in open_children:
        child.close()
    guard.close()


class Connection:
    """An open client handle: its :class:`Guard`, its request :class:`Listener`, and the lists
    and searches opened on it, closed before it.

    It is closed by :meth:`close`, or when it is garbage collected. A list or search keeps
    its connection, so a client object dropped while its lists are read stays open until
    they are done too.

    Raises:
        ArgumentError: a bad URL or option (the message names the parameter).
    """

    def __init__(self, config: ClientConfig) -> None:
        options = config.options_json()  # checked before the URL, as the parameters come
        out = ctypes.c_void_p()
        status = lib.cf_client_open(config.url(), options, ctypes.byref(out))
        check(status)
        self.otel_context = bool(config.otel_context)
        self.listener = Listener()  # the guard names it by key only: see Listener
        self.guard = Guard(out.value or 0, functools.partial(_detach_client, self.listener.key),
                           lib.cf_client_close, "client", rank=1)
        self._children: "weakref.WeakSet[_Closable]" = weakref.WeakSet()  # its lists and searches
        self._children_lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _finalize, self._children, self._children_lock, self.guard)
        install_exit_hook()

    def on_request(self, callback: Optional[Callable[[str, float, bool], Any]]) -> None:
        """``cf_client_set_metrics_listener``: ``callback`` after every request (None: none)."""
        set_listener(self.guard, self.listener, callback, lib.cf_client_set_metrics_listener, request_trampoline,
                     NO_METRICS_LISTENER)

    def adopt(self, child: _Closable) -> None:
        """Closes ``child`` (a list or search on this handle) when the connection closes."""
        with self._children_lock:
            self._children.add(child)

    def interrupt(self) -> None:
        """``cf_client_interrupt``: every call under way on the handle returns
        ``CF_ERR_CANCELLED`` soon. A no-op once the handle is freed."""
        self.guard.poke(lib.cf_client_interrupt)

    def close(self) -> None:
        """Closes the lists and searches, then the handle (after its last call). Idempotent."""
        self._finalizer()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self.guard.closing
