"""Ctrl-C: KeyboardInterrupt at once from any blocking call, list wait or walk; the client
stays usable. The mock's first request is slow (its body spread over seconds); Ctrl-C comes
0.3 s into the call."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from typing import Callable, Iterator, List

import pytest

import catfacts

from conftest import PYTHON_DIR, MakeMock

# The issue asks for 100 ms (a few ms here); the bound leaves room for a loaded machine, far below
# the seconds the slow request would take.
BOUND_S = 0.5
SLOW = ("--fail-first", "1", "--faults", "slow", "--slow-ms", "20000")
# For lists: Ctrl-C ends the wait, not the page's load, which the next read waits for.
SLOW_PAGE = ("--fail-first", "1", "--faults", "slow", "--slow-ms", "2500")


class CtrlC:
    """Sends SIGINT to the main thread ``after`` seconds (as a terminal's Ctrl-C reaches it)."""

    def __init__(self, after: float = 0.3) -> None:
        self.sent_at = 0.0
        self._timer = threading.Timer(after, self._send)

    def _send(self) -> None:
        self.sent_at = time.monotonic()
        main = threading.main_thread().ident
        assert main is not None
        signal.pthread_kill(main, signal.SIGINT)

    def __enter__(self) -> "CtrlC":
        self._timer.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        # A call that failed at once must not leave a Ctrl-C on its way to pytest itself.
        self._timer.cancel()
        self._timer.join()

    def latency(self) -> float:
        """Seconds from the signal to now."""
        return time.monotonic() - self.sent_at


@pytest.fixture
def slow_client(make_mock: MakeMock) -> Iterator[catfacts.Client]:
    """A client whose first request hangs for 20 s; its later ones are answered at once."""
    with catfacts.Client(make_mock(*SLOW).url, retries=0, timeout=60) as opened:
        yield opened


@pytest.fixture
def slow_page_client(make_mock: MakeMock) -> Iterator[catfacts.Client]:
    """A client whose first request takes 2.5 s; its later ones are answered at once."""
    with catfacts.Client(make_mock(*SLOW_PAGE).url, retries=0, timeout=60) as opened:
        yield opened


def interrupted(call: Callable[[], object]) -> float:
    """Runs ``call`` with Ctrl-C 0.3 s in; the seconds from the signal to KeyboardInterrupt."""
    with CtrlC() as ctrl_c, pytest.raises(KeyboardInterrupt):
        call()
    return ctrl_c.latency()


def test_ctrl_c_stops_a_one_shot_call_and_the_client_stays_usable(slow_client: catfacts.Client) -> None:
    assert interrupted(lambda: slow_client.breeds_page(1, limit=5)) < BOUND_S
    assert slow_client.breeds_page(1, limit=5).items[0].name == "Abyssinian"
    assert slow_client.fact().length > 0


def test_ctrl_c_stops_a_list_wait_and_the_list_still_reads(slow_page_client: catfacts.Client) -> None:
    with slow_page_client.breeds(page_size=5, prefetch_distance=0) as breeds:
        assert interrupted(lambda: breeds[0]) < BOUND_S
        assert slow_page_client.breeds_page(2, limit=5).page == 2
        assert breeds[0].name == "Abyssinian"
        assert len(breeds) == 98


def test_ctrl_c_stops_a_walk_over_a_list(slow_page_client: catfacts.Client) -> None:
    seen: List[catfacts.Breed] = []
    with slow_page_client.breeds(page_size=5, prefetch_distance=0) as breeds:
        assert interrupted(lambda: seen.extend(breeds)) < BOUND_S
        assert seen == []
        assert [breed.name for breed in breeds[:2]] == ["Abyssinian", "Aegean"]


def test_ctrl_c_stops_a_breed_lookup_walking_the_breeds(slow_client: catfacts.Client) -> None:
    assert interrupted(lambda: slow_client.breed("York Chocolate")) < BOUND_S
    assert slow_client.breed("York Chocolate").name == "York Chocolate"


def test_ctrl_c_stops_a_query(slow_client: catfacts.Client) -> None:
    assert interrupted(lambda: slow_client.query(sort_by="country")) < BOUND_S
    assert len(slow_client.query(search="thai")) == 2


def test_ctrl_c_stops_a_parallel_sweep_and_its_pages_under_way(make_mock: MakeMock) -> None:
    # Page 1 comes first on the calling thread; from the cache here, so that Ctrl-C finds the
    # main thread waiting for pages loading on the sweep's own threads.
    with catfacts.Client(make_mock("--latency-ms", "3000").url, retries=0, timeout=60) as opened:
        opened.breeds_page(1, limit=10)
        pages: List[catfacts.Page[catfacts.Breed]] = []
        assert interrupted(lambda: pages.extend(opened.breeds_pages(10, parallel=2))) < BOUND_S
        assert [page.page for page in pages] == [1]
        deadline = time.monotonic() + BOUND_S
        while any(thread.name.startswith("catfacts-pages") for thread in threading.enumerate()):
            assert time.monotonic() < deadline, "the pages under way were not interrupted"
            time.sleep(0.01)


def test_interrupt_from_another_thread_cancels_the_call(slow_client: catfacts.Client) -> None:
    timer = threading.Timer(0.3, slow_client.interrupt)
    timer.start()
    started = time.monotonic()
    with pytest.raises(catfacts.CancelledError):
        slow_client.breeds_page(1, limit=5)
    timer.join()
    assert time.monotonic() - started < 0.3 + BOUND_S
    assert slow_client.breeds_page(1, limit=5).total == 98


def test_interrupt_with_no_call_under_way_leaves_the_next_call_alone(mock_url: str) -> None:
    with catfacts.Client(mock_url, retries=0) as opened:
        opened.interrupt()
        # A call that starts before the library's watcher thread has served the interrupt is
        # cut too (the header says so); it serves it within milliseconds.
        time.sleep(0.5)
        assert opened.breeds_page(2, limit=3).page == 2
    opened.interrupt()  # closed: nothing to interrupt, no error


CHILD = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, sys.argv[2])
    import catfacts
    with catfacts.Client(sys.argv[1], retries=0, timeout=60) as client:
        print("calling", flush=True)
        try:
            client.breeds_page(1, limit=5)
            print("returned", flush=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        print("then", client.breeds_page(1, limit=5).items[0].name, flush=True)
        time.sleep(30)
""")


def test_sigint_to_a_python_process_raises_keyboard_interrupt_at_once(make_mock: MakeMock) -> None:
    mock = make_mock(*SLOW)
    child = subprocess.Popen([sys.executable, "-c", CHILD, mock.url, str(PYTHON_DIR)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "calling\n"
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        assert child.stdout.readline() == "interrupted\n"
        latency = time.monotonic() - sent
        assert child.stdout.readline() == "then Abyssinian\n"
        # No catfacts call under way: Python's own Ctrl-C, which still ends the program.
        child.send_signal(signal.SIGINT)
        _, errors = child.communicate(timeout=10)
    finally:
        child.kill()
        child.wait()
    assert latency < BOUND_S
    assert child.returncode == -signal.SIGINT and errors.rstrip().endswith("KeyboardInterrupt")
