"""Search as you type: the latest text answered once, stale answers never handed out, one
load for a burst of typing, nothing after close, offline answers labelled, and asyncio.

Waits for answers are bounded by a timeout only a hang reaches (an answer that does not come
fails the test, it does not hang it). Where a test needs a state (the breeds still loading, an
answer arrived and unread) it waits for it, or the mock's latency holds it far longer than any
machine takes to get there. "Nothing more came" is checked by watching for a while once what
could bring it has happened: a correct library passes whatever the machine's speed.
"""
from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import textwrap
import threading
import time
from typing import List

import pytest

import catfacts

from conftest import HANG_S, PYTHON_DIR, MakeMock, wait_for
from test_proxy import closed_port

LATENCY_MS = 3000  # the breeds load this long: a test typing meanwhile is sure to beat them
ANSWER_S = HANG_S  # the longest an expected answer may take
QUIET_S = 1.0  # how long to watch for an answer that must not come


def names(results: catfacts.SearchResults) -> List[str]:
    return [breed.breed for breed in results]


def breeds_requests(client: catfacts.Client) -> int:
    stats = client.metrics().endpoint("/breeds")
    return 0 if stats is None else stats.requests


def test_the_latest_text_is_answered_with_the_breeds_it_starts(client: catfacts.Client,
                                                               all_breeds: List[catfacts.Breed]) -> None:
    with client.search_session(debounce=0, limit=3) as search:
        search.set("Si")
        results = search.results(timeout=ANSWER_S)
    assert results is not None and results.ok
    assert (results.generation, results.text, results.source) == (1, "Si", "network")
    assert names(results) == ["Siamese", "Siberian", "Singapura"]
    assert list(results.breeds) == [breed for breed in all_breeds if breed.breed in names(results)]
    assert len(results) == 3 and results[0].breed == "Siamese"
    results.raise_for_error()  # nothing to raise


def test_fields_choose_what_each_answered_breed_carries(client: catfacts.Client,
                                                        all_breeds: List[catfacts.Breed]) -> None:
    with client.search_session(debounce=0, limit=2, fields=("breed", "coat")) as search:
        search.set("Si")
        results = search.results(timeout=ANSWER_S)
    assert results is not None and results.ok
    full = {breed.breed: breed for breed in all_breeds}
    assert [(b.breed, b.country, b.origin, b.coat, b.pattern) for b in results] == [
        (name, None, None, full[name].coat, None) for name in ("Siamese", "Siberian")]
    assert full["Siamese"].country is not None  # the fields left out were there to leave


def test_fields_say_breed_as_breed_does(client: catfacts.Client) -> None:
    # "breed" is the field's name in Breed, queries and the C library.
    field = "breed"
    with client.search_session(debounce=0, limit=2, fields=(field, "country")) as search:
        search.set("Si")
        results = search.results(timeout=ANSWER_S)
    assert results is not None and results.ok
    assert [tuple(b) for b in results] == [("Siamese", "Thailand", None, None, None),
                                           ("Siberian", "Russia", None, None, None)]
    assert [b.breed for b in results] == ["Siamese", "Siberian"]


def test_fields_name_only_and_bad_fields_are_refused_before_the_library(client: catfacts.Client) -> None:
    with client.search_session(debounce=0, limit=1, fields=[]) as search:  # the name, always
        search.set("Sib")
        results = search.results(timeout=ANSWER_S)
    assert results is not None and [tuple(b) for b in results] == [("Siberian", None, None, None, None)]
    with pytest.raises(catfacts.ArgumentError) as caught:
        client.search_session(fields=["breed", "nmae"])
    assert str(caught.value) == ("invalid argument: fields: unknown field 'nmae'; "
                                 "known: breed, country, origin, coat, pattern")
    with pytest.raises(TypeError) as type_error:
        client.search_session(fields="breed")
    assert str(type_error.value) == ("fields='breed': must be a sequence of field names, such as ('breed',), "
                                     "not str")


def test_an_answer_to_a_slow_search_of_an_older_text_is_never_handed_out(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", str(LATENCY_MS))
    with catfacts.Client(mock.url, retries=0) as c, c.search_session(debounce=0.05) as search:
        search.set("a")
        # Most likely past the debounce, so that "a" is being searched; its breeds still load
        # for seconds whatever the machine. Had "a" not started yet, it never will.
        time.sleep(0.3)
        search.set("ab")
        first = search.results(timeout=ANSWER_S)
        later = search.results(timeout=QUIET_S)
        assert first is not None and (first.generation, first.text, names(first)) == (2, "ab", ["Abyssinian"])
        assert later is None, f"a second answer came: {later!r}"
        assert breeds_requests(c) == 1


def test_a_burst_of_typing_costs_one_load_and_one_answer(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", "100")
    debounce_s = 2.0  # far longer than four calls of set() take, however slow the machine
    heard: List[catfacts.SearchResults] = []
    heard_at: List[float] = []
    done = threading.Event()

    def hear(results: catfacts.SearchResults) -> None:
        heard_at.append(time.monotonic())
        heard.append(results)
        done.set()

    with catfacts.Client(mock.url, retries=0) as c, c.search_session(debounce=debounce_s, on_results=hear) as search:
        for typed in ("s", "si", "sia", "siam"):
            typed_at = time.monotonic()
            search.set(typed)
        assert search.generation == 4
        assert done.wait(ANSWER_S)
        time.sleep(QUIET_S)
        assert [(r.generation, r.text, names(r)) for r in heard] == [(4, "siam", ["Siamese"])]
        assert heard_at[0] - typed_at >= debounce_s - 0.01  # searched once the text stood still
        assert breeds_requests(c) == 1


def test_an_unread_answer_is_dropped_when_the_text_changes(client: catfacts.Client) -> None:
    with client.search_session(debounce=0) as search:
        search.set("si")
        assert search.results(timeout=ANSWER_S) is not None  # the breeds are loaded from here on
        search.set("sia")
        assert wait_for(lambda: search._answers.mailbox.unread is not None)  # its answer came, not read
        search.set("sib")
        results = search.results(timeout=ANSWER_S)
    assert results is not None and (results.generation, results.text, names(results)) == (3, "sib", ["Siberian"])


def test_the_callback_runs_on_a_library_thread(client: catfacts.Client) -> None:
    threads: List[threading.Thread] = []
    done = threading.Event()

    def hear(results: catfacts.SearchResults) -> None:
        threads.append(threading.current_thread())
        done.set()

    with client.search_session(debounce=0, on_results=hear) as search:
        search.set("ab")
        assert done.wait(ANSWER_S)
        with pytest.raises(RuntimeError, match="on_results"):
            search.results(timeout=0)
    assert threads and threads[0] is not threading.main_thread()


def test_nothing_is_handed_out_after_close(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", str(LATENCY_MS))
    heard: List[catfacts.SearchResults] = []
    with catfacts.Client(mock.url, retries=0) as c:
        search = c.search_session(debounce=0, on_results=heard.append)
        search.set("ab")  # its breeds load for seconds: closed before they come
        search.close()
        assert search.closed
        # The load goes on (it is the client's); once it came back, "ab" would be answered.
        assert wait_for(lambda: breeds_requests(c) == 1)
        time.sleep(QUIET_S)
        assert heard == []
        with pytest.raises(catfacts.CancelledError):
            search.set("abc")


def test_closing_ends_a_reader_waiting_on_another_thread(client: catfacts.Client) -> None:
    search = client.search_session()
    seen: List[catfacts.SearchResults] = []
    reader = threading.Thread(target=lambda: seen.extend(search))
    reader.start()
    time.sleep(0.1)  # most likely waiting by now; a reader that starts after the close ends at once too
    search.close()
    reader.join(timeout=ANSWER_S)
    assert not reader.is_alive() and seen == []
    with pytest.raises(catfacts.CancelledError):
        search.results(timeout=0)


def test_closing_the_client_closes_its_search_sessions(mock_url: str) -> None:
    c = catfacts.Client(mock_url)
    search = c.search_session(debounce=0)
    search.set("a")
    c.close()
    assert search.closed
    with pytest.raises(catfacts.CancelledError):
        search.results(timeout=1)


def test_a_callback_may_close_its_own_session(client: catfacts.Client) -> None:
    done = threading.Event()
    sessions: List[catfacts.SearchSession] = []

    def hear(results: catfacts.SearchResults) -> None:
        sessions[0].close()
        done.set()

    sessions.append(client.search_session(debounce=0, on_results=hear))
    sessions[0].set("ab")
    assert done.wait(ANSWER_S)
    assert sessions[0].closed
    assert client.breeds_page(1, limit=1).items[0].breed == "Abyssinian"  # the client goes on


def test_offline_answers_come_from_the_bundled_catalog_and_say_so() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    with catfacts.Client(url, retries=0, offline_fallback=True) as c, c.search_session(debounce=0) as search:
        search.set("rag")
        results = search.results(timeout=ANSWER_S)
    assert results is not None and results.ok
    assert (results.source, names(results)) == ("offline-catalog", ["Ragamuffin", "Ragdoll"])


def test_a_failed_load_is_carried_by_the_answer_and_the_next_text_tries_again() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    with catfacts.Client(url, retries=0) as c, c.search_session(debounce=0) as search:
        search.set("ab")
        failed = search.results(timeout=ANSWER_S)
        assert failed is not None and not failed.ok and failed.breeds == ()
        assert isinstance(failed.error, catfacts.NetworkError) and isinstance(failed.error, ConnectionError)
        assert failed.text == "ab"
        with pytest.raises(catfacts.NetworkError):
            failed.raise_for_error()
        search.set("abc")
        again = search.results(timeout=ANSWER_S)
        assert again is not None and again.generation == 2 and isinstance(again.error, catfacts.NetworkError)
        assert c.metrics().endpoint("/breeds") is not None
        assert c.metrics().endpoint("/breeds").errors == 2  # type: ignore[union-attr]


@pytest.mark.parametrize(("arguments", "message"), [
    ({"debounce": -0.1}, "invalid argument: debounce=-0.1: must be 0 or more seconds, at most 60"),
    ({"debounce": 61}, "invalid argument: debounce=61: must be 0 or more seconds, at most 60"),
    ({"limit": 0}, "invalid argument: limit=0: must be in 1..10000"),
    ({"limit": 10001}, "invalid argument: limit=10001: must be in 1..10000"),
])
def test_bad_options_are_refused_naming_them(client: catfacts.Client, arguments: dict,  # type: ignore[type-arg]
                                             message: str) -> None:
    with pytest.raises(catfacts.ArgumentError) as caught:
        client.search_session(**arguments)
    assert str(caught.value) == message


def test_bad_text_is_refused_and_the_session_goes_on(client: catfacts.Client) -> None:
    with client.search_session(debounce=0) as search:
        with pytest.raises(catfacts.ArgumentError, match="NUL"):
            search.set("a\0b")
        with pytest.raises(catfacts.ArgumentError, match="the search text is 1025 bytes long; at most 1024"):
            search.set("a" * 1025)
        with pytest.raises(TypeError):
            search.set(b"ab")  # type: ignore[arg-type]
        assert search.generation == 0
        search.set("ab")
        results = search.results(timeout=ANSWER_S)
    assert results is not None and (results.generation, names(results)) == (1, ["Abyssinian"])


def test_sessions_collected_with_searches_in_flight(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", "200")
    with catfacts.Client(mock.url, retries=0) as c:
        for _ in range(10):
            search = c.search_session(debounce=0, on_results=lambda results: None)
            search.set("a")
            del search
            gc.collect()
        # This session's load, sent after theirs and as slow, comes after them (or finds the
        # breeds one of them loaded): by its answer, theirs came back to the collected sessions.
        with c.search_session(debounce=0) as search:
            search.set("ab")
            results = search.results(timeout=ANSWER_S)
        assert results is not None and names(results) == ["Abyssinian"]


def test_interpreter_exit_with_a_search_in_flight(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", "300")
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(PYTHON_DIR)!r})
        import catfacts
        c = catfacts.Client({mock.url!r})
        search = c.search_session(debounce=0, on_results=lambda results: print("answer", results))
        search.set("a")
        time.sleep(0.1)
        print("exiting")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "exiting" in done.stdout and "Traceback" not in done.stderr


def test_async_answers_the_latest_text_on_the_event_loop(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", str(LATENCY_MS))

    async def main() -> None:
        async with catfacts.AsyncClient(mock.url, retries=0) as client:
            async with client.search_session(debounce=0.05) as search:
                search.set("a")
                await asyncio.sleep(0.3)  # most likely "a" is being searched; its breeds load for seconds
                search.set("ab")
                first = await search.results(timeout=ANSWER_S)
                assert first is not None and (first.generation, first.text, names(first)) == (2, "ab", ["Abyssinian"])
                assert await search.results(timeout=QUIET_S) is None
                search.set("si")
                async for results in search:
                    assert (results.generation, names(results)) == (3, ["Siamese", "Siberian", "Singapura"])
                    break
            assert search.closed
            with pytest.raises(catfacts.CancelledError):
                await search.results()
            assert (await client.metrics()).endpoint("/breeds").requests == 1  # type: ignore[union-attr]

    asyncio.run(main())


def test_async_callbacks_run_on_the_loop_and_closing_ends_async_for(mock_url: str) -> None:
    async def main() -> None:
        loop_thread = threading.current_thread()
        heard: List[catfacts.SearchResults] = []
        threads: List[threading.Thread] = []
        arrived = asyncio.Event()

        def hear(results: catfacts.SearchResults) -> None:
            threads.append(threading.current_thread())
            heard.append(results)
            arrived.set()

        async with catfacts.AsyncClient(mock_url, retries=0) as client:
            async with client.search_session(debounce=0, on_results=hear, fields=["breed"]) as search:
                search.set("ab")
                await asyncio.wait_for(arrived.wait(), ANSWER_S)
            assert threads == [loop_thread] and names(heard[0]) == ["Abyssinian"]
            assert heard[0].breeds[0].country is None  # fields= reaches the library

            reading = client.search_session()
            collected: List[catfacts.SearchResults] = []

            async def read() -> None:
                async for results in reading:
                    collected.append(results)

            reader = asyncio.ensure_future(read())
            await asyncio.sleep(0.1)  # most likely reading by now; a reader that starts later ends at once too
            client.close()  # closes the session, which ends the reader
            await asyncio.wait_for(reader, ANSWER_S)
            assert collected == [] and reading.closed

    asyncio.run(main())


def test_async_drops_an_unread_answer_when_the_text_changes(mock_url: str) -> None:
    async def main() -> None:
        async with catfacts.AsyncClient(mock_url, retries=0) as async_client:
            async with async_client.search_session(debounce=0) as search:
                search.set("si")
                assert await search.results(timeout=ANSWER_S) is not None  # the breeds are loaded from here on
                search.set("sia")
                deadline = time.monotonic() + HANG_S
                while search._mailbox.unread is None:  # its answer arrives on the loop, and is not read
                    assert time.monotonic() < deadline, "no answer to 'sia'"
                    await asyncio.sleep(0.01)
                search.set("sib")
                results = await search.results(timeout=ANSWER_S)
                assert results is not None and (results.generation, names(results)) == (3, ["Siberian"])

    asyncio.run(main())
