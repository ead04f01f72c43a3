"""Search as you type: :class:`SearchSession` over ``cf_search_*``, and its :class:`SearchResults`.

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
import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Tuple, Union, overload

from ._handles import Guard, Listener, forbid_in_listener, search_trampoline, unregister
from ._native import lib
from .errors import CancelledError, CatFactsError, error_for, last_error, python_message
from .models import Breed

if TYPE_CHECKING:
    from .client import Client

__all__ = ["SearchSession", "SearchResults", "ResultsCallback"]

#: ``callback(results)``: an answer to the session's latest text.
ResultsCallback = Callable[["SearchResults"], Any]

# Blocking waits are made of slices this long, so that Ctrl-C gets through on the main thread.
_WAIT_SLICE_S = 0.05


@dataclass(frozen=True)
class SearchResults:
    """One answer of a :class:`SearchSession`: the breeds whose name starts with ``text``.

    Attributes:
        generation: which ``set()`` call it answers, counting from 1 (``session.generation``
            is the latest).
        text: the text searched.
        breeds: the matching breeds in name order, at most the session's ``limit``; empty
            when the search failed.
        source: where the breeds searched came from: "network", "cache" or
            "offline-catalog" (the bundled catalog, with ``offline_fallback``).
        error: why the breeds could not be loaded (a :class:`CatFactsError` such as
            :class:`NetworkError`), or None. The session goes on: the next ``set()`` tries
            to load them again. :meth:`raise_for_error` raises it.

    It is also a sequence of its breeds: ``len(results)``, ``results[0]``, ``for b in results``.
    """

    generation: int
    text: str
    breeds: Tuple[Breed, ...]
    source: str
    error: Optional[CatFactsError] = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        """Whether the search succeeded (``error`` is None)."""
        return self.error is None

    def raise_for_error(self) -> None:
        """Raises :attr:`error`, if the search failed."""
        if self.error is not None:
            raise self.error

    @classmethod
    def _from_library(cls, generation: int, status: int, results_json: bytes) -> "SearchResults":
        """The answer the C listener was given (``status`` and its JSON, see cf_search_listener)."""
        answer = json.loads(results_json.decode("utf-8", "replace"))
        text, source = answer.get("text", ""), answer.get("source", "network")
        if status == 0:
            breeds = tuple([Breed.from_json(item) for item in answer.get("items", ())])
            return cls(generation, text, breeds, source)
        error = error_for(status, python_message(answer.get("error", "")))
        return cls(generation, text, (), source, error)

    def __len__(self) -> int:
        return len(self.breeds)

    def __iter__(self) -> Iterator[Breed]:
        return iter(self.breeds)

    @overload
    def __getitem__(self, index: int) -> Breed: ...
    @overload
    def __getitem__(self, index: slice) -> Tuple[Breed, ...]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Breed, Tuple[Breed, ...]]:
        return self.breeds[index]

    def __repr__(self) -> str:
        shown = ", ".join(breed.name for breed in self.breeds[:3])
        if len(self.breeds) > 3:
            shown += f", ... ({len(self.breeds) - 3} more)"
        outcome = f"error={self.error!r}" if self.error is not None else f"breeds=[{shown}]"
        return f"SearchResults(generation={self.generation}, text={self.text!r}, source={self.source!r}, {outcome})"


class _Answers:
    """What a session's C listener feeds (see :class:`_Receiver`): the answers to its latest
    text, handed to the callback or kept for a reader. The session's finalizer keeps it, so it
    holds neither the session nor the callback (which may refer to the session): an unused
    session can be garbage collected."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.generation = 0  # of the latest set(); the library numbers them the same way
        self.unread: Optional[SearchResults] = None
        self.closed = False
        self.on_close: Optional[Callable[[], None]] = None

    def arrive(self, callback: Optional[ResultsCallback], generation: int, status: int, results_json: bytes) -> None:
        """An answer from the library (on a library thread), for ``callback`` if not None."""
        with self.lock:
            if self.closed or generation < self.generation:
                return  # a newer text was set since the library decided to answer this one
        results = SearchResults._from_library(generation, status, results_json)
        if callback is not None:
            callback(results)
            return
        with self.lock:
            if not self.closed and generation >= self.generation:
                self.unread = results
                self.lock.notify_all()

    def close(self) -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.unread = None
            self.lock.notify_all()
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


class SearchSession:
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

        with client.search_session(debounce=0.15, limit=10) as search:
            search.set("a"); search.set("ab")
            for results in search:      # one answer, for "ab"
                print([breed.name for breed in results])
                break
    """

    def __init__(self, client: "Client", debounce_ms: int, limit: int,
                 on_results: Optional[ResultsCallback], fields: Optional[List[str]] = None) -> None:
        if on_results is not None and not callable(on_results):
            raise TypeError(f"on_results must be callable or None, not {type(on_results).__name__}")
        self._client = client  # a search must not outlive its client's handle
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
            handle = client._open_search(options, key)
        except BaseException:
            unregister(key)
            raise
        self._guard = Guard(handle, functools.partial(_detach_search, key), lib.cf_search_close, "search", rank=0)
        self._finalizer = weakref.finalize(self, _close, self._answers, self._guard)

    # typing

    def set(self, text: str) -> None:
        """Sets the text to search (the whole of it, as typed so far; "" matches every breed).
        Never blocks. An answer to an earlier text that was not handed out yet never will be.

        Raises:
            TypeError: ``text`` is not a str.
            ArgumentError: it holds a NUL character, or is longer than 1024 bytes in UTF-8.
            CancelledError: the session is closed.
        """
        from .client import _encode  # client imports this module

        data = _encode(text, "text")
        answers = self._answers
        with self._guard as handle:  # left outside the lock: the last one out may close the search
            with answers.lock:
                status = lib.cf_search_set(handle, data)
                if status:
                    raise last_error(status)
                answers.generation += 1
                answers.unread = None

    @property
    def generation(self) -> int:
        """How many times :meth:`set` was called: the generation the next answer will carry."""
        return self._answers.generation

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
        deadline = None if timeout is None else time.monotonic() + float(timeout)
        with answers.lock:
            while True:
                if answers.closed:
                    raise CancelledError("the search session is closed")
                if answers.unread is not None:
                    results, answers.unread = answers.unread, None
                    return results
                wait = _WAIT_SLICE_S
                if deadline is not None:
                    wait = min(wait, deadline - time.monotonic())
                    if wait <= 0:
                        return None
                answers.lock.wait(wait)

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
        return self._answers.closed

    def _on_close(self, hook: Callable[[], None]) -> None:
        """Calls ``hook()`` once the session closes, on the closing thread (at once if closed)."""
        with self._answers.lock:
            if not self._answers.closed:
                self._answers.on_close = hook
                return
        hook()

    def __enter__(self) -> "SearchSession":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<catfacts.SearchSession generation={self.generation} limit={self._limit} {state}>"


def open_search(handle: int, options: "dict[str, Any]", key: int) -> int:
    """``cf_search_open`` on a client's handle, the listener being the session under ``key``."""
    out = ctypes.c_void_p()
    status = lib.cf_search_open(handle, json.dumps(options).encode(), search_trampoline, key, ctypes.byref(out))
    if status:
        raise last_error(status)
    return out.value or 0
