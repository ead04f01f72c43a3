"""Search as you type: :class:`SearchSession` over ``cf_search_*``; its answers are
:class:`SearchResults` (from :mod:`.models`, named here too).

Each ``set(text)`` is a keystroke; the library waits until the text has stayed unchanged for
the debounce interval, searches the client's breeds by name prefix (loaded in the
background from the moment the session opens, then kept) and answers the latest text only. This module adds one more rule on the
Python side: an answer is handed out only while its text is still the latest one set, so an
answer that arrived but was not read yet is dropped by the next ``set``.
"""
from __future__ import annotations

import ctypes
import functools
import json
import threading
import weakref
from typing import Any, Callable, Dict, Iterator, List, Optional

from ._closing import Closing
from ._connection import Connection
from ._convert import encode
from ._handles import Guard, Listener, forbid_in_listener, search_trampoline, unregister
from ._mailbox import Deadline, Mailbox
from ._native import lib
from .errors import CancelledError, check
from .models import SearchResults

__all__ = ["SearchSession", "SearchResults", "ResultsCallback"]

#: ``callback(results)``: an answer to the session's latest text.
ResultsCallback = Callable[[SearchResults], Any]

# Blocking waits are made of slices this long, so that Ctrl-C gets through on the main thread.
_WAIT_SLICE_S = 0.05


class _Answers:
    """What a session's C listener feeds (see :class:`_Receiver`): the answers to its latest
    text, handed to the callback or kept for a reader. The session's finalizer keeps it, so it
    holds neither the session nor the callback (which may refer to the session): an unused
    session can be garbage collected."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.mailbox = Mailbox(self.lock.notify_all)  # used under the lock only
        self.on_close: Optional[Callable[[], None]] = None

    def arrive(self, callback: Optional[ResultsCallback], generation: int, status: int, results_json: bytes) -> None:
        """An answer from the library (on a library thread), for ``callback`` if not None."""
        with self.lock:
            if not self.mailbox.wants(generation):
                return  # a newer text was set since the library decided to answer this one
        results = SearchResults._from_library(generation, status, results_json)
        if callback is not None:
            callback(results)
            return
        with self.lock:
            self.mailbox.put(results)

    def close(self) -> None:
        with self.lock:
            if not self.mailbox.close():
                return
            on_close = self.on_close
        if on_close is not None:
            on_close()


class _Receiver:
    """A session's C listener: its answers to ``callback``, or kept in ``answers`` for a reader
    when it is None. Only the session keeps it (in its :class:`Listener`)."""

    __slots__ = ("answers", "callback")

    def __init__(self, answers: _Answers, callback: Optional[ResultsCallback]) -> None:
        self.answers = answers
        self.callback = callback

    def __call__(self, generation: int, status: int, results_json: bytes) -> None:
        self.answers.arrive(self.callback, generation, status, results_json)

    def __repr__(self) -> str:
        # Named in the note of an exception the callback raises (see _handles._report).
        return repr(self.callback) if self.callback is not None else "<a catfacts search session's reader>"


def _close(answers: _Answers, guard: Guard) -> None:
    answers.close()
    guard.close()  # cf_search_close: waits for an answer being delivered, not for the network


def _detach_search(key: int, handle: int) -> None:
    # cf_search has no listener to remove but by closing; a late call finds no key and returns.
    unregister(key)


class SearchSession(Closing):
    """Search as you type over a client's breeds: ``client.search_session()``.

    Call :meth:`set` with the whole text at each keystroke; it never blocks. Once the text has
    stayed unchanged for ``debounce`` seconds it is searched (a name prefix, case- and
    diacritic-insensitive) and answered with :class:`SearchResults`, for the latest text only:
    a burst of typing costs one search, and an answer to an older text is never handed out.
    The breeds start loading when the session opens (every page, in the background); searches
    send no request.

    Answers go to ``on_results`` if given, which runs on a library thread (keep it short; it
    may call :meth:`set` and :meth:`close`, but no blocking call). Otherwise read them:
    ``session.results(timeout)`` waits for the next one, and ``for results in session:``
    gets each until the session is closed.

    Close it when done (``close()`` or ``with``): after ``close()`` returns no answer is
    handed out. Closing its client closes it too, and a session garbage collected is closed.

    Example::

        import catfacts

        with catfacts.Client("http://127.0.0.1:8106") as client:
            with client.search_session(debounce=0.15, limit=10) as search:
                search.set("a"); search.set("ab")
                for results in search:      # one answer, for "ab"
                    print([breed.breed for breed in results])
                    break
    """

    def __init__(self, connection: Connection, debounce_ms: int, limit: int,
                 on_results: Optional[ResultsCallback], fields: Optional[List[str]] = None) -> None:
        if on_results is not None and not callable(on_results):
            raise TypeError(f"on_results must be callable or None, not {type(on_results).__name__}")
        self._connection = connection  # a search must not outlive its client's handle
        self._limit = limit
        self._answers = _Answers()
        self._pushes = on_results is not None
        self._listener = Listener()  # the guard names it by key only: see Listener
        key = self._listener.key
        self._listener.set(_Receiver(self._answers, on_results))  # before opening: it may be called at once
        try:
            options: Dict[str, Any] = {"debounce_ms": debounce_ms, "limit": limit}
            if fields is not None:
                options["fields"] = fields
            with connection.guard as client_handle:
                handle = _open(client_handle, options, key)
        except BaseException:
            unregister(key)
            raise
        self._guard = Guard(handle, functools.partial(_detach_search, key), lib.cf_search_close, "search", rank=0)
        self._finalizer = weakref.finalize(self, _close, self._answers, self._guard)
        connection.adopt(self)

    # typing

    def set(self, text: str) -> None:
        """Sets the text to search (the whole of it, as typed so far; "" matches every breed).
        Never blocks. An answer to an earlier text that was not handed out yet never will be.

        Raises:
            TypeError: ``text`` is not a str.
            ArgumentError: it holds a NUL character, or is longer than 1024 bytes in UTF-8.
            CancelledError: the session is closed.
        """
        data = encode(text, "text")
        answers = self._answers
        with self._guard as handle:  # left outside the lock: the last one out may close the search
            with answers.lock:
                status = lib.cf_search_set(handle, data)
                check(status)
                answers.mailbox.typed()

    @property
    def generation(self) -> int:
        """How many times :meth:`set` was called: the generation the next answer will carry."""
        return self._answers.mailbox.generation

    # reading

    def results(self, timeout: Optional[float] = None) -> Optional[SearchResults]:
        """The next answer to the latest text, waiting at most ``timeout`` seconds for it (None:
        no limit); None if none came in time. Ctrl-C interrupts the wait.

        Raises:
            CancelledError: the session is (or gets) closed.
            RuntimeError: the session has an ``on_results`` callback (answers go there), or this
                is called from a catfacts callback.
        """
        answers = self._answers
        if self._pushes:
            raise RuntimeError("this session hands its answers to on_results; results() has none to give")
        forbid_in_listener("waiting for search results")
        deadline = Deadline(timeout)
        with answers.lock:
            while True:
                results = answers.mailbox.take()
                if results is not None:
                    return results
                left = deadline.left()
                if left is not None and left <= 0:
                    return None
                answers.lock.wait(_WAIT_SLICE_S if left is None else min(_WAIT_SLICE_S, left))

    def __iter__(self) -> Iterator[SearchResults]:
        """Each answer as it comes (waiting for it), until the session is closed."""
        while True:
            try:
                results = self.results()
            except CancelledError:
                return
            if results is not None:
                yield results

    # lifetime

    def close(self) -> None:
        """Closes the session: a search under way is cancelled (not waited for), readers
        waiting in :meth:`results` raise :class:`CancelledError`, iteration ends, and no answer
        is handed out after this returns. Idempotent; a callback may close its own session."""
        self._finalizer()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (or its client closed)."""
        return self._answers.mailbox.closed

    def _on_close(self, hook: Callable[[], None]) -> None:
        """Calls ``hook()`` once the session closes, on the closing thread (at once if closed)."""
        with self._answers.lock:
            if not self._answers.mailbox.closed:
                self._answers.on_close = hook
                return
        hook()

    def __repr__(self) -> str:
        return f"<catfacts.SearchSession generation={self.generation} limit={self._limit} {self._state()}>"


def _open(handle: int, options: Dict[str, Any], key: int) -> int:
    """``cf_search_open`` on a client's handle, the listener being the session under ``key``."""
    out = ctypes.c_void_p()
    status = lib.cf_search_open(handle, json.dumps(options).encode(), search_trampoline, key, ctypes.byref(out))
    check(status)
    return out.value or 0
