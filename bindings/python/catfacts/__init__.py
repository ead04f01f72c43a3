"""catfacts: the Cat Facts API (https://catfact.ninja) from Python, over libCatFacts.

::

    import catfacts

    with catfacts.Client(base_url="http://127.0.0.1:8106", timeout=5) as client:
        page = client.breeds_page(1, limit=10)        # Page of Breed
        client.breed("abyssinian")                    # Breed, or NotFoundError
        client.fact(max_length=140)                   # Fact
        for breed in client.breeds():                 # every breed, pages prefetched
            ...
        client.metrics().endpoint("/breeds")          # EndpointStats: counts and times
        with client.search_session(debounce=0.15) as search:   # search as you type
            search.set("ab")                          # at each keystroke; never blocks
            results = search.results(timeout=5)       # SearchResults for the latest text

``timeout`` bounds each whole call (its retries included); Ctrl-C stops any call, list wait
or walk with ``KeyboardInterrupt`` at once, and the client stays usable.

Every error is a :class:`CatFactsError`; its subclasses also derive from the built-ins
they resemble (``NetworkError`` and ``OfflineError`` are ``ConnectionError``s,
``TimeoutError`` (also ``Timeout``) the built-in ``TimeoutError``, ``NotFoundError`` a
``LookupError``, ``ArgumentError`` a ``ValueError``).

The shared library is found through ``$CATFACTS_LIBRARY``, then next to this package,
then the checkout's ``.build`` folders.
"""
from ._native import lib as _lib
from ._native import library_path
from .aio import AsyncClient, AsyncPagedList, AsyncSearchSession
from .client import Client, RequestCallback
from .errors import (ArgumentError, CancelledError, CatFactsError, DecodeError, HTTPError, InternalError,
                     NetworkError, NotFoundError, OfflineError, RateLimitedError, Status, Timeout, TimeoutError)
from .lists import BreedList, ChangeCallback, FactList, PagedList
from .metrics import AppInfo, CacheState, Device, EndpointStats, ExportState, Memory, Metrics, OperatingSystem
from .models import Breed, Fact, ListEvent, Page
from .search import ResultsCallback, SearchResults, SearchSession

__version__ = "0.2.0"

__all__ = [
    "Client", "AsyncClient", "AsyncPagedList", "Page", "Breed", "Fact", "PagedList", "BreedList", "FactList", "ListEvent", "Status",
    "SearchSession", "AsyncSearchSession", "SearchResults",
    "RequestCallback", "ChangeCallback", "ResultsCallback",
    "Metrics", "EndpointStats", "Device", "OperatingSystem", "AppInfo", "Memory", "CacheState", "ExportState",
    "CatFactsError", "ArgumentError", "NetworkError", "TimeoutError", "Timeout", "HTTPError", "RateLimitedError",
    "DecodeError", "NotFoundError", "OfflineError", "CancelledError", "InternalError",
    "library_version", "library_path", "status_string", "__version__",
]


def library_version() -> str:
    """The loaded libCatFacts's version, "MAJOR.MINOR.PATCH" (``cf_version()``)."""
    version: bytes = _lib.cf_version()
    return version.decode("ascii")


def status_string(status: int) -> str:
    """The library's name and description of a status, e.g. "CF_ERR_TIMEOUT: timed out"."""
    text: bytes = _lib.cf_status_string(int(status))
    return text.decode("utf-8", "replace")
