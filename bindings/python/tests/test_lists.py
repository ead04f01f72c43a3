"""Paged lists: sequences over whole collections through the windowed pager."""
from __future__ import annotations

import random
import sys
import threading
from typing import List

import pytest

import catfacts
from catfacts import ListEvent

from conftest import HANG_S, MakeMock, wait_for


def test_len_waits_for_the_first_page(client: catfacts.Client) -> None:
    with client.breeds() as lst:
        assert "count=unknown" in repr(lst)
        assert len(lst) == 98
        assert "count=98" in repr(lst)


def test_indexing_matches_the_catalog_including_negative_indices(client: catfacts.Client,
                                                                 all_breeds: List[catfacts.Breed]) -> None:
    with client.breeds(page_size=10) as lst:
        assert lst[0] == all_breeds[0]
        assert lst[57] == all_breeds[57]
        assert lst[-1] == all_breeds[-1]
        assert lst[-98] == all_breeds[0]


def test_an_index_past_either_end_is_an_index_error(client: catfacts.Client) -> None:
    with client.breeds() as lst:
        with pytest.raises(IndexError):
            lst[98]
        with pytest.raises(IndexError):
            lst[-99]
        with pytest.raises(IndexError):
            lst.get(500, wait=True)


def test_slices_give_lists_of_items(client: catfacts.Client, all_breeds: List[catfacts.Breed]) -> None:
    with client.breeds(page_size=10) as lst:
        assert lst[5:10] == all_breeds[5:10]
        assert lst[::25] == all_breeds[::25]
        assert lst[-3:] == all_breeds[-3:]
        assert lst[90:80:-3] == all_breeds[90:80:-3]
        assert lst[200:300] == []


def test_iteration_walks_every_item_in_order(client: catfacts.Client, all_breeds: List[catfacts.Breed]) -> None:
    with client.breeds(page_size=7) as lst:
        assert list(lst) == all_breeds
        assert list(reversed(lst)) == all_breeds[::-1]
        assert all_breeds[40] in lst


def test_get_without_waiting_is_none_until_the_page_loads(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", "2000")  # no machine is slow enough to read past it
    with catfacts.Client(mock.url, retries=0) as c, c.breeds(page_size=10) as lst:
        assert lst.get(0) is None
        assert lst.get(-1) is None  # the count is not known yet
        assert lst.get(0, wait=0.05) is None
        breed = lst.get(0, wait=True)
        assert breed is not None and breed.breed == "Abyssinian"
        assert lst.get(1) == lst[1]
        last = lst.get(-1, wait=HANG_S)
        assert last is not None and last.breed == "York Chocolate"


def test_batch_hands_over_a_loaded_run_in_one_call(make_mock: MakeMock, all_breeds: List[catfacts.Breed]) -> None:
    mock = make_mock("--latency-ms", "2000")  # no machine is slow enough to read past it
    with catfacts.Client(mock.url, retries=0) as c, c.breeds(page_size=10, prefetch_distance=0) as lst:
        assert lst.batch(3, 100, wait=False) is None  # starts the load
        assert lst.batch(3, 100) == all_breeds[3:10]  # the rest of index 3's page, no more
        assert lst.batch(5, 2) == all_breeds[5:7]
        assert lst.batch(0, 100, wait=False) == all_breeds[0:10]
        assert lst.batch(-1, 5) == all_breeds[-1:]
        with pytest.raises(IndexError):
            lst.batch(98, 1)
        with pytest.raises(ValueError, match="limit=0: must be 1 or more"):
            lst.batch(0, 0)
        with pytest.raises(TypeError):
            lst.batch(0, 1.5)  # type: ignore[call-overload]


def test_facts_list_applies_max_length(client: catfacts.Client) -> None:
    with client.facts(page_size=20, max_length=60) as lst:
        facts = list(lst)
    assert facts and all(isinstance(f, catfacts.Fact) and f.length <= 60 for f in facts)
    assert len(facts) == client.facts_page(1, limit=1, max_length=60).total


def test_facts_list_holds_every_fact(client: catfacts.Client) -> None:
    with client.facts(page_size=50) as lst:
        assert len(lst) == 160
        assert lst[0] == catfacts.Fact("Cats sleep for around 12 to 16 hours a day.", 43)
        assert lst[-1] == client.facts_page(160, limit=1).items[0]


def test_on_change_reports_loaded_ranges(client: catfacts.Client) -> None:
    events = []
    with client.breeds(page_size=10, prefetch_distance=0) as lst:
        lst.on_change(lambda event, first, count: events.append((event, first, count)))
        lst[25]
        assert wait_for(lambda: (ListEvent.LOADED, 20, 10) in events)
    assert all(isinstance(event, ListEvent) for event, _, _ in events)


def test_pages_beyond_the_cache_are_dropped_and_reported(client: catfacts.Client,
                                                         all_breeds: List[catfacts.Breed]) -> None:
    events = []
    with client.breeds(page_size=10, prefetch_distance=0, max_cached_items=20) as lst:
        lst.on_change(lambda *args: events.append(args))
        for index in (0, 10, 20, 30):
            assert lst[index] == all_breeds[index]
        assert wait_for(lambda: any(event == ListEvent.DROPPED for event, _, _ in events))
        assert lst[0] == all_breeds[0]  # loads again


def test_a_failed_page_raises_until_retry(make_mock: MakeMock, all_breeds: List[catfacts.Breed]) -> None:
    mock = make_mock("--fail-first", "1", "--faults", "500")
    events = []
    with catfacts.Client(mock.url, retries=0) as c, c.breeds(page_size=10, prefetch_distance=0) as lst:
        lst.on_change(lambda *args: events.append(args))
        with pytest.raises(catfacts.HTTPError):
            len(lst)
        with pytest.raises(catfacts.HTTPError):
            lst.get(3)
        assert wait_for(lambda: (ListEvent.FAILED, 0, 10) in events)
        lst.retry()
        assert lst[3] == all_breeds[3]
        assert len(lst) == 98


def test_a_million_items_index_at_random(make_mock: MakeMock) -> None:
    mock = make_mock("--breeds", "1000000")
    with catfacts.Client(mock.url, retries=0) as c, c.breeds(page_size=100) as lst:
        assert len(lst) == 1_000_000
        assert lst[654321] == c.breeds_page(654322, limit=1).items[0]
        assert lst[654321].breed.endswith(" 654322")
        assert lst[-1].breed.endswith(" 1000000")
        for index in random.Random(7).sample(range(1_000_000), 10):
            assert lst[index].breed.endswith(f" {index + 1}")
        assert [b.breed.split()[-1] for b in lst[999_995:]] == ["999996", "999997", "999998", "999999", "1000000"]


def test_large_page_sizes_get_a_cache_that_fits(client: catfacts.Client) -> None:
    with client.breeds(page_size=1000) as lst:
        assert len(list(lst)) == 98


def test_options_that_do_not_fit_are_argument_errors(client: catfacts.Client) -> None:
    with pytest.raises(catfacts.ArgumentError, match="max_cached_items"):
        client.breeds(page_size=100, max_cached_items=50)
    with pytest.raises(catfacts.ArgumentError):
        client.breeds(page_size=0)


def test_a_closed_list_refuses_reads_and_close_is_idempotent(client: catfacts.Client) -> None:
    lst = client.breeds()
    lst[0]
    lst.close()
    lst.close()
    assert lst.closed and "closed" in repr(lst)
    with pytest.raises(catfacts.CancelledError):
        lst[1]
    with pytest.raises(catfacts.CancelledError):
        lst.retry()


def test_closing_the_client_closes_its_lists(mock_url: str) -> None:
    c = catfacts.Client(mock_url)
    lst = c.facts()
    assert lst[0].length > 0
    c.close()
    assert lst.closed
    with pytest.raises(catfacts.CancelledError):
        lst.get(0)


def test_many_threads_share_a_list(client: catfacts.Client, all_breeds: List[catfacts.Breed]) -> None:
    errors: List[BaseException] = []

    def read(offset: int) -> None:
        try:
            for index in range(offset, 98, 8):
                assert lst[index] == all_breeds[index]
        except BaseException as error:  # noqa: BLE001 - collected for the assertion
            errors.append(error)

    with client.breeds(page_size=5) as lst:
        threads = [threading.Thread(target=read, args=(offset,)) for offset in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []


def test_closing_a_list_stops_an_iteration_under_way(client: catfacts.Client) -> None:
    lst = client.breeds(page_size=10)
    walk = iter(lst)
    assert next(walk).breed == "Abyssinian"
    lst.close()
    with pytest.raises(catfacts.CancelledError):
        next(walk)
    assert list(walk) == []


def test_a_handle_in_use_by_an_iteration_is_freed_when_the_iteration_ends(client: catfacts.Client) -> None:
    lst = client.breeds(page_size=10)
    walk = iter(lst)
    next(walk)
    lst.close()
    assert lst.closed and lst._guard._handle is not None  # still in use: not freed under it
    del walk  # the abandoned generator is finalized, and releases the handle
    assert lst._guard._handle is None


def test_on_change_may_read_loaded_items_but_not_wait(client: catfacts.Client, monkeypatch: pytest.MonkeyPatch) -> None:
    reported: List[sys.UnraisableHookArgs] = []
    names: List[str] = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)
    with client.breeds(page_size=10, prefetch_distance=0) as lst:

        def callback(event: ListEvent, first: int, count: int) -> None:
            if event == ListEvent.LOADED and first == 0:
                loaded = lst.get(first)  # loaded: no wait needed
                assert loaded is not None
                names.append(loaded.breed)
                lst[50]  # not loaded: would wait on the library's own thread

        lst.on_change(callback)
        lst[0]
        assert wait_for(lambda: reported)
        lst.on_change(None)
    assert names == ["Abyssinian"]
    assert reported[0].exc_type is RuntimeError
