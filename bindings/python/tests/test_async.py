"""AsyncClient: the client's calls awaitable, many at once, cancellable; lists async-iterable;
callbacks on the event loop."""
from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, List, Tuple

import pytest

import catfacts

from conftest import MakeMock

LATENCY_S = 0.4


def test_calls_answer_as_the_client_does(mock_url: str, all_breeds: List[catfacts.Breed]) -> None:
    async def main() -> None:
        async with catfacts.AsyncClient(mock_url, retries=0) as client:
            page = await client.breeds_page(2, limit=5)
            assert list(page.items) == all_breeds[5:10]
            assert (await client.facts_page(1, limit=3)).total == 160
            assert (await client.fact(max_length=60)).length <= 60
            assert await client.breed("aegean") == all_breeds[1]
            assert [b.name for b in await client.query(search="si")] == ["Siamese", "Siberian", "Singapura"]
            assert list(await client.group("country", where={"country": "thailand"})) == ["Thailand"]
            metrics = await client.metrics()
            assert metrics.endpoint("/breeds") is not None
            with pytest.raises(catfacts.NotFoundError):
                await client.breed("Unicorn")
        assert client.closed

    asyncio.run(main())


def test_a_hundred_calls_run_at_once_without_blocking_the_loop(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", str(int(LATENCY_S * 1000)))
    gaps: List[float] = []

    async def heartbeat(stop: asyncio.Event) -> None:
        last = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    async def main() -> Tuple[float, float]:
        async with catfacts.AsyncClient(mock.url, retries=0, timeout=60) as client:
            stop = asyncio.Event()
            beat = asyncio.ensure_future(heartbeat(stop))
            started = time.monotonic()
            eight = await asyncio.gather(*(client.breeds_page(number, limit=1) for number in range(1, 9)))
            eight_s = time.monotonic() - started
            started = time.monotonic()
            hundred: List[Any] = await asyncio.gather(*(client.breeds_page(number, limit=1) for number in range(9, 99)),
                                           *(client.facts_page(number, limit=1) for number in range(1, 11)))
            hundred_s = time.monotonic() - started
            stop.set()
            await beat
        assert [page.items[0].name for page in eight][:2] == ["Abyssinian", "Aegean"]
        assert len(hundred) == 100 and all(len(page.items) == 1 for page in hundred)
        return eight_s, hundred_s

    eight_s, hundred_s = asyncio.run(main())
    # As many requests as the library has connections to a host (8): one latency.
    assert LATENCY_S <= eight_s < 2 * LATENCY_S
    # A hundred: ceil(100 / 8) = 13 latencies through the 8 connections, not 100.
    assert hundred_s < 20 * LATENCY_S
    # The loop kept running: no request held it (starting the pool's threads may, briefly).
    assert max(gaps) < LATENCY_S


def test_cancelling_a_task_interrupts_its_call_and_only_its_call(make_mock: MakeMock) -> None:
    # Every request waits 1 s for its answer; the first one's body then takes 20 s more.
    mock = make_mock("--latency-ms", "1000", "--fail-first", "1", "--faults", "slow", "--slow-ms", "20000")

    async def main() -> None:
        async with catfacts.AsyncClient(mock.url, retries=0, timeout=60) as client:
            slow = asyncio.ensure_future(client.breeds_page(1, limit=5))
            await asyncio.sleep(0.3)
            others = [asyncio.ensure_future(client.breeds_page(number, limit=5)) for number in range(2, 6)]
            await asyncio.sleep(0.3)  # their requests are under way
            slow.cancel()
            with pytest.raises(asyncio.CancelledError):
                await slow
            # The library's interrupt cut the other calls too; they were sent again.
            assert [page.page for page in await asyncio.gather(*others)] == [2, 3, 4, 5]
            breeds = client.sync.metrics().endpoint("/breeds")
            assert breeds is not None and (breeds.requests, breeds.errors) == (9, 5)
            assert (await client.breeds_page(1, limit=5)).items[0].name == "Abyssinian"

    asyncio.run(main())


def test_a_timeout_of_wait_for_cancels_the_call(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", "5000")

    async def main() -> float:
        async with catfacts.AsyncClient(mock.url, retries=0, timeout=60) as client:
            started = time.monotonic()
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(client.fact(), timeout=0.3)
            # The request ended there (it failed, cancelled), not when its answer came 5 s later.
            while (await client.metrics()).endpoints == () or (await client.metrics()).endpoints[0].errors == 0:
                assert time.monotonic() - started < 1.0, "the call was not interrupted"
                await asyncio.sleep(0.01)
            return time.monotonic() - started

    assert asyncio.run(main()) < 1.0


def test_lists_are_async_iterable(mock_url: str, all_breeds: List[catfacts.Breed]) -> None:
    async def main() -> List[catfacts.Breed]:
        async with catfacts.AsyncClient(mock_url, retries=0) as client:
            async with client.breeds(page_size=10) as breeds:
                assert await breeds.count() == 98
                assert await breeds.get(-1) == all_breeds[-1]
                return [breed async for breed in breeds]

    assert asyncio.run(main()) == all_breeds


def test_pages_come_in_order_as_an_async_iterator(mock_url: str, all_breeds: List[catfacts.Breed]) -> None:
    async def main() -> List[int]:
        async with catfacts.AsyncClient(mock_url, retries=0) as client:
            numbers = []
            names: List[str] = []
            async for page in client.breeds_pages(10, parallel=3):
                numbers.append(page.page)
                names += [breed.name for breed in page]
            assert names == [breed.name for breed in all_breeds]
            return numbers

    assert asyncio.run(main()) == list(range(1, 11))


def test_callbacks_are_delivered_on_the_event_loop(mock_url: str) -> None:
    async def main() -> None:
        seen: List[Tuple[str, bool, int]] = []
        changes: List[catfacts.ListEvent] = []
        async with catfacts.AsyncClient(mock_url, retries=0) as client:
            client.on_request(lambda endpoint, ms, ok: seen.append((endpoint, ok, threading.get_ident())))
            await client.fact()
            async with client.breeds(page_size=10, prefetch_distance=0) as breeds:
                breeds.on_change(lambda event, first, count: changes.append(event))
                await breeds.get(0)
                for _ in range(100):
                    if seen[1:] and changes:
                        break
                    await asyncio.sleep(0.01)
        assert seen[0] == ("/fact", True, threading.get_ident())
        assert changes[0] == catfacts.ListEvent.LOADED

    asyncio.run(main())
