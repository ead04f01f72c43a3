"""Client.breeds_pages / facts_pages: every page in order, several loading at once."""
from __future__ import annotations

import threading
from typing import Dict, List, Set

import pytest

import catfacts

from conftest import MakeMock


def test_every_breed_page_comes_in_order_with_every_breed(client: catfacts.Client,
                                                          all_breeds: List[catfacts.Breed]) -> None:
    pages = list(client.breeds_pages(10, parallel=3))
    assert [page.page for page in pages] == list(range(1, 11))
    assert [breed for page in pages for breed in page.items] == all_breeds
    assert all(page.last_page == 10 and page.per_page == 10 for page in pages)


def test_pages_start_where_asked_and_one_at_a_time_is_allowed(client: catfacts.Client,
                                                              all_breeds: List[catfacts.Breed]) -> None:
    pages = list(client.breeds_pages(25, first=3, parallel=1))
    assert [page.page for page in pages] == [3, 4]
    assert [breed for page in pages for breed in page.items] == all_breeds[50:]


def test_fact_pages_honour_max_length(client: catfacts.Client) -> None:
    pages = list(client.facts_pages(5, max_length=60, parallel=2))
    facts = [fact for page in pages for fact in page.items]
    assert facts and all(fact.length <= 60 for fact in facts)
    assert len(facts) == pages[0].total
    assert [page.page for page in pages] == list(range(1, pages[0].last_page + 1))


def test_pages_load_on_several_threads_at_once(client: catfacts.Client) -> None:
    seen: Set[str] = set()
    original = client.breeds_page

    def recording(number: int, limit: int = 25) -> catfacts.Page[catfacts.Breed]:
        seen.add(threading.current_thread().name)
        return original(number, limit)

    client.breeds_page = recording  # type: ignore[method-assign, assignment]
    assert sum(len(page) for page in client.breeds_pages(5, parallel=4)) == 98
    assert len([name for name in seen if name.startswith("catfacts-pages")]) > 1


def test_stopping_early_leaves_the_client_usable(client: catfacts.Client) -> None:
    pages = client.breeds_pages(2, parallel=4)
    assert [next(pages).page, next(pages).page] == [1, 2]
    pages.close()  # cancels what was queued; what was loading finishes on its own
    assert client.breeds_page(49, limit=2).page == 49


@pytest.mark.parametrize("arguments, named", [({"parallel": 0}, "parallel"), ({"limit": 0}, "limit")])
def test_bad_arguments_fail_at_the_call(client: catfacts.Client, arguments: Dict[str, int], named: str) -> None:
    with pytest.raises(catfacts.ArgumentError) as raised:
        client.breeds_pages(**arguments)
    assert named in str(raised.value)


def test_a_page_that_fails_raises_when_it_is_reached(make_mock: MakeMock) -> None:
    mock = make_mock()
    with catfacts.Client(mock.url, retries=0, cache_max_bytes=0) as client:
        pages = client.breeds_pages(10, parallel=2)
        assert next(pages).page == 1  # loaded by the call; nothing else yet
        mock.stop()
        with pytest.raises(catfacts.NetworkError) as raised:
            next(pages)
        assert "connection refused" in str(raised.value)
