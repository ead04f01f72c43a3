"""``max_connections``: its checks, and that it bounds the requests under way at once.

The mock shows what the client did without timing it: ``--hold N`` keeps each request waiting
until N are in flight together, and ``GET /_mock/stats`` reports the most it saw at once."""
from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Optional

import pytest

import catfacts

from conftest import HANG_S, MakeMock

CALLS = 40


def mock_stats(url: str) -> Dict[str, Any]:
    """The mock's counters, over a connection of this test's own (not the client's)."""
    with urllib.request.urlopen(f"{url}/_mock/stats", timeout=HANG_S) as response:
        stats: Dict[str, Any] = json.load(response)
        return stats


def calls_at_once(url: str, max_connections: Optional[int]) -> None:
    """``CALLS`` calls for distinct pages from one AsyncClient at once; each answers its page."""
    async def main() -> None:
        async with catfacts.AsyncClient(url, retries=0, read_ahead=0, max_connections=max_connections) as client:
            pages = await asyncio.gather(*(client.breeds_page(number, limit=10) for number in range(1, CALLS + 1)))
            assert [page.page for page in pages] == list(range(1, CALLS + 1))
            assert all(len(page.items) == 10 for page in pages)
            stats = client.sync.metrics().endpoint("/breeds")
            assert stats is not None and stats.requests == CALLS

    asyncio.run(main())


def test_with_64_connections_40_async_calls_are_all_under_way_at_once(make_mock: MakeMock) -> None:
    # Held until all 40 are in flight: with fewer connections the hold would time out.
    mock = make_mock("--breeds", "1000", "--latency-ms", "100", "--hold", str(CALLS))
    calls_at_once(mock.url, 64)
    stats = mock_stats(mock.url)
    assert (stats["requests"], stats["peak_in_flight"], stats["in_flight"], stats["hold"]) == (CALLS, CALLS, 0, "released")


def test_by_default_8_calls_are_under_way_at_once_and_never_more(make_mock: MakeMock) -> None:
    # Held until 8 are in flight, then 100 ms each while 32 calls wait in the client: a 9th
    # connection would be seen in flight beside them.
    mock = make_mock("--breeds", "1000", "--latency-ms", "100", "--hold", "8")
    calls_at_once(mock.url, None)
    stats = mock_stats(mock.url)
    assert (stats["requests"], stats["peak_in_flight"], stats["in_flight"], stats["hold"]) == (CALLS, 8, 0, "released")


def test_threads_sharing_a_client_with_2_connections_have_2_requests_under_way(make_mock: MakeMock) -> None:
    mock = make_mock("--breeds", "1000", "--latency-ms", "50", "--hold", "2")
    with catfacts.Client(mock.url, retries=0, read_ahead=0, max_connections=2) as client, \
            ThreadPoolExecutor(max_workers=8) as pool:
        pages = list(pool.map(lambda number: client.breeds_page(number, limit=10), range(1, 17)))
    assert [page.page for page in pages] == list(range(1, 17))
    stats = mock_stats(mock.url)
    assert (stats["requests"], stats["peak_in_flight"], stats["hold"]) == (16, 2, "released")


@pytest.mark.parametrize("value", [0, 257, -1, 2 ** 40])
def test_max_connections_out_of_range_is_refused_naming_it(mock_url: str, value: int) -> None:
    messages = []
    for client in (catfacts.Client, catfacts.AsyncClient):
        with pytest.raises(catfacts.ArgumentError) as error:
            client(mock_url, max_connections=value)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert messages[0] == f"invalid argument: max_connections={value}: must be in 1..256"  # the keyword's words


@pytest.mark.parametrize("value", ["8", 8.0, [8]])
def test_max_connections_of_another_type_is_a_type_error(mock_url: str, value: Any) -> None:
    for client in (catfacts.Client, catfacts.AsyncClient):
        with pytest.raises(TypeError, match=re.escape(f"max_connections={value!r}: must be an integer, not {type(value).__name__}")):
            client(mock_url, max_connections=value)


def test_max_connections_takes_its_bounds(mock_url: str) -> None:
    for value in (1, 256):
        with catfacts.Client(mock_url, retries=0, max_connections=value) as client:
            assert client.breeds_page(1, limit=1).page == 1
