"""The catfacts client: one connection to the Cat Facts API (or a mock of it)."""
from __future__ import annotations

import ctypes
import functools
import json
import math
import numbers
import operator
import os
import threading
import weakref
from datetime import datetime, timezone
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from typing import Any, Callable, Deque, Dict, Generator, Iterable, List, Mapping, Optional, Protocol, TypeVar, Union
from collections import deque

from ._blocking import run_interruptible
from ._handles import Guard, Listener, forbid_in_listener, install_exit_hook, request_trampoline, unregister
from ._native import NO_METRICS_LISTENER, CBreedPage, breeds_text, lib, take_string
from .errors import ArgumentError, last_error
from .lists import BreedList, FactList, PagedList
from .metrics import Metrics
from .models import Breed, Fact, Page
from .search import ResultsCallback, SearchSession, open_search

_T = TypeVar("_T", Breed, Fact)
_R = TypeVar("_R")
_BreedPagePointer = ctypes.POINTER(CBreedPage)

__all__ = ["Client", "RequestCallback"]

#: ``callback(endpoint, ms, ok)``: after every request the client sends, retries included.
RequestCallback = Callable[[str, float, bool], Any]

_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1
# The library's ceiling for its timeouts (86400000 ms).
_DAY_S = 86400.0


def int64(value: Any, name: str) -> int:
    """``value`` as a C int64_t, or TypeError / ArgumentError saying which argument."""
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None
    if not _INT64_MIN <= number <= _INT64_MAX:
        raise ArgumentError(f"invalid argument: {name} {number} does not fit in 64 bits")
    return number


def _detach_client(key: int, handle: int) -> None:
    lib.cf_client_set_metrics_listener(handle, NO_METRICS_LISTENER, None)
    unregister(key)


class _Closable(Protocol):
    def close(self) -> None: ...


def _finalize(children: "weakref.WeakSet[_Closable]", lock: threading.Lock, guard: Guard) -> None:
    # Lists and searches first: the header asks for them to be closed before their client.
    with lock:
        open_children = list(children)
    for child in open_children:
        child.close()
    guard.close()


class Client:
    """A connection to the Cat Facts API: one-shot calls, paged lists and metrics.

    Use it as a context manager, or call :meth:`close`; a client that is garbage
    collected, or still open when the interpreter exits, is closed then. One client may be
    shared by many threads.

    Args:
        base_url: the server, e.g. ``"http://127.0.0.1:8106"``; None for
            https://catfact.ninja. It may carry a path prefix.
        timeout: seconds one call may take in all: its attempts, the waits between them
            (backoff, Retry-After) and the pages of a walk (:meth:`breed`, :meth:`query`);
            past it the call raises :class:`TimeoutError` at once. None: no bound but
            each attempt's.
        retries: retries of a failed GET (network errors, timeouts, 429, 502-504), with
            backoff honouring Retry-After.
        cache_path: an SQLite file to keep the cache in, shared with other processes
            (None: the cache lives in memory, for this client only).
        offline_fallback: answer from the bundled catalog when the server cannot be
            reached (such pages have ``source == "offline-catalog"``).
        user_agent: the User-Agent header (None: the library's).
        cache_ttl: seconds a cached page answers without a request (None: the library's
            default); after it, the page is revalidated with its ETag.
        cache_max_bytes: the cache's size cap, least recently used pages evicted first
            (None: the library's default, which is smaller in memory than for a file;
            0 turns the cache off).
        proxy: the proxy for every request ("http://host:3128"), or "" for none; None reads
            http_proxy, https_proxy, all_proxy and no_proxy as curl does. Loopback hosts
            never go through a proxy.
        connect_timeout: seconds to connect, and the longest a connection may stay idle
            (None: the library's default).
        attempt_timeout: seconds one attempt (one request) may take; a call retries after
            it, within ``timeout`` (None: the library's default).
        read_ahead: pages fetched in the background when pages are asked in order (page p,
            then p+1, of one list), so the loop's next calls find them; 0 turns it off
            (None: the library's default). Pages read ahead count as requests in metrics().

    Defaults marked "the library's" are libCatFacts's own (``cf_client_open`` in
    include/catfacts.h says them): this package does not keep a copy.

    Raises:
        ArgumentError: a bad URL or option (the message names the parameter).

    Example::

        with catfacts.Client("http://127.0.0.1:8106", timeout=5) as client:
            page = client.breeds_page(1, limit=10)
            print(page.items[0].name, client.metrics().endpoint("/breeds").avg_ms)
    """

    def __init__(self, base_url: Optional[str] = None, timeout: Optional[float] = 10.0, retries: int = 2,
                 cache_path: Union[str, "os.PathLike[str]", None] = None, offline_fallback: bool = False,
                 user_agent: Optional[str] = None, cache_ttl: Optional[float] = None,
                 cache_max_bytes: Optional[int] = None, proxy: Optional[str] = None, *,
                 connect_timeout: Optional[float] = None, attempt_timeout: Optional[float] = None,
                 read_ahead: Optional[int] = None) -> None:
        options: Dict[str, Any] = {"retries": int64(retries, "retries"), "offline_fallback": bool(offline_fallback)}
        for key, name, seconds in (("deadline_ms", "timeout", timeout),
                                   ("connect_timeout_ms", "connect_timeout", connect_timeout),
                                   ("timeout_ms", "attempt_timeout", attempt_timeout)):
            if seconds is not None:
                options[key] = _milliseconds(seconds, name, zero=False, highest=_DAY_S)
        if cache_path is not None:
            options["cache_path"] = os.fspath(cache_path)
        if cache_ttl is not None:
            options["cache_ttl_ms"] = _milliseconds(cache_ttl, "cache_ttl", zero=True, highest=365 * _DAY_S)
        if cache_max_bytes is not None:
            options["cache_max_bytes"] = int64(cache_max_bytes, "cache_max_bytes")
        if user_agent is not None:
            options["user_agent"] = str(user_agent)
        if proxy is not None:
            options["proxy"] = str(proxy)
        if read_ahead is not None:
            options["read_ahead"] = int64(read_ahead, "read_ahead")
        self._base_url = base_url

        url = None if base_url is None else _encode(base_url, "base_url")
        out = ctypes.c_void_p()
        status = lib.cf_client_open(url, json.dumps(options).encode(), ctypes.byref(out))
        if status:
            raise last_error(status)
        self._listener = Listener()  # the guard names it by key only: see Listener
        self._guard = Guard(out.value or 0, functools.partial(_detach_client, self._listener.key), lib.cf_client_close,
                            "client", rank=1)
        self._children: "weakref.WeakSet[_Closable]" = weakref.WeakSet()  # its lists and searches
        self._children_lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _finalize, self._children, self._children_lock, self._guard)
        install_exit_hook()

    # lifetime

    def close(self) -> None:
        """Closes the client and the lists and search sessions opened on it. Idempotent.

        It does not wait: calls under way on other threads finish normally, and the handle
        is freed after the last one. Calls made afterwards raise :class:`CancelledError`.
        """
        self._finalizer()

    def interrupt(self) -> None:
        """Makes every call under way on this client, on any thread, raise
        :class:`CancelledError` within milliseconds (``cf_client_interrupt``). Calls made
        afterwards run normally. Ctrl-C does this for the main thread's call by itself (and
        raises ``KeyboardInterrupt`` there). Safe from any thread; a no-op once closed."""
        self._guard.poke(lib.cf_client_interrupt)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._guard.closing

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<catfacts.Client {self._base_url or 'https://catfact.ninja'!r} {state}>"

    @property
    def base_url(self) -> Optional[str]:
        """The base URL given (None: https://catfact.ninja)."""
        return self._base_url

    # one-shot calls

    def _call(self, function: Any, *args: Any, blocking: bool = True) -> str:
        if blocking:
            forbid_in_listener(f"{function.__name__}()")
            return run_interruptible(functools.partial(self._call_now, function, *args), self.interrupt)
        return self._call_now(function, *args)

    def _call_now(self, function: Any, *args: Any) -> str:
        out = ctypes.c_void_p()
        with self._guard as handle:
            status = function(handle, *args, ctypes.byref(out))
            error = last_error(status) if status else None
        text = take_string(out)  # NULL on failure; freed here whatever came back
        if error is not None:
            raise error
        return text

    def breeds_page(self, page: int = 1, limit: int = 25) -> Page[Breed]:
        """One page of breeds (GET /breeds).

        Args:
            page: from 1; a page past the end has no items (not an error).
            limit: items per page, >= 1; the server may cap it (``Page.per_page`` says).

        Raises:
            ArgumentError, NetworkError, TimeoutError, HTTPError, RateLimitedError,
            DecodeError.
        """
        number, size = int64(page, "page"), int64(limit, "limit")
        forbid_in_listener("cf_breeds_page_items()")
        return run_interruptible(functools.partial(self._breeds_page_now, number, size), self.interrupt)

    def _breeds_page_now(self, page: int, limit: int) -> Page[Breed]:
        """cf_breeds_page_items: the page as one block of breeds, no JSON (one decode and
        one split of its text, then a record per breed)."""
        out = _BreedPagePointer()
        with self._guard as handle:
            status = lib.cf_breeds_page_items(handle, page, limit, ctypes.byref(out))
            error = last_error(status) if status else None
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

    def facts_page(self, page: int = 1, limit: int = 25, max_length: int = 0) -> Page[Fact]:
        """One page of facts (GET /facts), only those no longer than ``max_length`` (0: all).

        Raises: as :meth:`breeds_page`.
        """
        text = self._call(lib.cf_facts_page, int64(page, "page"), int64(limit, "limit"),
                          int64(max_length, "max_length"))
        return Page.from_json(json.loads(text), Fact)

    def breeds_pages(self, limit: int = 25, *, first: int = 1, parallel: int = 4) -> Generator[Page[Breed], None, None]:
        """Every page of breeds from ``first`` to the last, in order, with up to ``parallel``
        pages loading at once (the library's calls run outside the GIL, so the next pages
        arrive while you work on this one). The fastest way through a whole collection.

        Stopping early (``break``, closing the iterator) cancels the pages not yet asked for;
        the ones under way finish on their own threads, unwaited for. Ctrl-C while waiting
        interrupts them. Raises what :meth:`breeds_page` raises, when the page that failed is
        reached.
        """
        return self._pages(lambda number: self.breeds_page(number, limit), first, parallel)

    def facts_pages(self, limit: int = 25, max_length: int = 0, *, first: int = 1,
                    parallel: int = 4) -> Generator[Page[Fact], None, None]:
        """Every page of facts, as :meth:`breeds_pages` gives the breeds."""
        return self._pages(lambda number: self.facts_page(number, limit, max_length), first, parallel)

    def _pages(self, fetch: Callable[[int], Page[_T]], first: int,
               parallel: int) -> Generator[Page[_T], None, None]:
        if parallel < 1:
            raise ArgumentError(f"parallel {parallel}: at least 1 page loads at a time")
        page = fetch(first)  # says how many pages there are (and checks the arguments)

        def pages() -> Generator[Page[_T], None, None]:
            yield page
            numbers = iter(range(first + 1, page.last_page + 1))
            pool = ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="catfacts-pages")
            # A window of 2 x parallel pages: the next ones load while one is consumed,
            # and memory stays bounded however many pages there are.
            window: Deque[Future[Page[_T]]] = deque()
            try:
                for number in numbers:
                    window.append(pool.submit(fetch, number))
                    if len(window) >= 2 * parallel:
                        yield _result(window.popleft())
                while window:
                    yield _result(window.popleft())
            except (KeyboardInterrupt, SystemExit):
                self.interrupt()  # Ctrl-C while waiting: the pages under way return at once
                raise
            finally:
                # Pages under way finish on their own (they hold the handle until then);
                # nobody waits for them, and the walk keeps none: a failed page's traceback
                # holds this frame, which would keep every page of the window.
                pool.shutdown(wait=False, cancel_futures=True)
                window.clear()

        return pages()

    def fact(self, max_length: int = 0) -> Fact:
        """A random fact (GET /fact), no longer than ``max_length`` (0: any).

        Raises: as :meth:`breeds_page`; HTTPError (404) when no fact is that short.
        """
        return Fact.from_json(json.loads(self._call(lib.cf_fact_random, int64(max_length, "max_length"))))

    def breed(self, name: str) -> Breed:
        """The breed with this name, matched case-insensitively, blanks around it ignored.

        The API has no detail endpoint: the library fetches the breed list when it does
        not know the name yet.

        Raises:
            NotFoundError: no breed has that name.
            ArgumentError: an empty name.
        """
        return Breed.from_json(json.loads(self._call(lib.cf_breed_find, _encode(name, "name"))))

    # queries

    def query(self, search: Optional[str] = None, *, sort_by: Optional[str] = None, descending: bool = False,
              where: Optional[Mapping[str, str]] = None, present: Optional[Iterable[str]] = None,
              limit: Optional[int] = None) -> List[Breed]:
        """Breeds by name prefix, field values and fields present, sorted
        (``cf_breeds_query``; the keys mean what they mean there). Fields are ``"breed"``,
        ``"country"``, ``"origin"``, ``"coat"`` and ``"pattern"``.

        Args:
            search: names starting with it (case- and diacritic-insensitive).
            sort_by: the field to sort by (None: the name); natural order, breeds without
                the field last.
            descending: sort descending.
            where: field -> value: keep breeds whose field equals or contains it.
            present: fields a breed must have.
            limit: at most this many breeds.

        The API has no search: the first query fetches every breed, later ones send no
        request. :meth:`group` answers the same questions in groups.

        Raises:
            ArgumentError: an unknown field or a bad value.
            NetworkError, ...: as :meth:`breeds_page`, while the breed list is fetched.
        """
        answer = self._query(_query_json(search, None, sort_by, descending, where, present, limit))
        return [Breed.from_json(item) for item in answer["items"]]

    def group(self, by: str, search: Optional[str] = None, *, sort_by: Optional[str] = None,
              descending: bool = False, where: Optional[Mapping[str, str]] = None,
              present: Optional[Iterable[str]] = None, limit: Optional[int] = None) -> Dict[str, List[Breed]]:
        """The breeds :meth:`query` would give, grouped by the field ``by``: a dict from each
        group's key to its breeds, keys ascending; breeds without the field are left out.
        ``limit`` counts breeds over all groups.

        Raises: as :meth:`query`.
        """
        answer = self._query(_query_json(search, by, sort_by, descending, where, present, limit))
        return {group["key"]: [Breed.from_json(item) for item in group["items"]] for group in answer["groups"]}

    def _query(self, query: Dict[str, Any]) -> Dict[str, Any]:
        answer: Dict[str, Any] = json.loads(self._call(lib.cf_breeds_query, json.dumps(query).encode()))
        return answer

    # paged lists

    def breeds(self, page_size: int = 25, prefetch_distance: Optional[int] = None,
               max_cached_items: Optional[int] = None) -> BreedList:
        """Every breed, as a lazily loaded sequence (the windowed pager).

        Args:
            page_size: items per request (the server's cap is adopted if lower).
            prefetch_distance: items kept loaded on each side of the latest access
                (None: 2 x page_size).
            max_cached_items: most items held (None: 500, or more if the prefetch window
                needs it: page_size + 2 x prefetch_distance).

        Nothing loads until the first access. Close the list (or use ``with``) when done;
        closing the client closes it too.
        """
        options = _list_options(page_size, prefetch_distance, max_cached_items)
        breeds = BreedList(self, options)
        self._track(breeds)
        return breeds

    def facts(self, page_size: int = 25, max_length: int = 0, prefetch_distance: Optional[int] = None,
              max_cached_items: Optional[int] = None) -> FactList:
        """Every fact no longer than ``max_length`` (0: all), as a lazily loaded sequence.

        The other arguments are as for :meth:`breeds`.
        """
        options = _list_options(page_size, prefetch_distance, max_cached_items)
        options["max_length"] = int64(max_length, "max_length")
        facts = FactList(self, options)
        self._track(facts)
        return facts

    def _track(self, child: _Closable) -> None:
        with self._children_lock:
            self._children.add(child)

    def _open_list(self, collection: int, options: Dict[str, Any]) -> int:
        """Opens a cf_list; used by the list classes."""
        out = ctypes.c_void_p()
        with self._guard as handle:
            status = lib.cf_list_open(handle, collection, json.dumps(options).encode(), ctypes.byref(out))
            if status:
                raise last_error(status)
        return out.value or 0

    # search as you type

    def search_session(self, debounce: float = 0.15, limit: int = 20,
                       on_results: Optional[ResultsCallback] = None, *,
                       fields: Optional[Iterable[str]] = None) -> SearchSession:
        """A search that follows the text as it is typed (``cf_search_open``): call
        ``set(text)`` at each keystroke; the latest text is answered once it has stayed
        unchanged for ``debounce`` seconds, with :class:`SearchResults` (the breeds whose
        name starts with it, at most ``limit``). See :class:`SearchSession`.

        Args:
            debounce: seconds the text must stay unchanged before it is searched, 0 to 60.
            limit: most breeds per answer, 1 to 10000.
            on_results: called with each answer, on a library thread; None: read the answers
                with ``session.results()`` or ``for results in session``.
            fields: the :class:`Breed` fields each answer fills, of ``"name"``, ``"country"``,
                ``"origin"``, ``"coat"``, ``"pattern"`` (the name always; the others None);
                None: all. ``fields=("name",)`` for a list of names.

        The breeds start loading when the session opens (every page, a few at a time), so
        they are there or on their way when the first key is typed; searches send no request.
        Offline, with ``offline_fallback``, the cached or bundled breeds are searched and the
        answers say so (``source``). Closing the client closes the session.

        Raises:
            ArgumentError: ``debounce`` or ``limit`` out of range, or an unknown field.
        """
        session = SearchSession(self, _milliseconds(debounce, "debounce", zero=True, highest=60.0),
                                int64(limit, "limit"), on_results, _search_fields(fields))
        self._track(session)
        return session

    def _open_search(self, options: Dict[str, Any], key: int) -> int:
        """Opens a cf_search whose listener is the one registered under ``key``; used by
        :class:`SearchSession`."""
        with self._guard as handle:
            return open_search(handle, options, key)

    # metrics

    def metrics(self) -> Metrics:
        """The client's metrics (``cf_metrics``): per-endpoint request counts and times,
        the device, OS, program and memory, and whether the client is online. Never blocks
        on the network."""
        return Metrics.from_json(json.loads(self._call(lib.cf_metrics, blocking=False)))

    def metrics_prometheus(self) -> str:
        """The metrics in the Prometheus text format; names start with ``catfacts_``."""
        return self._call(lib.cf_metrics_prometheus, blocking=False)

    def on_request(self, callback: Optional[RequestCallback]) -> None:
        """Calls ``callback(endpoint, ms, ok)`` after every request sent, retries included.

        ``endpoint`` is the path ("/breeds"), ``ms`` the wall time, ``ok`` whether it
        succeeded. The callback runs on a library thread: keep it short; the calls that
        block (pages, facts, breeds, waiting list reads) raise RuntimeError there, while
        ``metrics()`` is fine. An exception it raises goes to ``sys.unraisablehook``.
        None removes the callback.
        """
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be callable or None, not {type(callback).__name__}")
        with self._guard as handle:
            if callback is None:
                status = lib.cf_client_set_metrics_listener(handle, NO_METRICS_LISTENER, None)
                self._listener.set(None)
            else:
                self._listener.set(callback)
                status = lib.cf_client_set_metrics_listener(handle, request_trampoline, self._listener.key)
            if status:
                raise last_error(status)


def _result(future: "Future[_R]") -> _R:
    """The future's result, waited for in slices: a wait without a timeout may not wake for
    a signal delivered to another thread, so Ctrl-C would wait for the page."""
    while not future.done():
        wait_for((future,), timeout=0.05)
    try:
        return future.result()
    finally:
        # The future keeps the exception it raises, whose traceback holds this frame, which
        # holds the future: a cycle that only Python's full collection, which comes rarely,
        # would free, with the page's whole exception chain.
        del future


# Breed's fields as cf_search_open's "fields" option names them (the API calls the name "breed").
_SEARCH_FIELDS = {name: "breed" if name == "name" else name for name in Breed._fields}


def _search_fields(fields: Optional[Iterable[str]]) -> Optional[List[str]]:
    """``fields`` of :meth:`Client.search_session` as the library's option, or None for all."""
    if fields is None:
        return None
    if isinstance(fields, (str, bytes)):
        raise TypeError(f"fields must be a sequence of field names, such as ('name',), not {type(fields).__name__}")
    names = list(fields)
    for name in names:
        if name not in _SEARCH_FIELDS:
            raise ArgumentError(f"invalid argument: fields: unknown field {name!r}; "
                                f"known: {', '.join(_SEARCH_FIELDS)}")
    return [_SEARCH_FIELDS[name] for name in names]


def _milliseconds(seconds: Any, name: str, *, zero: bool, highest: float) -> int:
    """Seconds as the library's whole milliseconds, rounded up (so that a positive time
    never becomes 0 ms), or ArgumentError naming the parameter and its range in seconds."""
    if not isinstance(seconds, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, not {type(seconds).__name__}")
    value = float(seconds)
    if not (math.isfinite(value) and (value >= 0 if zero else value > 0) and value <= highest):
        lowest = "0 or more" if zero else "more than 0"
        raise ArgumentError(f"invalid argument: {name} {seconds!r} must be {lowest} seconds, at most {highest:g}")
    return math.ceil(value * 1000)


def _encode(text: Any, name: str) -> bytes:
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str, not {type(text).__name__}")
    if "\0" in text:
        raise ArgumentError(f"invalid argument: {name} contains a NUL character")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ArgumentError(f"invalid argument: {name} is not valid Unicode ({error.reason})") from None


def _query_json(search: Optional[str], group_by: Optional[str], sort_by: Optional[str], descending: bool,
                where: Optional[Mapping[str, str]], present: Optional[Iterable[str]],
                limit: Optional[int]) -> Dict[str, Any]:
    """The query object of ``cf_breeds_query``, with only the keys given."""
    query: Dict[str, Any] = {}
    if search is not None:
        query["search"] = search
    if group_by is not None:
        query["group_by"] = group_by
    if sort_by is not None:
        query["sort_by"] = sort_by
    if descending:
        query["descending"] = True
    if where:
        query["where"] = dict(where)
    if present is not None:
        query["present"] = list(present)
    if limit is not None:
        query["limit"] = int64(limit, "limit")
    return query


def _list_options(page_size: int, prefetch_distance: Optional[int],
                  max_cached_items: Optional[int]) -> Dict[str, Any]:
    options: Dict[str, Any] = {"page_size": int64(page_size, "page_size")}
    if prefetch_distance is not None:
        options["prefetch_distance"] = int64(prefetch_distance, "prefetch_distance")
    if max_cached_items is None:
        distance = options.get("prefetch_distance", 2 * options["page_size"])
        max_cached_items = max(500, options["page_size"] + 2 * distance)
    options["max_cached_items"] = int64(max_cached_items, "max_cached_items")
    return options
