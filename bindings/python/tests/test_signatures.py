"""AsyncClient takes what Client takes and has its methods with the same parameters, so the two
fronts cannot drift apart again (AsyncClient once lacked ``read_ahead``)."""
from __future__ import annotations

import asyncio
import inspect
from typing import Any, Dict, List

import pytest

import catfacts

from conftest import wait_for

# What only the async front has: the size of its thread pool.
ASYNC_ONLY_PARAMETERS = ("max_concurrency",)


def parameters(function: Any) -> List[inspect.Parameter]:
    """The parameters after ``self``: names, kinds, defaults and annotations."""
    return list(inspect.signature(function).parameters.values())[1:]


def public(cls: type) -> Dict[str, Any]:
    return {name: member for name, member in vars(cls).items() if not name.startswith("_")}


def test_async_client_takes_every_argument_of_client_in_the_same_places() -> None:
    sync = parameters(catfacts.Client.__init__)
    async_ = parameters(catfacts.AsyncClient.__init__)
    assert [parameter for parameter in async_ if parameter.name not in ASYNC_ONLY_PARAMETERS] == sync
    extra = [parameter for parameter in async_ if parameter.name in ASYNC_ONLY_PARAMETERS]
    assert [(parameter.name, parameter.kind) for parameter in extra] == [
        ("max_concurrency", inspect.Parameter.KEYWORD_ONLY)]


def test_async_client_has_every_public_method_and_property_of_client() -> None:
    sync, async_ = public(catfacts.Client), public(catfacts.AsyncClient)
    assert sorted(set(sync) - set(async_)) == []
    for name, member in sync.items():
        if isinstance(member, property):
            assert isinstance(async_[name], property), name
        else:
            assert parameters(async_[name]) == parameters(member), name


def test_async_client_checks_read_ahead_as_client_does(mock_url: str) -> None:
    for client in (catfacts.Client, catfacts.AsyncClient):
        with pytest.raises(TypeError, match="read_ahead='2': must be an integer, not str"):
            client(mock_url, read_ahead="2")  # type: ignore[arg-type]
    with pytest.raises(catfacts.ArgumentError, match="read_ahead") as sync_error:
        catfacts.Client(mock_url, read_ahead=17)
    with pytest.raises(catfacts.ArgumentError, match="read_ahead") as async_error:
        catfacts.AsyncClient(mock_url, read_ahead=17)
    assert str(async_error.value) == str(sync_error.value)


def test_async_client_reads_ahead_as_many_pages_as_asked(mock_url: str) -> None:
    """Pages 1 then 2 asked in order: the library then loads ``read_ahead`` more (16 here, the
    default being 2), which the metrics count as requests."""
    async def main() -> None:
        async with catfacts.AsyncClient(mock_url, retries=0, read_ahead=16) as client:
            first = await client.breeds_page(1, limit=5)
            await client.breeds_page(2, limit=5)
            assert first.last_page == 20

            def breeds_requests() -> int:
                stats = client.sync.metrics().endpoint("/breeds")
                return 0 if stats is None else stats.requests

            assert wait_for(lambda: breeds_requests() == 2 + 16), breeds_requests()

    asyncio.run(main())
