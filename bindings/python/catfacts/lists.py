"""Lazily loaded sequences over whole collections (the library's windowed pager)."""
from __future__ import annotations

import ctypes
import functools
import json
import operator
import time
import weakref
from typing import (Any, Callable, ClassVar, Dict, Generic, Iterator, List, Literal, Optional, Sequence, Tuple, TypeVar,
                    Union, overload)

from ._blocking import run_interruptible
from ._closing import Closing
from ._connection import Connection
from ._handles import Guard, Listener, forbid_in_listener, list_trampoline, set_listener, unregister
from ._native import NO_LIST_LISTENER, CBreed, CBreedArray, CFact, CFactArray, breeds_text, facts_text, lib
from .errors import CancelledError, CatFactsError, InternalError, Status, check, last_error
from .models import Breed, Fact, ListEvent

__all__ = ["PagedList", "BreedList", "FactList", "ChangeCallback"]

T = TypeVar("T", Breed, Fact)

#: ``callback(event, first, count)``: a range of indices was loaded, failed or dropped.
ChangeCallback = Callable[[ListEvent, int, int], Any]

_OK, _PENDING, _NOT_FOUND = int(Status.OK), int(Status.PENDING), int(Status.ERR_NOT_FOUND)
_CANCELLED = int(Status.ERR_CANCELLED)
# Blocking waits are made of slices this long, so that close() on another thread gets through
# (Ctrl-C interrupts a slice: see _blocking).
_WAIT_SLICE_S = 0.2

_Outcome = Tuple[int, Any]  # (status, the item or the exception)


def _wait_slice(handle: int, index: int, milliseconds: int) -> _Outcome:
    """cf_list_wait once: (status, None or the error, read on the waiting thread)."""
    waited = int(lib.cf_list_wait(handle, index, milliseconds))
    return waited, (None if waited in (_OK, _PENDING) else last_error(waited))


def _open(connection: Connection, collection: int, options: Dict[str, Any]) -> int:
    """cf_list_open on the client's handle: the new list's handle."""
    out = ctypes.c_void_p()
    with connection.guard as handle:
        status = lib.cf_list_open(handle, collection, json.dumps(options).encode(), ctypes.byref(out))
        check(status)
    return out.value or 0


def _detach_list(key: int, handle: int) -> None:
    lib.cf_list_set_listener(handle, NO_LIST_LISTENER, None)
    unregister(key)


def _text(value: Optional[bytes]) -> Optional[str]:
    return None if value is None else value.decode("utf-8", "replace")


class PagedList(Closing, Sequence[T], Generic[T]):
    """A sequence over a whole collection that loads pages around where it is read.

    Reading an index loads its page (and prefetches its neighbours); ``lst[i]``, slices
    and iteration wait for the pages they need, ``get(i)`` does not. Pages far from the
    latest access are dropped past ``max_cached_items`` and load again when read.

    Close it when done (``close()`` or ``with``); closing its client closes it too, and
    a list that is garbage collected is closed then. Safe to share between threads.
    """

    _collection: ClassVar[int]  # CF_BREEDS or CF_FACTS
    _item_reader: ClassVar["_Reader"]  # reads one item
    _run_reader: ClassVar["_Reader"]  # reads the rest of a page

    def __init__(self, connection: Connection, options: Dict[str, Any]) -> None:
        self._connection = connection  # a list must not outlive its client's handle
        self._options = dict(options)
        self._count: Optional[int] = None
        handle = _open(connection, self._collection, options)
        self._listener = Listener()  # the guard names it by key only: see Listener
        self._guard = Guard(handle, functools.partial(_detach_list, self._listener.key), lib.cf_list_close, "list",
                            rank=0)
        self._finalizer: "weakref.finalize[[], PagedList[Any]]" = weakref.finalize(self, self._guard.close)
        connection.adopt(self)

    def _fetch(self, handle: int, index: int) -> _Outcome:
        """cf_list_breed / cf_list_fact once: (status, item or error)."""
        return self._item_reader.read(handle, index)

    def _fetch_run(self, handle: int, index: int, limit: int) -> _Outcome:
        """cf_list_breeds / cf_list_facts: up to ``limit`` (>= 1) loaded items from ``index``
        on, the rest of its page, in one call without waiting: (status, list of items or error)."""
        return self._run_reader.read(handle, index, limit)

    # lifetime

    def close(self) -> None:
        """Closes the list, cancelling its loads; waits in other threads raise
        :class:`CancelledError`. Idempotent."""
        self._finalizer()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (or its client closed)."""
        return self._guard.closing

    def __repr__(self) -> str:
        count = self._known_count()
        return (f"<catfacts.{type(self).__name__} count={'unknown' if count is None else count} "
                f"page_size={self._options['page_size']} {self._state()}>")

    # reading

    def _known_count(self) -> Optional[int]:
        """The item count if already known, without blocking."""
        if self._count is None and not self._guard.closing:
            try:
                with self._guard as handle:
                    count = lib.cf_list_count(handle)
            except CancelledError:
                return None
            if count >= 0:
                self._count = count
        return self._count

    def _wait(self, handle: int, index: int, deadline: Optional[float]) -> _Outcome:
        """Reads ``index``, waiting for its page until ``deadline`` (monotonic; None: no limit)."""
        while True:
            status, value = self._fetch(handle, index)
            if status != _PENDING:
                return status, value
            if self._guard.closing:
                return _CANCELLED, CancelledError("the list is closed")
            slice_s = _WAIT_SLICE_S
            if deadline is not None:
                slice_s = min(slice_s, deadline - time.monotonic())
                if slice_s <= 0:
                    return _PENDING, None
            forbid_in_listener("waiting for a list item")
            wait = functools.partial(_wait_slice, handle, index, max(1, int(slice_s * 1000)))
            waited, error = run_interruptible(wait, self._connection.interrupt)
            if error is not None:
                return waited, error

    def _result(self, outcome: _Outcome, index: int) -> T:
        status, value = outcome
        if status == _OK:
            item: T = value
            return item
        if status == _NOT_FOUND:
            raise IndexError(f"list index {index} out of range ({value})")
        raise value

    def __len__(self) -> int:
        """The number of items; waits for the first page if it is not known yet.

        Raises the first page's error if it failed to load.
        """
        if self._count is not None:
            return self._count
        with self._guard as handle:
            count = int(lib.cf_list_count(handle))
            if count < 0:
                status, value = self._wait(handle, 0, None)
                count = int(lib.cf_list_count(handle))
                if count < 0:
                    raise value if isinstance(value, CatFactsError) else InternalError(
                        f"the list has no count after its first page loaded (status {status})")
        self._count = count
        return count

    def _index(self, index: Any) -> int:
        position = operator.index(index)
        count = self._count
        if position < 0:
            count = len(self)
            position += count
            if position < 0:
                raise IndexError(f"list index {index} out of range (the list has {count} items)")
        if count is not None and position >= count:
            raise IndexError(f"list index {index} out of range (the list has {count} items)")
        return position

    def _item(self, index: int) -> T:
        with self._guard as handle:
            outcome = self._wait(handle, index, None)
        return self._result(outcome, index)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> List[T]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[T, List[T]]:
        """The item at ``index`` (negative from the end), waiting for its page; a slice
        gives a list of items.

        Raises:
            IndexError: past the end.
            NetworkError, TimeoutError, HTTPError, ...: the page failed to load (until
                :meth:`retry`).
            CancelledError: the list was closed.
        """
        if isinstance(index, slice):
            return [self._item(position) for position in range(*index.indices(len(self)))]
        return self._item(self._index(index))

    def get(self, index: int, wait: Union[bool, float, None] = False) -> Optional[T]:
        """The item at ``index``, or None while its page is loading.

        Args:
            index: from 0; negative counts from the end (that needs the count: without
                waiting, None until the first page has loaded).
            wait: False: do not block (the read starts the load); True: wait for the page;
                a number: wait at most that many seconds, then None.

        Raises:
            IndexError: past the end.
            NetworkError, TimeoutError, HTTPError, ...: the page failed to load.
        """
        if wait is True:
            deadline: Optional[float] = None
        elif not wait:
            deadline = 0.0
        else:
            deadline = time.monotonic() + float(wait)
        position = operator.index(index)
        with self._guard as handle:
            if position < 0:
                count = self._known_count()
                if count is None:
                    status, value = (self._fetch(handle, 0) if deadline == 0.0 else self._wait(handle, 0, deadline))
                    if status == _PENDING:
                        return None
                    if status not in (_OK, _NOT_FOUND):
                        raise value
                    count = self._known_count() or 0
                position += count
                if position < 0:
                    raise IndexError(f"list index {index} out of range (the list has {count} items)")
            if deadline == 0.0:
                outcome = self._fetch(handle, position)
            else:
                outcome = self._wait(handle, position, deadline)
        if outcome[0] == _PENDING:
            return None
        return self._result(outcome, position)

    def __iter__(self) -> Iterator[T]:
        """Every item in order, waiting for pages as needed (the next ones are prefetched).
        Items come a page at a time from the library (one foreign call per page, not per item).

        An iterator under way keeps the handle open; once the list is closed, its next
        step raises :class:`CancelledError`.
        """
        count = len(self)
        guard = self._guard
        with guard as handle:
            position = 0
            while position < count:
                run = self._run(handle, position, count - position)
                for item in run:
                    if guard.closing:
                        raise CancelledError("the list is closed")
                    yield item
                position += len(run)

    def _run(self, handle: int, index: int, limit: int) -> List[T]:
        """The loaded items from ``index`` on (at least one, at most ``limit``), waiting for
        ``index``'s page if it is not loaded; raises what reading ``index`` raises."""
        if self._guard.closing:
            raise CancelledError("the list is closed")
        status, value = self._fetch_run(handle, index, limit)
        if status == _OK:
            run: List[T] = value
            return run
        item = self._result(self._wait(handle, index, None), index)
        status, value = self._fetch_run(handle, index, limit)
        # The page may have been dropped again since the wait (a small max_cached_items
        # and other readers): the item the wait read is still right.
        return value if status == _OK else [item]

    @overload
    def batch(self, index: int, limit: int, wait: Literal[True] = ...) -> List[T]: ...
    @overload
    def batch(self, index: int, limit: int, wait: bool) -> Optional[List[T]]: ...

    def batch(self, index: int, limit: int, wait: bool = True) -> Optional[List[T]]:
        """The loaded items from ``index`` on, at least one and at most ``limit``, in one
        foreign call (``cf_list_batch``): the page of ``index`` and those loaded after it.

        Args:
            index: from 0; negative counts from the end (that needs the count, so it waits
                for the first page even with ``wait=False``).
            limit: the most items wanted, 1 or more.
            wait: True: wait for ``index``'s page; False: None while it loads (the read
                starts the load).

        Raises:
            IndexError: past the end.
            ValueError: ``limit`` under 1.
            NetworkError, TimeoutError, HTTPError, ...: ``index``'s page failed to load.
            CancelledError: the list was closed.
        """
        limit = operator.index(limit)
        if limit < 1:
            raise ValueError(f"limit={limit}: must be 1 or more")
        position = self._index(index)
        with self._guard as handle:
            if wait:
                return self._run(handle, position, limit)
            status, value = self._fetch_run(handle, position, limit)
        if status == _PENDING:
            return None
        if status != _OK:
            self._result((status, value), position)
        run: List[T] = value
        return run

    def __reversed__(self) -> Iterator[T]:
        for position in range(len(self) - 1, -1, -1):
            yield self._item(position)

    # control

    def retry(self) -> None:
        """Forgets failed pages so they load again, and reloads those around the latest access."""
        with self._guard as handle:
            status = lib.cf_list_retry(handle)
            check(status)

    def on_change(self, callback: Optional[ChangeCallback]) -> None:
        """Calls ``callback(event, first, count)`` when a range of indices is loaded, failed
        or dropped (``event`` is a :class:`ListEvent`). None removes it.

        It runs on a library thread: keep it short. Reads that would wait raise RuntimeError
        there (``get(i)`` without ``wait`` is fine). Its exceptions go to ``sys.unraisablehook``.
        """
        set_listener(self._guard, self._listener, callback, lib.cf_list_set_listener, list_trampoline, NO_LIST_LISTENER)


class _Reader:
    """One of the library's list reads: ``call(handle, *args, &out)`` fills ``out``, a
    ``pointer``; the item is ``convert(out.contents)``, and ``free(out)`` frees the C copy."""

    __slots__ = ("call", "pointer", "convert", "free")

    def __init__(self, call: Callable[..., int], pointer: Any, convert: Callable[[Any], Any],
                 free: Callable[[Any], None]) -> None:
        self.call, self.pointer, self.convert, self.free = call, pointer, convert, free

    def read(self, handle: int, *args: int) -> _Outcome:
        """(status, the item) if it was loaded, else (status, None while pending, or the error)."""
        out = self.pointer()
        status = self.call(handle, *args, ctypes.byref(out))
        if status != _OK:
            return status, (None if status == _PENDING else last_error(status))
        try:
            return status, self.convert(out.contents)
        finally:
            self.free(out)


def _free_block(out: Any) -> None:
    lib.cf_free(ctypes.cast(out, ctypes.c_void_p))


def _breed(breed: CBreed) -> Breed:
    return Breed(_text(breed.breed) or "", _text(breed.country), _text(breed.origin), _text(breed.coat),
                 _text(breed.pattern))


def _breeds(block: CBreedArray) -> List[Breed]:
    return Breed._from_text(breeds_text(block), block.count)


def _fact(fact: CFact) -> Fact:
    return Fact(_text(fact.fact) or "", fact.length)


def _facts(block: CFactArray) -> List[Fact]:
    return Fact._from_text(*facts_text(block))


class BreedList(PagedList[Breed]):
    """Every breed, loaded page by page as it is read: ``client.breeds()``."""

    _collection = 0  # CF_BREEDS
    _item_reader = _Reader(lib.cf_list_breed, ctypes.POINTER(CBreed), _breed, lib.cf_breed_free)
    _run_reader = _Reader(lib.cf_list_breeds, ctypes.POINTER(CBreedArray), _breeds, _free_block)


class FactList(PagedList[Fact]):
    """Every fact (up to a maximum length), loaded page by page as it is read: ``client.facts()``."""

    _collection = 1  # CF_FACTS
    _item_reader = _Reader(lib.cf_list_fact, ctypes.POINTER(CFact), _fact, lib.cf_fact_free)
    _run_reader = _Reader(lib.cf_list_facts, ctypes.POINTER(CFactArray), _facts, _free_block)
