"""fork(): a child of a process using catfacts works (os.fork and multiprocessing's fork
start method), with an idle parent and with one whose other threads have calls in flight.
Every child is bounded: it arms an alarm, and the parent waits a bounded time and kills it,
so a hang fails the test instead of stopping the suite."""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from typing import Callable, Dict, Iterator, List

import pytest

import catfacts

from conftest import HANG_S, MakeMock, wait_for

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork"),
    # Forking a process with threads is the very case under test.
    pytest.mark.filterwarnings("ignore:This process .* is multi-threaded, use of fork:DeprecationWarning"),
]

CHILDREN = 5


def _in_child(inherited: catfacts.Client, url: str, expected: List[str]) -> int:
    """What a child checks; its exit code (0: everything held)."""
    signal.alarm(int(2 * HANG_S))  # a hang ends the child, with SIGALRM
    try:
        with catfacts.Client(url, retries=0) as fresh:
            if [b.breed for b in fresh.breeds_page(2, limit=3).items] != expected:
                return 10
            if len(list(fresh.breeds(page_size=10))) != 98:
                return 11
        try:
            inherited.breeds_page(1, limit=3)
            return 12
        except catfacts.ArgumentError as error:
            if "open a new client" not in str(error) or "fork" not in str(error):
                print(f"child: the message: {error}", file=sys.stderr)
                return 13
        inherited.close()  # harmless, and returns
        with catfacts.Client(url, retries=0) as again:
            if again.breed(expected[0]).breed != expected[0]:
                return 14
        return 0
    except BaseException as error:  # reported through the exit code, with the reason
        print(f"child: {error!r}", file=sys.stderr)
        return 20


_statuses: Dict[int, int] = {}  # wait statuses of the children reaped


def _status_of(pid: int) -> int:
    """A child's exit code; 99 when a signal ended it (its alarm: it hung)."""
    if pid not in _statuses:
        _, status = os.waitpid(pid, 0)
        _statuses[pid] = status
    status = _statuses[pid]
    return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 99


def _reap(pid: int) -> bool:
    """Whether the child ``pid`` has ended (its status kept)."""
    if pid in _statuses:
        return True
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        _statuses[pid] = status
    return bool(done)


def _fork_each_bounded(inherited: catfacts.Client, url: str, children: int = CHILDREN) -> List[int]:
    """Exit codes of `children` children forked with os.fork, one after another (99: killed)."""
    expected = [b.breed for b in inherited.breeds_page(2, limit=3).items]
    codes = []
    for _ in range(children):
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            os._exit(_in_child(inherited, url, expected))
        if not wait_for(lambda: _reap(pid), timeout=3 * HANG_S):
            os.kill(pid, signal.SIGKILL)
        codes.append(_status_of(pid))
    return codes


def test_children_of_an_idle_parent_work(mock_url: str) -> None:
    with catfacts.Client(mock_url, retries=0) as parent:
        parent.breeds_page(1, limit=5)  # threads and connections made before the forks
        lst = parent.breeds(page_size=10)
        assert lst[0].breed == "Abyssinian"
        assert _fork_each_bounded(parent, mock_url) == [0] * CHILDREN
        # The parent's own client and list are untouched by the children.
        assert lst[15].breed == parent.breeds_page(2, limit=10).items[5].breed


@contextlib.contextmanager
def _calling_in_threads(call: Callable[[int], object], threads: int = 4) -> Iterator[List[int]]:
    """Runs ``call(n)`` over and over in ``threads`` threads (the thread i with n = i, then
    i + threads, ...) until the block ends, and checks that every thread ended; yields the
    count of the calls done (``done[0]``)."""
    stop = threading.Event()
    done = [0]

    def keep_calling(first: int) -> None:
        n = first
        while not stop.is_set():
            call(n)
            done[0] += 1
            n += threads

    workers = [threading.Thread(target=keep_calling, args=(i,), daemon=True) for i in range(threads)]
    for worker in workers:
        worker.start()
    try:
        yield done
    finally:
        stop.set()
        for worker in workers:
            worker.join(HANG_S)
    assert not any(worker.is_alive() for worker in workers)


def test_children_of_a_busy_parent_work(make_mock: MakeMock) -> None:
    slow = make_mock("--latency-ms", "20")
    with catfacts.Client(slow.url, retries=0, cache_max_bytes=0) as parent:
        with _calling_in_threads(lambda n: parent.breeds_page(1 + n % 5, limit=10)) as done:
            assert wait_for(lambda: done[0] >= 4)
            assert _fork_each_bounded(parent, slow.url) == [0] * CHILDREN
            before = done[0]
            assert wait_for(lambda: done[0] > before + 4), "the parent's calls stopped after the forks"


def test_children_of_a_parent_writing_its_cache_work(mock_url: str) -> None:
    """SQLite takes process-wide mutexes (at each of its allocations, each page it reads): a
    fork while a thread of the parent was inside it left one locked in the child, whose new
    client's cache then waited for it forever (6 of 60 such children hung). Every call of a
    page here misses and saves it, evicting another (a cap of a few pages), so the parent's
    threads are in SQLite most of the time; 40 forks."""
    with catfacts.Client(mock_url, retries=0, cache_max_bytes=4000) as parent:
        # 98 pages of one breed: each a new row.
        with _calling_in_threads(lambda n: parent.breeds_page(1 + n % 98, limit=1)) as saved:
            assert wait_for(lambda: saved[0] >= 8)
            assert _fork_each_bounded(parent, mock_url, children=40) == [0] * 40
        cache = parent.metrics().cache
        assert cache is not None and cache.evicted_entries > 0


def _multiprocessing_child(url: str, expected: List[str]) -> None:
    code = _in_child(_inherited_for_multiprocessing, url, expected)
    if code:
        raise SystemExit(code)


_inherited_for_multiprocessing: catfacts.Client


def test_multiprocessing_fork_children_work(mock_url: str) -> None:
    global _inherited_for_multiprocessing
    context = multiprocessing.get_context("fork")
    with catfacts.Client(mock_url, retries=0) as parent:
        expected = [b.breed for b in parent.breeds_page(2, limit=3).items]
        _inherited_for_multiprocessing = parent
        processes = [context.Process(target=_multiprocessing_child, args=(mock_url, expected)) for _ in range(CHILDREN)]
        for process in processes:
            process.start()
        for process in processes:
            process.join(3 * HANG_S)
            if process.is_alive():
                process.kill()
                process.join()
        assert [process.exitcode for process in processes] == [0] * CHILDREN
