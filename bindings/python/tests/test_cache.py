"""The cache through the Python package: cache_path round trips, a fault matrix answered
from the cache, and a process killed with SIGKILL in the middle of cache writes."""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, List, Set

import pytest

import catfacts

from conftest import PYTHON_DIR


def breeds_metric(client: catfacts.Client, key: str) -> int:
    stats = client.metrics().endpoint("/breeds")
    return 0 if stats is None else int(getattr(stats, key))


def test_a_cache_path_round_trips_between_clients(tmp_path: Path, mock_url: str) -> None:
    path = tmp_path / "nested" / "cache.sqlite"
    with catfacts.Client(mock_url, cache_path=path, retries=0) as first:
        fresh = first.breeds_page(2, limit=5)
    assert fresh.source == "network"
    assert path.is_file()
    with catfacts.Client(mock_url, cache_path=str(path), retries=0) as second:
        again = second.breeds_page(2, limit=5)
        assert again.source == "cache"
        assert again.items == fresh.items
        assert again.fetched_at == fresh.fetched_at
        assert breeds_metric(second, "requests") == 0
        assert breeds_metric(second, "cache_hits") == 1


def test_a_corrupt_cache_file_is_moved_aside(tmp_path: Path, mock_url: str) -> None:
    path = tmp_path / "cache.sqlite"
    path.write_bytes(os.urandom(8192))
    with catfacts.Client(mock_url, cache_path=path, retries=0) as client:
        assert client.breeds_page(1, limit=5).source == "network"
        assert client.breeds_page(1, limit=5).source == "cache"
    assert len(list(tmp_path.glob("cache.sqlite.corrupt-*"))) == 1


STALE = "stale"
# Each fault, what a client with a cached page (TTL 0, no retries, 1 s timeout) answers.
# Decode errors are the server answering wrongly, not the network failing: never hidden
# behind an old page.
FAULTS = [
    ("500", STALE),
    ("429", STALE),
    ("reset", STALE),
    ("slow", STALE),  # the body takes 2 s: the 1 s timeout passes first, and the stale page answers
    ("malformed", catfacts.DecodeError),
    ("truncated", catfacts.DecodeError),
    ("dead", STALE),
]


@pytest.mark.parametrize("fault,expected", FAULTS, ids=[f for f, _ in FAULTS])
def test_fault_matrix_with_a_cached_page(tmp_path: Path, mock_url: str, make_mock: Any,
                                         fault: str, expected: Any) -> None:
    path = tmp_path / "cache.sqlite"
    good = make_mock()
    url = good.url
    with catfacts.Client(url, cache_path=path, retries=0) as primer:
        cached = primer.facts_page(1, limit=5)
    good.stop()
    # The same server (its address is the cache's key), now faulty or gone.
    if fault != "dead":
        port = url.rsplit(":", 1)[1]
        assert make_mock("--port", port, "--fail-rate", "1", "--faults", fault).url == url
    with catfacts.Client(url, cache_path=path, cache_ttl=0, retries=0, timeout=1.0) as client:
        if expected is STALE:
            page = client.facts_page(1, limit=5)
            assert page.source == "cache"
            assert page.items == cached.items
            assert page.fetched_at == cached.fetched_at
        else:
            with pytest.raises(expected):
                client.facts_page(1, limit=5)


def test_offline_without_a_cache_or_fallback_raises_offline_error(make_mock: Any) -> None:
    mock = make_mock()
    url = mock.url
    mock.stop()
    with catfacts.Client(url, retries=0) as client:
        for _ in range(3):
            with pytest.raises(catfacts.NetworkError):
                client.breeds_page(1, limit=5)
        sent = breeds_metric(client, "requests")
        with pytest.raises(catfacts.OfflineError):
            client.breeds_page(1, limit=5)
        assert breeds_metric(client, "requests") == sent == 3  # answered at once: nothing was sent
        assert client.metrics().online is False


WRITER = r"""
import sys
sys.path.insert(0, sys.argv[1])
import catfacts
url, path, limit = sys.argv[2], sys.argv[3], int(sys.argv[4])
with catfacts.Client(url, cache_path=path, retries=0) as client:
    page = 1
    while True:
        client.breeds_page(page, limit=limit)
        # Printed only once the call has returned: the row is committed (keys carry the server).
        print(f"{url}/breeds?limit={limit}&page={page}", flush=True)
        page += 1
"""


def test_kill_9_during_cache_writes_loses_nothing_committed(tmp_path: Path, mock_url: str) -> None:
    path = tmp_path / "cache.sqlite"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    rng = random.Random(7)
    committed: List[str] = []
    for round_number in range(20):
        writer = subprocess.Popen(
            [sys.executable, str(script), str(PYTHON_DIR), mock_url, str(path), str(round_number + 1)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert writer.stdout is not None
        if round_number % 2 == 0:
            for _ in range(2):  # opened and wrote twice: twenty rows at least over the run
                line = writer.stdout.readline()
                assert line.endswith("\n"), writer.stderr.read() if writer.stderr else ""
                committed.append(line.strip())
        # A kill at a random point: on an even round during writes, on an odd one maybe sooner.
        time.sleep(rng.uniform(0.0, 0.4))
        writer.send_signal(signal.SIGKILL)
        # The rest read through writer.stdout, not by communicate(): readline() may have taken
        # the start of the next line into the pipe object's buffer, which communicate() skips
        # (it reads the descriptor itself), and the line's "\n" alone then counted as a row ""
        # (seen once under flake-check's load). The writer is dead: both pipes end.
        out = writer.stdout.read()
        assert writer.stderr is not None
        writer.stderr.read()
        assert writer.wait(timeout=10) == -signal.SIGKILL
        committed += [line for line in out.splitlines(keepends=True) if line.endswith("\n")]
        committed = [line.strip() for line in committed]

        stored = stored_keys(path)
        missing = [key for key in committed if key not in stored]
        assert not missing, f"round {round_number}: {len(missing)} committed rows lost, e.g. {missing[:3]}"
    assert len(committed) >= 20
    print(f"{len(committed)} rows committed over 20 kills")


def stored_keys(path: Path) -> Set[str]:
    """The keys the cache file holds, read with the sqlite3 module after checking its integrity."""
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return {row[0] for row in connection.execute("SELECT key FROM response")}
    finally:
        connection.close()


def test_two_processes_share_one_cache_file(tmp_path: Path, mock_url: str) -> None:
    path = tmp_path / "cache.sqlite"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    writers = [subprocess.Popen([sys.executable, str(script), str(PYTHON_DIR), mock_url, str(path), str(limit)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for limit in (3, 4)]
    committed: List[str] = []
    for writer in writers:
        assert writer.stdout is not None
        for _ in range(20):  # each writes 20 pages while the other writes too
            line = writer.stdout.readline()
            assert line.endswith("\n"), writer.stderr.read() if writer.stderr else ""
            committed.append(line.strip())
    for writer in writers:
        writer.kill()
        writer.communicate(timeout=10)
    stored = stored_keys(path)
    assert set(committed) <= stored
    with catfacts.Client(mock_url, cache_path=path, retries=0) as reader:
        assert reader.breeds_page(1, limit=3).source == "cache"
        assert reader.breeds_page(1, limit=4).source == "cache"
