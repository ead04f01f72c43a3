"""The catfacts client: one connection to the Cat Facts API (or a mock of it).

:class:`Client` is the public face only: it checks arguments (:mod:`._convert`,
:mod:`._config`), calls through its :class:`._connection.Connection` (:mod:`._call`), walks
pages with :mod:`._pages`, and builds lists and searches on the connection.
"""
from __future__ import annotations

import contextlib
import json
import os
from typing import Any, Callable, Dict, Generator, Iterable, Iterator, List, Mapping, Optional, Union

from . import _call, _tracing
from ._closing import Closing
from ._config import ClientConfig
from ._connection import Connection
from ._convert import encode, int64, list_options, milliseconds, query_json, search_fields
from ._native import lib
from ._pages import walk
from .errors import error_of
from .lists import BreedList, FactList
from .metrics import Metrics
from .models import Breed, Fact, Page
from .search import ResultsCallback, SearchSession

__all__ = ["Client", "RequestCallback"]

#: ``callback(endpoint, ms, ok)``: after every request the client sends, retries included.
RequestCallback = Callable[[str, float, bool], Any]


class Client(Closing):
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
            each attempt's. It is C's ``deadline_ms``, not C's ``timeout_ms`` (one attempt,
            ``attempt_timeout`` here).
        retries: retries of a failed GET (network errors, timeouts, 429, 502-504), with
            backoff honouring Retry-After; 0..100.
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
            it, within ``timeout`` (None: the library's default; C's ``timeout_ms``).
        read_ahead: pages fetched in the background when pages are asked in order (page p,
            then p+1, of one list), so the loop's next calls find them; 0 turns it off
            (None: the library's default). Pages read ahead count as requests in metrics().
        max_connections: connections open to the server at once, so (over HTTP/1.1) the
            most requests under way at once; more calls wait their turn (None: the
            library's default, a few, polite to a public API). Raise it for many concurrent
            calls, e.g. 64 for an :class:`AsyncClient` making 40 calls at once.
        otlp_endpoint: an OpenTelemetry collector's OTLP/HTTP base URL
            ("http://127.0.0.1:4318"): the client then sends a span per call (and one per
            attempt) and its metrics there (protobuf by default), from the process's one
            exporter thread, which never slows a call, and each request carries a W3C
            ``traceparent``. "" turns export off; None
            reads the standard variables (``OTEL_EXPORTER_OTLP_ENDPOINT`` and the others:
            ``cf_client_open`` in include/catfacts.h lists them). :meth:`close` sends what
            is left, within the library's bound. ``metrics().export`` shows what was sent,
            dropped and failed.
        otel_context: whether the span current in OpenTelemetry (``opentelemetry-api``, if
            installed) is the parent of each call made outside a :meth:`trace_parent` block
            (default True; it needs no code). False: only the client's and the blocks' are.

        ca_file: a PEM file of CA certificates that https servers are verified against
            instead of the system's (a company proxy's or an internal mirror's own CA). None
            reads ``REQUESTS_CA_BUNDLE``, then (in the library) ``CURL_CA_BUNDLE``,
            ``SSL_CERT_FILE`` and ``SSL_CERT_DIR``, else the system's bundle.

    Defaults marked "the library's" are libCatFacts's own (``cf_client_open`` in
    include/catfacts.h says them): this package does not keep a copy.

    Raises:
        ArgumentError: a bad URL or option; the message names the keyword and its value
            (``retries=-1: must be in 0..100``).
        TypeError: an option of the wrong type (``retries='3': must be an integer, not str``).

    Example::

        import catfacts

        with catfacts.Client("http://127.0.0.1:8106", timeout=5) as client:
            page = client.breeds_page(1, limit=10)
            print(page.items[0].breed, client.metrics().endpoint("/breeds").avg_ms)
    """

    def __init__(self, base_url: Optional[str] = None, timeout: Optional[float] = 10.0, retries: int = 2,
                 cache_path: Union[str, "os.PathLike[str]", None] = None, offline_fallback: bool = False,
                 user_agent: Optional[str] = None, cache_ttl: Optional[float] = None,
                 cache_max_bytes: Optional[int] = None, proxy: Optional[str] = None, *,
                 connect_timeout: Optional[float] = None, attempt_timeout: Optional[float] = None,
                 read_ahead: Optional[int] = None, max_connections: Optional[int] = None,
                 otlp_endpoint: Optional[str] = None, ca_file: Union[str, "os.PathLike[str]", None] = None,
                 otel_context: bool = True) -> None:
        self._open(ClientConfig(base_url=base_url, timeout=timeout, retries=retries, cache_path=cache_path,
                                offline_fallback=offline_fallback, user_agent=user_agent, cache_ttl=cache_ttl,
                                cache_max_bytes=cache_max_bytes, proxy=proxy, connect_timeout=connect_timeout,
                                attempt_timeout=attempt_timeout, read_ahead=read_ahead,
                                max_connections=max_connections, otlp_endpoint=otlp_endpoint, ca_file=ca_file,
                                otel_context=otel_context))

    @classmethod
    def _from_config(cls, config: ClientConfig) -> "Client":
        """A client opened with ``config`` (how :class:`AsyncClient` opens the one it fronts)."""
        client = cls.__new__(cls)
        client._open(config)
        return client

    def _open(self, config: ClientConfig) -> None:
        self._base_url = config.base_url
        self._connection = Connection(config)

    # lifetime

    def close(self) -> None:
        """Closes the client and the lists and search sessions opened on it. Idempotent.

        It does not wait for calls: those under way on other threads finish normally, and
        the handle is freed after the last one. Calls made afterwards raise
        :class:`CancelledError`. With OpenTelemetry export on, freeing the handle sends the
        spans and metrics not yet sent, within the library's bound however the collector
        behaves.
        """
        self._connection.close()

    def interrupt(self) -> None:
        """Makes every call under way on this client, on any thread, raise
        :class:`CancelledError` within milliseconds (``cf_client_interrupt``). Calls made
        afterwards run normally. Ctrl-C does this for the main thread's call by itself (and
        raises ``KeyboardInterrupt`` there). Safe from any thread; a no-op once closed."""
        self._connection.interrupt()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._connection.closed

    def __repr__(self) -> str:
        return f"<catfacts.Client {self._base_url or 'https://catfact.ninja'!r} {self._state()}>"

    @property
    def base_url(self) -> Optional[str]:
        """The base URL given (None: https://catfact.ninja)."""
        return self._base_url

    # one-shot calls

    def _call(self, function: Any, *args: Any, blocking: bool = True) -> str:
        return _call.call_text(self._connection, function, *args, blocking=blocking)

    def breeds_page(self, page: int = 1, limit: int = 25) -> Page[Breed]:
        """One page of breeds (GET /breeds).

        Args:
            page: from 1; a page past the end has no items (not an error).
            limit: items per page, >= 1; the server may cap it (``Page.per_page`` says).

        Raises:
            ArgumentError, NetworkError, TimeoutError, HTTPError, RateLimitedError,
            DecodeError.
        """
        return _call.breeds_page(self._connection, int64(page, "page"), int64(limit, "limit"))

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
        return walk(lambda number: self.breeds_page(number, limit), first, parallel, self.interrupt)

    def facts_pages(self, limit: int = 25, max_length: int = 0, *, first: int = 1,
                    parallel: int = 4) -> Generator[Page[Fact], None, None]:
        """Every page of facts, as :meth:`breeds_pages` gives the breeds."""
        return walk(lambda number: self.facts_page(number, limit, max_length), first, parallel, self.interrupt)

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
        return Breed.from_json(json.loads(self._call(lib.cf_breed_find, encode(name, "name"))))

    # queries

    def query(self, search: Optional[str] = None, *, sort_by: Optional[str] = None, descending: bool = False,
              where: Optional[Mapping[str, str]] = None, present: Optional[Iterable[str]] = None,
              limit: Optional[int] = None) -> List[Breed]:
        """Breeds by name prefix, field values and fields present, sorted
        (``cf_breeds_query``; the keys mean what they mean there). Fields are ``"breed"``,
        ``"country"``, ``"origin"``, ``"coat"`` and ``"pattern"``, as :class:`Breed` names
        them.

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
        answer = self._query(query_json(search, None, sort_by, descending, where, present, limit))
        return [Breed.from_json(item) for item in answer["items"]]

    def group(self, by: str, search: Optional[str] = None, *, sort_by: Optional[str] = None,
              descending: bool = False, where: Optional[Mapping[str, str]] = None,
              present: Optional[Iterable[str]] = None, limit: Optional[int] = None) -> Dict[str, List[Breed]]:
        """The breeds :meth:`query` would give, grouped by the field ``by``: a dict from each
        group's key to its breeds, keys ascending; breeds without the field are left out.
        ``limit`` counts breeds over all groups.

        Raises: as :meth:`query`.
        """
        answer = self._query(query_json(search, by, sort_by, descending, where, present, limit))
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
        options = list_options(page_size, prefetch_distance, max_cached_items)
        return BreedList(self._connection, options)

    def facts(self, page_size: int = 25, max_length: int = 0, prefetch_distance: Optional[int] = None,
              max_cached_items: Optional[int] = None) -> FactList:
        """Every fact no longer than ``max_length`` (0: all), as a lazily loaded sequence.

        The other arguments are as for :meth:`breeds`.
        """
        options = list_options(page_size, prefetch_distance, max_cached_items)
        options["max_length"] = int64(max_length, "max_length")
        return FactList(self._connection, options)

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
            fields: the :class:`Breed` fields each answer fills, of ``"breed"``, ``"country"``,
                ``"origin"``, ``"coat"``, ``"pattern"`` (the breed always; the others None);
                None: all. ``fields=("breed",)`` for a list of names.

        The breeds start loading when the session opens (every page, a few at a time), so
        they are there or on their way when the first key is typed; searches send no request.
        Offline, with ``offline_fallback``, the cached or bundled breeds are searched and the
        answers say so (``source``). Closing the client closes the session.

        Raises:
            ArgumentError: ``debounce`` or ``limit`` out of range, or an unknown field.
        """
        return SearchSession(self._connection, milliseconds(debounce, "debounce", zero=True, highest=60.0),
                             int64(limit, "limit"), on_results, search_fields(fields))

    # trace context

    def set_trace_parent(self, traceparent: Optional[str]) -> None:
        """Puts the client's calls in the host's trace: ``traceparent`` is a W3C trace
        context, ``"00-<32 hex trace id>-<16 hex parent span id>-<2 hex flags>"``; calls that
        start afterwards, on any thread, use its trace id, and their spans have the host's
        span as parent. None clears it (each call then starts a trace of its own). It is the
        client's default for every thread and task: a :meth:`trace_parent` block, or
        OpenTelemetry's current span, comes first.

        With a trace context or export on (``otlp_endpoint``), every request carries
        ``traceparent: 00-<trace id>-<that attempt's span id>-<flags>``, sampled (``01``)
        unless the parent is not (``00``: its spans are then not exported either); with
        neither, no header. Calls under way keep the trace parent they started with.

        Raises:
            ArgumentError: a malformed value (the message says what is wrong: the length,
                a field that is not lowercase hex, an all-zero id, version ff); the trace
                parent stays as it was.
            TypeError: not a str or None.
        """
        value = None if traceparent is None else encode(traceparent, "traceparent")
        with self._connection.guard as handle:
            status = lib.cf_client_set_trace_parent(handle, value)
            error = error_of(status)
        if error is not None:
            raise error

    @contextlib.contextmanager
    def trace_parent(self, traceparent: Optional[str], tracestate: Optional[str] = None) -> Iterator[None]:
        """``with client.trace_parent(tp):`` the calls made in the block, by this thread or
        asyncio task (and the tasks it starts there), are in the host's trace, carrying
        ``tracestate`` if given; None: in no host trace. Other threads' and tasks' calls are
        not; on the way out the parent of the enclosing block (or none) is back. It is a
        :mod:`contextvars` variable, as OpenTelemetry's context is.

        Without a block, the span current in OpenTelemetry (``opentelemetry-api``, when it is
        installed) is the parent of each call, unless the client was opened with
        ``otel_context=False``; then the client's own (:meth:`set_trace_parent`).

        Raises:
            ArgumentError: as :meth:`set_trace_parent`, or a tracestate over 16,447 bytes or
                outside printable ASCII, when the block is entered.
            TypeError: not a str or None.
        """
        parent: _tracing.Parent = None
        if traceparent is not None:
            value = encode(traceparent, "traceparent")
            state = None if tracestate is None else encode(tracestate, "tracestate")
            with self._connection.guard as handle:  # checked by the library, then cleared
                status = lib.cf_client_set_trace_context(handle, value, state)
                error = error_of(status)
                if not status:
                    lib.cf_client_set_trace_context(handle, None, None)
            if error is not None:
                raise error
            parent = (traceparent, tracestate or None)
        token = _tracing.scope(parent)
        try:
            yield
        finally:
            _tracing.reset(token)

    # metrics

    def metrics(self) -> Metrics:
        """The client's metrics (``cf_metrics``): per-endpoint request counts and times,
        the device, OS, program and memory, whether the client is online, and the
        OpenTelemetry export's figures (``export``). Never blocks on the network."""
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
        self._connection.on_request(callback)
