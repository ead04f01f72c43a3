"""catfacts for asyncio: :class:`AsyncClient`, the methods of :class:`Client`, awaitable.

The library's calls block, so each one runs on a thread of the client's own pool (as many
as ``max_concurrency``) and the event loop goes on meanwhile: a hundred calls awaited at
once are a hundred requests under way (the library opens up to 8 connections per host and
queues the rest). Cancelling a task interrupts its call (``cf_client_interrupt``); the
library's interrupt reaches every call under way on the client, so the others are sent
again, and only the cancelled task sees ``asyncio.CancelledError``. Callbacks
(``on_request``, a list's ``on_change``, a search's ``on_results``) are delivered on the
event loop.
"""
from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import weakref
from abc import abstractmethod
from concurrent.futures import ThreadPoolExecutor
from typing import (Any, AsyncGenerator, AsyncIterator, Awaitable, Callable, ContextManager, Dict, Generic,
                    Iterable, List, Mapping, Optional, TypeVar, Union)

from ._closing import Closing
from ._config import ClientConfig
from ._mailbox import Deadline, Mailbox
from ._pages import PageWindow, check_parallel
from .client import Client, RequestCallback
from .errors import ArgumentError, CancelledError
from .lists import ChangeCallback, PagedList
from .metrics import Metrics
from .models import Breed, Fact, Page, SearchResults
from .search import ResultsCallback, SearchSession

__all__ = ["AsyncClient", "AsyncPagedList", "AsyncSearchSession"]

_R = TypeVar("_R")
_T = TypeVar("_T", Breed, Fact)


class _Calls:
    """Runs blocking calls of one client on its thread pool, interruptible by cancellation."""

    def __init__(self, client: Client, max_concurrency: int) -> None:
        self.client = client
        self.executor = ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix="catfacts-async")
        self._interrupts = 0  # how many cancellations interrupted the client's calls

    async def run(self, function: Callable[..., _R], *args: Any) -> _R:
        loop = asyncio.get_running_loop()
        while True:
            generation = self._interrupts
            # In a copy of the task's context: its trace parent (contextvars) goes with the call.
            future = loop.run_in_executor(self.executor, contextvars.copy_context().run, functools.partial(function, *args))
            try:
                return await future
            except asyncio.CancelledError:
                # This task was cancelled: end its call (and, the library being per client,
                # every call under way on it: see below).
                self._interrupts += 1
                self.client.interrupt()
                self._interrupts += 1
                raise
            except CancelledError:
                if self._interrupts != generation and not self.client.closed:
                    continue  # another task's cancellation cut this call short: send it again
                raise


class AsyncClient:
    """:class:`Client` for asyncio: the same arguments, the same methods, awaitable.

    Args:
        max_concurrency: the most calls under way at once (threads of the client's pool);
            more wait their turn. Calls to one server are also bounded by
            ``max_connections`` (a few by default): raise it for many calls at once.
        The others: as for :class:`Client`.

    Use it as ``async with``, or ``await client.aclose()``. Example (``python -m asyncio``)::

        import asyncio
        import catfacts

        async with catfacts.AsyncClient("http://127.0.0.1:8106", timeout=5) as client:
            pages = await asyncio.gather(*(client.breeds_page(n, limit=10) for n in range(1, 11)))
            async for breed in client.breeds():
                ...
    """

    def __init__(self, base_url: Optional[str] = None, timeout: Optional[float] = 10.0, retries: int = 2,
                 cache_path: Union[str, "os.PathLike[str]", None] = None, offline_fallback: bool = False,
                 user_agent: Optional[str] = None, cache_ttl: Optional[float] = None,
                 cache_max_bytes: Optional[int] = None, proxy: Optional[str] = None, *,
                 connect_timeout: Optional[float] = None, attempt_timeout: Optional[float] = None,
                 read_ahead: Optional[int] = None, max_connections: Optional[int] = None,
                 otlp_endpoint: Optional[str] = None, ca_file: Union[str, "os.PathLike[str]", None] = None,
                 otel_context: bool = True,
                 max_concurrency: int = 128) -> None:
        if max_concurrency < 1:
            raise ArgumentError(f"invalid argument: max_concurrency={max_concurrency}: must be at least 1")
        self._client = Client._from_config(ClientConfig(
            base_url=base_url, timeout=timeout, retries=retries, cache_path=cache_path,
            offline_fallback=offline_fallback, user_agent=user_agent, cache_ttl=cache_ttl,
            cache_max_bytes=cache_max_bytes, proxy=proxy, connect_timeout=connect_timeout,
            attempt_timeout=attempt_timeout, read_ahead=read_ahead,
            max_connections=max_connections, otlp_endpoint=otlp_endpoint, ca_file=ca_file,
            otel_context=otel_context))
        self._calls = _Calls(self._client, max_concurrency)

    # lifetime

    async def aclose(self) -> None:
        """Closes the client (see :meth:`Client.close`) and lets its threads go."""
        self.close()

    def close(self) -> None:
        """Closes the client; calls under way finish on their threads, unwaited for."""
        self._client.close()
        self._calls.executor.shutdown(wait=False, cancel_futures=True)

    @property
    def closed(self) -> bool:
        return self._client.closed

    @property
    def base_url(self) -> Optional[str]:
        return self._client.base_url

    @property
    def sync(self) -> Client:
        """The :class:`Client` underneath (its calls block)."""
        return self._client

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return repr(self._client).replace("catfacts.Client", "catfacts.AsyncClient", 1)

    def interrupt(self) -> None:
        """As :meth:`Client.interrupt`: every call under way raises :class:`CancelledError`."""
        self._client.interrupt()

    # one-shot calls

    async def breeds_page(self, page: int = 1, limit: int = 25) -> Page[Breed]:
        """As :meth:`Client.breeds_page`."""
        return await self._calls.run(self._client.breeds_page, page, limit)

    async def facts_page(self, page: int = 1, limit: int = 25, max_length: int = 0) -> Page[Fact]:
        """As :meth:`Client.facts_page`."""
        return await self._calls.run(self._client.facts_page, page, limit, max_length)

    async def fact(self, max_length: int = 0) -> Fact:
        """As :meth:`Client.fact`."""
        return await self._calls.run(self._client.fact, max_length)

    async def breed(self, name: str) -> Breed:
        """As :meth:`Client.breed`."""
        return await self._calls.run(self._client.breed, name)

    def breeds_pages(self, limit: int = 25, *, first: int = 1, parallel: int = 4) -> AsyncIterator[Page[Breed]]:
        """As :meth:`Client.breeds_pages`: every page in order, ``parallel`` loading at once."""
        return self._pages(functools.partial(self.breeds_page, limit=limit), first, parallel)

    def facts_pages(self, limit: int = 25, max_length: int = 0, *, first: int = 1,
                    parallel: int = 4) -> AsyncIterator[Page[Fact]]:
        """As :meth:`Client.facts_pages`."""
        return self._pages(functools.partial(self.facts_page, limit=limit, max_length=max_length), first, parallel)

    async def _pages(self, fetch: Callable[[int], Awaitable[Page[_T]]], first: int,
                     parallel: int) -> AsyncGenerator[Page[_T], None]:
        check_parallel(parallel)
        page = await fetch(first)
        yield page
        window = PageWindow(first, page.last_page, parallel, lambda number: asyncio.ensure_future(fetch(number)))
        try:
            while window.more:
                yield await window.take()
        finally:
            for task in window.drain():
                task.cancel()

    # queries

    async def query(self, search: Optional[str] = None, *, sort_by: Optional[str] = None, descending: bool = False,
                    where: Optional[Mapping[str, str]] = None, present: Optional[Iterable[str]] = None,
                    limit: Optional[int] = None) -> List[Breed]:
        """As :meth:`Client.query`."""
        return await self._calls.run(functools.partial(self._client.query, search, sort_by=sort_by,
                                                       descending=descending, where=where, present=present,
                                                       limit=limit))

    async def group(self, by: str, search: Optional[str] = None, *, sort_by: Optional[str] = None,
                    descending: bool = False, where: Optional[Mapping[str, str]] = None,
                    present: Optional[Iterable[str]] = None, limit: Optional[int] = None) -> Dict[str, List[Breed]]:
        """As :meth:`Client.group`."""
        return await self._calls.run(functools.partial(self._client.group, by, search, sort_by=sort_by,
                                                       descending=descending, where=where, present=present,
                                                       limit=limit))

    # paged lists

    def breeds(self, page_size: int = 25, prefetch_distance: Optional[int] = None,
               max_cached_items: Optional[int] = None) -> "AsyncPagedList[Breed]":
        """As :meth:`Client.breeds`, with awaitable reads and ``async for``."""
        return AsyncPagedList(self._client.breeds(page_size, prefetch_distance, max_cached_items), self._calls)

    def facts(self, page_size: int = 25, max_length: int = 0, prefetch_distance: Optional[int] = None,
              max_cached_items: Optional[int] = None) -> "AsyncPagedList[Fact]":
        """As :meth:`Client.facts`, with awaitable reads and ``async for``."""
        return AsyncPagedList(self._client.facts(page_size, max_length, prefetch_distance, max_cached_items),
                              self._calls)

    # search as you type

    def search_session(self, debounce: float = 0.15, limit: int = 20,
                       on_results: Optional[ResultsCallback] = None, *,
                       fields: Optional[Iterable[str]] = None) -> "AsyncSearchSession":
        """As :meth:`Client.search_session`, with answers delivered on the event loop that is
        running now (call this from a coroutine): ``async for results in session``,
        ``await session.results(timeout)``, or ``on_results`` called on the loop."""
        return AsyncSearchSession(self._client, debounce, limit, on_results, fields)

    # trace context

    def set_trace_parent(self, traceparent: Optional[str]) -> None:
        """As :meth:`Client.set_trace_parent` (it never blocks)."""
        self._client.set_trace_parent(traceparent)

    def trace_parent(self, traceparent: Optional[str], tracestate: Optional[str] = None) -> ContextManager[None]:
        """As :meth:`Client.trace_parent`: ``with client.trace_parent(tp):`` around the
        awaits whose calls are in the host's trace. The trace parent is the task's
        (:mod:`contextvars`): other tasks running meanwhile on the same client are not in
        the trace, and tasks started in the block are."""
        return self._client.trace_parent(traceparent, tracestate)

    # metrics

    async def metrics(self) -> Metrics:
        """As :meth:`Client.metrics` (it never blocks on the network)."""
        return self._client.metrics()

    async def metrics_prometheus(self) -> str:
        """As :meth:`Client.metrics_prometheus`."""
        return self._client.metrics_prometheus()

    def on_request(self, callback: Optional[RequestCallback]) -> None:
        """As :meth:`Client.on_request`, but ``callback`` runs on the event loop that is
        running now (call this from a coroutine), so it may use asyncio freely."""
        self._client.on_request(None if callback is None else _on_loop(callback))


def _on_loop(callback: Callable[..., Any]) -> Callable[..., None]:
    """``callback``, called on the running event loop from whichever thread calls the result."""
    if not callable(callback):
        raise TypeError(f"callback must be callable or None, not {type(callback).__name__}")
    loop = asyncio.get_running_loop()

    def deliver(*args: Any) -> None:
        if not loop.is_closed():
            loop.call_soon_threadsafe(callback, *args)

    return deliver


_F = TypeVar("_F", bound="_AsyncFront")


class _AsyncFront:
    """What an async list and an async search share with the object they front (``sync``):
    closing (also by ``async with``), and its repr with "Async" added."""

    __slots__ = ()

    @property
    @abstractmethod
    def sync(self) -> Closing:
        """The synchronous object this one fronts."""

    def close(self) -> None:
        """Closes the object underneath."""
        self.sync.close()

    @property
    def closed(self) -> bool:
        """Whether it was closed (or its client)."""
        return self.sync.closed

    async def __aenter__(self: _F) -> _F:
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return repr(self.sync).replace("<catfacts.", "<catfacts.Async", 1)


def _read(items: PagedList[_T], index: int) -> _T:
    return items[index]


def _batch(items: PagedList[_T], index: int, limit: int) -> List[_T]:
    return items.batch(index, limit)


class AsyncPagedList(_AsyncFront, Generic[_T]):
    """A :class:`PagedList` for asyncio: ``await lst.get(i)``, ``await lst.count()``,
    ``async for item in lst``. Items already loaded are read without a thread."""

    def __init__(self, items: PagedList[_T], calls: _Calls) -> None:
        self._items: PagedList[_T] = items
        self._calls = calls

    @property
    def sync(self) -> PagedList[_T]:
        """The :class:`PagedList` underneath (its reads block)."""
        return self._items

    async def count(self) -> int:
        """The number of items, waiting for the first page if needed (``len()`` of the list)."""
        return await self._calls.run(len, self._items)

    async def get(self, index: int) -> _T:
        """The item at ``index``, waiting for its page. Raises as ``lst[index]`` does."""
        ready = self._items.get(index)
        if ready is not None:
            return ready
        item: _T = await self._calls.run(_read, self._items, index)
        return item

    async def __aiter__(self) -> AsyncGenerator[_T, None]:
        """Every item in order, a loaded page's worth per step (a thread only to wait for a
        page that is still loading)."""
        count = await self.count()
        index = 0
        while index < count:
            ready = self._items.batch(index, count - index, wait=False)
            run: List[_T] = ready if ready is not None else await self._calls.run(_batch, self._items, index,
                                                                                     count - index)
            for item in run:
                yield item
            index += len(run)

    def on_change(self, callback: Optional[ChangeCallback]) -> None:
        """As :meth:`PagedList.on_change`, delivered on the running event loop."""
        self._items.on_change(None if callback is None else _on_loop(callback))

    async def retry(self) -> None:
        self._items.retry()


def _to_loop(session: "weakref.ref[AsyncSearchSession]", loop: asyncio.AbstractEventLoop,
             method: str, *args: Any) -> None:
    """Calls ``session.method(*args)`` on ``loop``, from whichever thread; nothing if the
    session was collected or the loop closed. (A weak reference: the library's listener must
    not keep the session alive.)"""
    def call() -> None:
        target = session()
        if target is not None:
            getattr(target, method)(*args)
    try:
        loop.call_soon_threadsafe(call)
    except RuntimeError:  # the loop was closed meanwhile
        pass


class AsyncSearchSession(_AsyncFront):
    """A :class:`SearchSession` for asyncio: ``client.search_session()`` of an
    :class:`AsyncClient`. ``set(text)`` never blocks (call it from the loop); answers come on
    the event loop, to ``on_results`` or to ``async for results in session`` /
    ``await session.results(timeout)``. An answer is handed out only while its text is still
    the latest one set on the loop.

    Example (``python -m asyncio``)::

        import catfacts

        async with catfacts.AsyncClient("http://127.0.0.1:8106") as client:
            async with client.search_session(debounce=0.15) as search:
                search.set("ab")
                async for results in search:
                    print(results.text, [breed.breed for breed in results])
                    break
    """

    def __init__(self, client: Client, debounce: float, limit: int, on_results: Optional[ResultsCallback],
                 fields: Optional[Iterable[str]] = None) -> None:
        if on_results is not None and not callable(on_results):
            raise TypeError(f"on_results must be callable or None, not {type(on_results).__name__}")
        self._loop = asyncio.get_running_loop()
        self._callback = on_results
        self._ready = asyncio.Event()
        self._mailbox = Mailbox(self._ready.set)  # used on the loop only
        me = weakref.ref(self)
        loop = self._loop
        self._session = client.search_session(
            debounce, limit, on_results=lambda results: _to_loop(me, loop, "_arrive", results), fields=fields)
        self._session._on_close(lambda: _to_loop(me, loop, "_closing"))

    @property
    def sync(self) -> SearchSession:
        """The :class:`SearchSession` underneath (its answers come on a library thread here)."""
        return self._session

    def set(self, text: str) -> None:
        """As :meth:`SearchSession.set`: never blocks; an unread answer to an earlier text is dropped."""
        self._session.set(text)
        self._mailbox.typed()

    @property
    def generation(self) -> int:
        """As :attr:`SearchSession.generation`."""
        return self._session.generation

    def _arrive(self, results: SearchResults) -> None:
        """An answer, on the loop: kept only if its text is still the latest."""
        if not self._mailbox.wants(results.generation):
            return
        if self._callback is not None:
            self._callback(results)
            return
        self._mailbox.put(results)

    def _closing(self) -> None:
        self._mailbox.close()

    async def results(self, timeout: Optional[float] = None) -> Optional[SearchResults]:
        """As :meth:`SearchSession.results`, awaited: the next answer to the latest text, or
        None after ``timeout`` seconds. Raises :class:`CancelledError` once the session is
        closed, RuntimeError if it has an ``on_results`` callback."""
        if self._callback is not None:
            raise RuntimeError("this session hands its answers to on_results; results() has none to give")
        deadline = Deadline(timeout)
        while True:
            if self._session.closed:
                self._mailbox.close()  # its closing hook may not have reached the loop yet
            results = self._mailbox.take()
            if results is not None:
                return results
            self._ready.clear()
            left = deadline.left()
            if left is not None and left <= 0:
                return None
            try:
                await asyncio.wait_for(self._ready.wait(), left)
            except asyncio.TimeoutError:
                return None

    async def __aiter__(self) -> AsyncGenerator[SearchResults, None]:
        """Each answer as it comes, until the session is closed."""
        while True:
            try:
                results = await self.results()
            except CancelledError:
                return
            if results is not None:
                yield results

    def close(self) -> None:
        """As :meth:`SearchSession.close`; readers awaiting :meth:`results` raise
        :class:`CancelledError`, ``async for`` ends."""
        self._closing()
        self._session.close()

    @property
    def closed(self) -> bool:
        return self._mailbox.closed or self._session.closed
