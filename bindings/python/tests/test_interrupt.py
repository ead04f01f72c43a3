"""Ctrl-C: KeyboardInterrupt at once from any blocking call, list wait or walk; the client
stays usable. The mock's first request is slow (its body spread over seconds); Ctrl-C comes
once that request has reached the mock, so it finds the call under way."""
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

from conftest import PYTHON_DIR, MakeMock, established, wait_for

# The issue asks for 100 ms (a few ms here: `make bench` measures it). The tests check what no
# machine's speed can change: the interrupt came sooner than the call could have ended on its
# own, its first request's body taking SLOW_S seconds (SLOW_PAGE_S for lists, whose page the
# next read waits for).
SLOW_S = 20.0
SLOW = ("--fail-first", "1", "--faults", "slow", "--slow-ms", "20000")
SLOW_PAGE_S = 5.0
SLOW_PAGE = ("--fail-first", "1", "--faults", "slow", "--slow-ms", "5000")


def send_ctrl_c() -> None:
    """SIGINT to the main thread, as a terminal's Ctrl-C reaches it."""
    main = threading.main_thread().ident
    assert main is not None
    signal.pthread_kill(main, signal.SIGINT)


class When:
    """Runs ``action`` on a thread of its own as soon as ``ready()`` holds (polled), unless the
    block it guards ends first; ``seconds()`` is the time since the block began."""

    def __init__(self, ready: Callable[[], object], action: Callable[[], None]) -> None:
        self.started = 0.0
        self._ready = ready
        self._action = action
        self._lock = threading.Lock()
        self._over = False
        self._thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        if not wait_for(lambda: self._over or self._ready()):
            return
        with self._lock:
            if not self._over:
                self._action()

    def __enter__(self) -> "When":
        self.started = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        # A call that failed at once must not leave a Ctrl-C on its way to pytest itself.
        with self._lock:
            self._over = True
        self._thread.join()

    def seconds(self) -> float:
        return time.monotonic() - self.started


def request_out(url: str) -> Callable[[], bool]:
    """Whether the mock at ``url`` (this test's own) has been sent a request."""
    port = int(url.rsplit(":", 1)[1])
    return lambda: established(port) > 0


@pytest.fixture
def slow_client(make_mock: MakeMock) -> Iterator[catfacts.Client]:
    """A client whose first request hangs for 20 s; its later ones are answered at once."""
    with catfacts.Client(make_mock(*SLOW).url, retries=0, timeout=60) as opened:
        yield opened


@pytest.fixture
def slow_page_client(make_mock: MakeMock) -> Iterator[catfacts.Client]:
    """A client whose first request takes 5 s; its later ones are answered at once."""
    with catfacts.Client(make_mock(*SLOW_PAGE).url, retries=0, timeout=60) as opened:
        yield opened


def interrupted(client: catfacts.Client, call: Callable[[], object]) -> float:
    """Runs ``call`` with Ctrl-C once its first request is out; the seconds from the call's
    start to KeyboardInterrupt."""
    assert client.base_url is not None
    with When(request_out(client.base_url), send_ctrl_c) as ctrl_c, pytest.raises(KeyboardInterrupt):
        call()
    return ctrl_c.seconds()


def test_ctrl_c_stops_a_one_shot_call_and_the_client_stays_usable(slow_client: catfacts.Client) -> None:
    assert interrupted(slow_client, lambda: slow_client.breeds_page(1, limit=5)) < SLOW_S
    assert slow_client.breeds_page(1, limit=5).items[0].breed == "Abyssinian"
    assert slow_client.fact().length > 0


def test_ctrl_c_stops_a_list_wait_and_the_list_still_reads(slow_page_client: catfacts.Client) -> None:
    with slow_page_client.breeds(page_size=5, prefetch_distance=0) as breeds:
        assert interrupted(slow_page_client, lambda: breeds[0]) < SLOW_PAGE_S
        assert slow_page_client.breeds_page(2, limit=5).page == 2
        assert breeds[0].breed == "Abyssinian"
        assert len(breeds) == 98


def test_ctrl_c_stops_a_walk_over_a_list(slow_page_client: catfacts.Client) -> None:
    seen: List[catfacts.Breed] = []
    with slow_page_client.breeds(page_size=5, prefetch_distance=0) as breeds:
        assert interrupted(slow_page_client, lambda: seen.extend(breeds)) < SLOW_PAGE_S
        assert seen == []
        assert [breed.breed for breed in breeds[:2]] == ["Abyssinian", "Aegean"]


def test_ctrl_c_stops_a_breed_lookup_walking_the_breeds(slow_client: catfacts.Client) -> None:
    assert interrupted(slow_client, lambda: slow_client.breed("York Chocolate")) < SLOW_S
    assert slow_client.breed("York Chocolate").breed == "York Chocolate"


def test_ctrl_c_stops_a_query(slow_client: catfacts.Client) -> None:
    assert interrupted(slow_client, lambda: slow_client.query(sort_by="country")) < SLOW_S
    assert len(slow_client.query(search="thai")) == 2


def sweeping() -> bool:
    """Whether a sweep's own threads are running (they start after it yielded its first page)."""
    return any(thread.name.startswith("catfacts-pages") for thread in threading.enumerate())


def test_ctrl_c_stops_a_parallel_sweep_and_its_pages_under_way(make_mock: MakeMock) -> None:
    # Page 1 comes first on the calling thread; from the cache here, so that Ctrl-C finds the
    # main thread waiting for pages loading on the sweep's own threads.
    latency_s = 4.0
    with catfacts.Client(make_mock("--latency-ms", str(int(latency_s * 1000))).url, retries=0, timeout=60) as opened:
        started = time.monotonic()
        opened.breeds_page(1, limit=10)
        pages: List[catfacts.Page[catfacts.Breed]] = []
        with When(sweeping, send_ctrl_c), pytest.raises(KeyboardInterrupt):
            pages.extend(opened.breeds_pages(10, parallel=2))
        assert [page.page for page in pages] == [1]
        assert wait_for(lambda: not sweeping()), "the sweep's threads never ended"
        # Every other page was asked for once page 1 had come, one latency in: none could have
        # come back sooner than two, so the threads ended because their pages were interrupted.
        assert time.monotonic() - started < 2 * latency_s


def test_interrupt_from_another_thread_cancels_the_call(slow_client: catfacts.Client) -> None:
    assert slow_client.base_url is not None
    with When(request_out(slow_client.base_url), slow_client.interrupt) as interrupt:
        with pytest.raises(catfacts.CancelledError):
            slow_client.breeds_page(1, limit=5)
        assert interrupt.seconds() < SLOW_S
    assert slow_client.breeds_page(1, limit=5).total == 98


def test_interrupt_with_no_call_under_way_leaves_the_next_call_alone(mock_url: str) -> None:
    with catfacts.Client(mock_url, retries=0) as opened:
        opened.interrupt()
        # A call that starts before the library's watcher thread has served the interrupt is
        # cut too (the header says so); calls after that run normally. So of calls made one
        # after another, one at most is cut, however late the watcher runs.
        outcomes: List[object] = []
        for number in range(1, 4):
            try:
                outcomes.append(opened.breeds_page(number, limit=3).page)
            except catfacts.CancelledError:
                outcomes.append("cut")
        assert outcomes.count("cut") <= 1, outcomes
        assert all(outcome in ("cut", number) for number, outcome in enumerate(outcomes, 1)), outcomes
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
        print("then", client.breeds_page(1, limit=5).items[0].breed, flush=True)
        time.sleep(30)
""")


def test_sigint_to_a_python_process_raises_keyboard_interrupt_at_once(make_mock: MakeMock) -> None:
    mock = make_mock(*SLOW)
    child = subprocess.Popen([sys.executable, "-c", CHILD, mock.url, str(PYTHON_DIR)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "calling\n"
        sent = time.monotonic()
        assert wait_for(request_out(mock.url))  # the call is under way
        child.send_signal(signal.SIGINT)
        assert child.stdout.readline() == "interrupted\n"
        latency = time.monotonic() - sent
        assert child.stdout.readline() == "then Abyssinian\n"
        # No catfacts call under way: Python's own Ctrl-C, which still ends the program.
        child.send_signal(signal.SIGINT)
        _, errors = child.communicate(timeout=10)
    finally:
        child.kill()
        child.wait()
    assert latency < SLOW_S  # sooner than the slow request could have ended on its own
    assert child.returncode == -signal.SIGINT and errors.rstrip().endswith("KeyboardInterrupt")
