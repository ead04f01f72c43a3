"""Fixtures: catfacts-mock servers started as subprocesses on free ports.

The mock binary is $CATFACTS_MOCK, default .build/debug/catfacts-mock (relative to the
current directory, else to the checkout). The package is imported from this source tree.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, List

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
ROOT = PYTHON_DIR.parents[1]
sys.path.insert(0, str(PYTHON_DIR))

import catfacts  # noqa: E402

# Ctrl-C is Python's KeyboardInterrupt here and in every child process the tests start, however
# the suite was started: a shell without job control starts a background command (`make test &`)
# with SIGINT ignored, Python then leaves it ignored, and children inherit that across exec, so
# every Ctrl-C test would see its call simply return.
signal.signal(signal.SIGINT, signal.default_int_handler)

#: How long a test waits for something that must happen: only a hang reaches it, never a slow or
#: loaded machine. The suite never passes because the machine is fast (speed is `make bench`'s).
HANG_S = 60.0


def wait_for(condition: Callable[[], object], timeout: float = HANG_S) -> bool:
    """Whether ``condition()`` became true within ``timeout`` seconds, polled every 10 ms."""
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return bool(condition())


def established(port: int) -> int:
    """How many TCP connections to the local ``port`` are established (/proc/net/tcp, the
    server's ends): how a test sees from outside the mock that requests are under way. The
    library keeps connections for reuse, so the count means most on a mock of the test's own."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        if int(local.split(":")[1], 16) == port and state == "01":
            count += 1
    return count


def mock_binary() -> Path:
    configured = Path(os.environ.get("CATFACTS_MOCK", ".build/debug/catfacts-mock"))
    for candidate in (configured, ROOT / configured):
        if candidate.is_file():
            return candidate.resolve()
    raise RuntimeError(f"catfacts-mock not found at {configured} (set CATFACTS_MOCK, or build it: "
                       "swift build --product catfacts-mock)")


class Mock:
    """A running catfacts-mock; ``url`` is its base URL."""

    def __init__(self, *flags: str) -> None:
        self.flags = flags
        self.process = subprocess.Popen([str(mock_binary()), "--port", "0", *flags],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline().strip() if self.process.stdout else ""
        if not line.startswith("listening on "):
            self.stop()
            raise RuntimeError(f"catfacts-mock {' '.join(flags)} did not start: {line!r}")
        self.url = line[len("listening on "):]
        # Keep reading stdout so that a chatty mock never blocks on a full pipe.
        self._drainer = threading.Thread(target=self._drain, daemon=True)
        self._drainer.start()

    def _drain(self) -> None:
        for _ in self.process.stdout or ():
            pass

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=1)  # it drains requests under way; do not wait for slow ones
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout and not self.process.stdout.closed:
            if hasattr(self, "_drainer"):
                self._drainer.join(timeout=2)
            self.process.stdout.close()

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def __repr__(self) -> str:
        return f"<Mock {self.url} {' '.join(self.flags)}>"


#: The ``make_mock`` fixture: ``make_mock("--latency-ms", "50")`` starts a mock with those flags.
MakeMock = Callable[..., Mock]


@pytest.fixture(scope="session")
def mock_url() -> Iterator[str]:
    """The session's mock, serving the bundled catalog (98 breeds, 160 facts)."""
    mock = Mock()
    try:
        yield mock.url
    finally:
        mock.stop()


@pytest.fixture
def make_mock() -> Iterator[Callable[..., Mock]]:
    """A factory of mocks with flags (faults, latency, ...), all stopped after the test."""
    started: List[Mock] = []

    def make(*flags: str) -> Mock:
        mock = Mock(*flags)
        started.append(mock)
        return mock

    yield make
    for mock in started:
        mock.stop()


@pytest.fixture
def client(mock_url: str) -> Iterator[catfacts.Client]:
    """A client on the session's mock, with no retries."""
    with catfacts.Client(mock_url, retries=0) as opened:
        yield opened


@pytest.fixture(scope="session")
def all_breeds(mock_url: str) -> List[catfacts.Breed]:
    """The bundled catalog's breeds in order, fetched in one page of up to 1000."""
    with catfacts.Client(mock_url) as opened:
        page = opened.breeds_page(1, limit=1000)
    assert len(page.items) == page.total == 98
    return list(page.items)
