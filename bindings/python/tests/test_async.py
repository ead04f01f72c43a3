"""AsyncClient: the client's calls awaitable, many at once, cancellable; lists async-iterable;
callbacks on the event loop."""
from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, List, Tuple

import pytest

import catfacts

from conftest import HANG_S, MakeMock, established

LATENCY_S = 0.5


def test_calls_answer_as_the_client_does(mock_url: str, all_breeds: List[catfacts.Breed]) -> None:
    async def main() -> None:
        async with catfacts.AsyncClient(mock_url, retries=0) as client:
            page = await client.breeds_page(2, limit=5)
            assert list(page.items) == all_breeds[5:10]
            assert (await client.facts_page(1, limit=3)).total == 160
            assert (await client.fact(max_length=60)).length <= 60
            assert await client.breed("aegean") == all_breeds[1]
            assert [b.breed for b in await client.query(search="si")] == ["Siamese", "Siberian", "Singapura"]
            assert list(await client.group("country", where={"country": "thailand"})) == ["Thailand"]
            metrics = await client.metrics()
            assert metrics.endpoint("/breeds") is not None
            with pytest.raises(catfacts.NotFoundError):
                await client.breed("Unicorn")
        assert client.closed

    asyncio.run(main())


def test_a_hundred_calls_run_at_once_without_blocking_the_loop(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", str(int(LATENCY_S * 1000)))

    async def main() -> Tuple[float, float]:
        async with catfacts.AsyncClient(mock.url, retries=0, timeout=60) as client:
            started = time.monotonic()
            eight = await asyncio.gather(*(client.breeds_page(number, limit=1) for number in range(1, 9)))
            eight_s = time.monotonic() - started
            started = time.monotonic()
            hundred: List[Any] = await asyncio.gather(*(client.breeds_page(number, limit=1) for number in range(9, 99)),
                                           *(client.facts_page(number, limit=1) for number in range(1, 11)))
            hundred_s = time.monotonic() - started
        assert [page.items[0].breed for page in eight][:2] == ["Abyssinian", "Aegean"]
        assert len(hundred) == 100 and all(len(page.items) == 1 for page in hundred)
        return eight_s, hundred_s

    eight_s, hundred_s = asyncio.run(main())
    # Every request waits one latency at the mock, so each batch takes at least that. Calls one
    # after another (or a call holding the loop, which runs them one after another) would take
    # a latency each: the batches end sooner, so their requests were out at once. How much
    # sooner is a matter of speed, measured by `make bench`.
    assert LATENCY_S <= eight_s < 8 * LATENCY_S
    assert LATENCY_S <= hundred_s < 100 * LATENCY_S


def test_cancelling_a_task_interrupts_its_call_and_only_its_call(make_mock: MakeMock) -> None:
    # Every request waits 3 s for its answer; the first one's body then takes 20 s more.
    mock = make_mock("--latency-ms", "3000", "--fail-first", "1", "--faults", "slow", "--slow-ms", "20000")

    async def under_way(requests: int) -> None:
        # The answers are 3 s away: cancelling as soon as the connections are up cuts the calls.
        deadline = time.monotonic() + HANG_S
        while established(mock.port) < requests:
            assert time.monotonic() < deadline, f"{requests} requests never reached the mock"
            await asyncio.sleep(0.01)

    async def main() -> None:
        async with catfacts.AsyncClient(mock.url, retries=0, timeout=60) as client:
            slow = asyncio.ensure_future(client.breeds_page(1, limit=5))
            await under_way(1)
            others = [asyncio.ensure_future(client.breeds_page(number, limit=5)) for number in range(2, 6)]
            await under_way(5)
            slow.cancel()
            with pytest.raises(asyncio.CancelledError):
                await slow
            # The library's interrupt cut the other calls too; they were sent again.
            assert [page.page for page in await asyncio.gather(*others)] == [2, 3, 4, 5]
            breeds = client.sync.metrics().endpoint("/breeds")
            assert breeds is not None and (breeds.requests, breeds.errors) == (9, 5)
            assert (await client.breeds_page(1, limit=5)).items[0].breed == "Abyssinian"

    asyncio.run(main())


def test_a_timeout_of_wait_for_cancels_the_call(make_mock: MakeMock) -> None:
    latency_s = 5.0
    mock = make_mock("--latency-ms", str(int(latency_s * 1000)))

    async def main() -> float:
        async with catfacts.AsyncClient(mock.url, retries=0, timeout=60) as client:
            started = time.monotonic()
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(client.fact(), timeout=0.3)
            # The request ended there (it failed, cancelled), not when its answer came 5 s later.
            while (await client.metrics()).endpoints == () or (await client.metrics()).endpoints[0].errors == 0:
                assert time.monotonic() - started < HANG_S, "the call was not interrupted"
                await asyncio.sleep(0.01)
            return time.monotonic() - started

    # Sooner than the answer could come: the request was cut, not answered and then dropped.
    assert asyncio.run(main()) < latency_s


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
                names += [breed.breed for breed in page]
            assert names == [breed.breed for breed in all_breeds]
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
                deadline = time.monotonic() + HANG_S
                while not (seen[1:] and changes) and time.monotonic() < deadline:
                    await asyncio.sleep(0.01)
        assert seen[0] == ("/fact", True, threading.get_ident())
        assert changes[0] == catfacts.ListEvent.LOADED

    asyncio.run(main())
