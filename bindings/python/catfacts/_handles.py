"""Safe use of C handles from many threads, listeners, and a clean interpreter exit.

Handles: one freed by cf_client_close / cf_list_close must never reach the library again,
yet another thread may be between reading it and calling C. :class:`Guard` counts the
calls under way and frees the handle when the last one leaves: ``close()`` never blocks
and never frees a handle in use.

Listeners: ctypes callbacks must stay alive as long as C may call them, and the header
allows a listener call to finish after it was removed. So there is one static trampoline
per listener type, alive for the whole process; the ``ctx`` pointer carries a key into
``_listeners``, and a late call for a removed key finds nothing and returns. The registry
holds each :class:`Listener` weakly and its owner (client, list, search) strongly: a
callback that refers to its owner (``lst.on_change(lambda *a: lst...)``) then makes a cycle
the garbage collector frees, and the owner's finalizer stops C calling (sets the listener
to NULL or closes the handle). A call that comes after the collection finds a dead
reference and returns; the trampoline it reached is never freed.

Fork: a child of ``os.fork()`` (``multiprocessing`` with the fork start method, gunicorn
``--preload``, celery's prefork pool) has only the thread that forked. The library itself
makes that child work (new clients work; a client, list or search inherited from the parent
is refused at once with :class:`ArgumentError` saying to open a new client), and
:func:`_after_fork_in_child` (``os.register_at_fork``) makes this package's side whole: a
guard's lock or count held by a parent thread's call in flight would otherwise stay taken.

Exit: a library thread that calls into Python once the interpreter is finalizing is
stopped by Python with pthread_exit, which libdispatch turns into a crash. So at exit,
before any handle is closed (closing cancels loads, and cancelled requests still report
to the metrics listener), every listener is detached; then the handles are closed, lists
first; then, if listeners were ever set, the GIL is released briefly so that listener calls
already under way finish while Python can still run them.
"""
from __future__ import annotations

import atexit
import itertools
import os
import threading
import time
import weakref
from typing import Any, Callable, Dict, Optional

from ._native import LIST_LISTENER, METRICS_LISTENER, SEARCH_LISTENER
from .errors import CancelledError, check
from .models import ListEvent

__all__ = ["Guard", "Listener", "set_listener", "unregister", "request_trampoline", "list_trampoline",
           "search_trampoline", "install_exit_hook", "forbid_in_listener"]

# Threads Python did not start (the library's) show up as _DummyThread.
_DummyThread = getattr(threading, "_DummyThread", ())


class Guard:
    """Owns one C handle; ``with guard as handle:`` marks a call under way.

    ``detach(handle)`` removes the handle's listener; it runs as soon as closing starts.
    ``closer(handle)`` frees the handle once no call is under way. ``rank`` orders the
    closing at exit (lists and searches, rank 0, before clients, rank 1).
    """

    __slots__ = ("_handle", "_detach", "_closer", "_what", "_lock", "_active", "_closing", "_detached",
                 "rank", "__weakref__")

    def __init__(self, handle: int, detach: Callable[[int], None], closer: Callable[[int], None],
                 what: str, rank: int) -> None:
        self._handle: Optional[int] = handle
        self._detach = detach
        self._closer = closer
        self._what = what
        self._lock = threading.Lock()
        self._active = 0
        self._closing = False
        self._detached = False
        self.rank = rank
        _live.add(self)

    @property
    def closing(self) -> bool:
        """Whether close() was called (the handle may still be in use until its calls end)."""
        return self._closing

    def __enter__(self) -> int:
        with self._lock:
            if self._closing:
                raise CancelledError(f"the {self._what} is closed")
            self._active += 1
            return self._handle  # type: ignore[return-value]

    def __exit__(self, *exc_info: Any) -> None:
        with self._lock:
            self._active -= 1
            handle = self._take_if_idle()
        if handle is not None:
            self._run_closer(handle)

    def poke(self, action: Callable[[int], None]) -> None:
        """Runs ``action(handle)`` if the handle is not freed yet, closing or not (to
        interrupt calls still under way on it). ``action`` must be quick: it runs under
        the guard's lock."""
        with self._lock:
            if self._handle is not None:
                action(self._handle)

    def detach(self) -> None:
        """Removes the handle's listener (once); the handle stays open."""
        with self._lock:
            if self._detached or self._handle is None:
                return
            self._detached = True
            handle = self._handle
            self._active += 1  # keeps the handle alive while detaching
        try:
            self._detach(handle)
        finally:
            self.__exit__()

    def close(self) -> None:
        """Detaches now; frees the handle now, or when the last call under way returns.
        Idempotent."""
        if self._closing:
            return
        self.detach()
        with self._lock:
            self._closing = True
            handle = self._take_if_idle()
        if handle is not None:
            self._run_closer(handle)

    def _take_if_idle(self) -> Optional[int]:
        if self._closing and self._active == 0 and self._handle is not None:
            handle, self._handle = self._handle, None
            return handle
        return None

    def _run_closer(self, handle: int) -> None:
        # On a library thread (a listener, or the garbage collector running there) closing
        # could wait for the very work that is calling us: hand it to a thread of our own.
        if isinstance(threading.current_thread(), _DummyThread):
            threading.Thread(target=self._closer, args=(handle,), name=f"catfacts-close-{self._what}",
                             daemon=True).start()
        else:
            self._closer(handle)


class Listener:
    """One listener slot (a client's, a list's or a search's), registered under ``key``, the
    ``ctx`` given to C. Its owner must keep it: the registry refers to it weakly, so that the
    callback in it may refer to the owner and both are still collected. Nothing that outlives
    the owner (its finalizer, its guard) may refer to it: they name it by ``key``."""

    __slots__ = ("key", "function", "__weakref__")

    def __init__(self) -> None:
        self.key = next(_keys)
        self.function: Optional[Callable[..., None]] = None
        _listeners[self.key] = weakref.ref(self)

    def set(self, function: Optional[Callable[..., None]]) -> None:
        """What calls to ``key`` run from now on (None: nothing)."""
        global _ever_listened
        if function is not None:
            _ever_listened = True
        self.function = function


def set_listener(guard: Guard, listener: Listener, callback: Optional[Callable[..., Any]],
                 setter: Callable[[int, Any, Optional[int]], int], trampoline: Any, none: Any) -> None:
    """Makes ``callback`` the listener of ``guard``'s handle (None removes it), through
    ``setter(handle, function, ctx)``: ``trampoline`` with ``listener``'s key, or ``none``.

    Raises:
        TypeError: ``callback`` is neither callable nor None.
    """
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable or None, not {type(callback).__name__}")
    with guard as handle:
        if callback is None:
            status = setter(handle, none, None)
            listener.set(None)
        else:
            listener.set(callback)  # before C may call it
            status = setter(handle, trampoline, listener.key)
        check(status)


_live: "weakref.WeakSet[Guard]" = weakref.WeakSet()
_listeners: "Dict[int, weakref.ref[Listener]]" = {}
_keys = itertools.count(1)
_ever_listened = False
_last_call = 0.0  # time.monotonic() of the latest listener call


def unregister(key: int) -> None:
    """Forgets the listener under ``key``: later calls to it return at once. Part of every
    handle's detach, so that the registry does not grow with the handles ever opened."""
    _listeners.pop(key, None)


_exit_hook_installed = False


def install_exit_hook() -> None:
    """Registers :func:`_at_exit` (once). Called after the first ``weakref.finalize`` is
    made, so that it runs before the finalizers (atexit runs the latest first)."""
    global _exit_hook_installed
    if not _exit_hook_installed:
        _exit_hook_installed = True
        atexit.register(_at_exit)


def _at_exit() -> None:
    guards = list(_live)
    for guard in guards:
        guard.detach()
    for guard in sorted(guards, key=lambda guard: guard.rank):
        guard.close()
    if _ever_listened:
        # Let listener calls already under way (blocked on the GIL) run and return.
        deadline = time.monotonic() + 1.0
        time.sleep(0.02)
        while time.monotonic() - _last_call < 0.05 and time.monotonic() < deadline:
            time.sleep(0.01)


def _after_fork_in_child() -> None:
    """In a child of ``os.fork()``: the parent's calls in flight, which held guards' locks
    and counts, went on in the parent only. The handles themselves stay inherited: the
    library refuses them at once, naming the remedy (open a new client)."""
    for guard in list(_live):
        guard._lock = threading.Lock()
        guard._active = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


_inside = threading.local()  # .listener is True while this thread runs a listener


def forbid_in_listener(what: str) -> None:
    """Raises RuntimeError on a thread running a listener: the header forbids blocking
    calls there (they could wait for the very thread that is calling)."""
    if getattr(_inside, "listener", False):
        raise RuntimeError(f"{what} blocks, so it cannot be called from a catfacts listener (on_request, "
                           "on_change, on_results): those run on a library thread. Hand the work to another "
                           "thread.")


def _report(error: BaseException, function: Callable[..., None], kind: str) -> None:
    # Re-raised into ctypes, which hands it to sys.unraisablehook ("Exception ignored on
    # calling ctypes callback function"); the note says whose callback it was.
    if hasattr(error, "add_note"):
        error.add_note(f"raised by the catfacts {kind} callback {function!r}; ignored")


def _deliver(ctx: Optional[int], kind: str, call: Callable[[Callable[..., None]], None]) -> None:
    """Runs ``call`` with the listener registered under ``ctx`` (if it still is), marked as
    inside a listener; an exception it raises is reported as from ``kind``'s callback."""
    global _last_call
    _last_call = time.monotonic()
    reference = _listeners.get(ctx or 0)
    listener = None if reference is None else reference()
    function = None if listener is None else listener.function
    if function is None:
        return
    _inside.listener = True
    try:
        call(function)
    except BaseException as error:
        _report(error, function, kind)
        raise
    finally:
        _inside.listener = False


def _request(ctx: Optional[int], endpoint: Optional[bytes], ms: float, status: int) -> None:
    """The C metrics listener: calls ``callback(endpoint, ms, ok)`` for the client ``ctx``."""
    _deliver(ctx, "on_request", lambda function: function((endpoint or b"").decode("utf-8", "replace"), ms, status == 0))


# Made once and kept for the whole process: C may call them until the process ends.
request_trampoline = METRICS_LISTENER(_request)


_EVENTS = frozenset(ListEvent)


def _list_change(ctx: Optional[int], event: int, first: int, count: int) -> None:
    """The C list listener: calls ``callback(event, first, count)`` for the list ``ctx``."""
    _deliver(ctx, "on_change", lambda function: function(ListEvent(event) if event in _EVENTS else event, first, count))


list_trampoline = LIST_LISTENER(_list_change)


def _search_answer(ctx: Optional[int], generation: int, status: int, results: Optional[bytes]) -> None:
    """The C search listener: calls ``arrive(generation, status, results_json)`` for the search ``ctx``."""
    _deliver(ctx, "on_results", lambda function: function(generation, status, results or b"{}"))


search_trampoline = SEARCH_LISTENER(_search_answer)
