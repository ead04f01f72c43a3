"""Walks over every page of a collection, in order, several pages loading at once: the
window both fronts share (:class:`PageWindow`), and the thread-pool walk of :class:`Client`
(:func:`walk`). :class:`AsyncClient` drives the same window with asyncio tasks."""
from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from typing import Callable, Deque, Generator, Generic, List, TypeVar

from .errors import ArgumentError
from .models import Breed, Fact, Page

__all__ = ["PageWindow", "check_parallel", "walk"]

_F = TypeVar("_F")  # a page under way: a Future, or an asyncio Task
_T = TypeVar("_T", Breed, Fact)
_R = TypeVar("_R")


def check_parallel(parallel: int) -> None:
    """Raises ArgumentError unless ``parallel`` pages may load at a time."""
    if parallel < 1:
        raise ArgumentError(f"parallel {parallel}: at least 1 page loads at a time")


class PageWindow(Generic[_F]):
    """The pages after the first, started in order and handed out in order: a window of
    2 x ``parallel`` pages under way, so the next ones load while one is consumed and memory
    stays bounded however many pages there are.

    ``while window.more: use(window.take())``: the caller never names a page under way, so
    a failed page's traceback (which holds the caller's frame) does not hold the page.
    """

    def __init__(self, first: int, last_page: int, parallel: int, start: Callable[[int], _F]) -> None:
        self._next = first + 1
        self._last = last_page
        self._size = 2 * parallel
        self._start = start
        self._under_way: Deque[_F] = deque()

    @property
    def more(self) -> bool:
        """Whether a page is left to hand out."""
        return bool(self._under_way) or self._next <= self._last

    def take(self) -> _F:
        """Starts pages up to the window's size, then hands out the oldest under way."""
        while self._next <= self._last and len(self._under_way) < self._size:
            self._under_way.append(self._start(self._next))
            self._next += 1
        return self._under_way.popleft()

    def drain(self) -> List[_F]:
        """The pages still under way, which the window forgets (the walk is ending)."""
        pages = list(self._under_way)
        self._under_way.clear()
        return pages


def walk(fetch: Callable[[int], Page[_T]], first: int, parallel: int,
         interrupt: Callable[[], None]) -> Generator[Page[_T], None, None]:
    """Every page from ``first`` on, ``parallel`` loading at once on threads. The first page
    is fetched now (it says how many there are, and checks the arguments); ``interrupt()``
    ends the pages under way when Ctrl-C stops the walk."""
    check_parallel(parallel)
    page = fetch(first)

    def pages() -> Generator[Page[_T], None, None]:
        yield page
        pool = ThreadPoolExecutor(max_workers=parallel, thread_name_prefix="catfacts-pages")
        window = PageWindow(first, page.last_page, parallel, lambda number: pool.submit(fetch, number))
        try:
            while window.more:
                yield _result(window.take())
        except (KeyboardInterrupt, SystemExit):
            interrupt()  # Ctrl-C while waiting: the pages under way return at once
            raise
        finally:
            # Pages under way finish on their own (they hold the handle until then);
            # nobody waits for them, and the walk keeps none: a failed page's traceback
            # holds this frame, which would keep every page of the window.
            pool.shutdown(wait=False, cancel_futures=True)
            window.drain()

    return pages()


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
