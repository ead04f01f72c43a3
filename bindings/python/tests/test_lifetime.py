"""Threads, garbage collection, interpreter exit, memory, and finding the library."""
from __future__ import annotations

import ctypes
import gc
import os
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import catfacts
from catfacts import _native

from conftest import HANG_S, PYTHON_DIR, ROOT, MakeMock, established, wait_for


def test_eight_threads_share_a_client(mock_url: str, all_breeds: List[catfacts.Breed]) -> None:
    calls = 0

    def work(worker: int) -> List[Tuple[str, int, Any]]:
        results: List[Tuple[str, int, Any]] = []
        for page in range(1, 21):
            if (page + worker) % 3 == 0:
                fact_page = shared.facts_page(page, limit=4)
                results.append(("facts", page, len(fact_page.items)))
            else:
                results.append(("breeds", page, shared.breeds_page(page, limit=5).items))
        return results

    # No read-ahead: the count below is of the calls made.
    with catfacts.Client(mock_url, retries=0, read_ahead=0) as shared, ThreadPoolExecutor(max_workers=8) as pool:
        for results in pool.map(work, range(8)):
            for kind, page, value in results:
                calls += 1
                if kind == "breeds":
                    assert list(value) == all_breeds[(page - 1) * 5:page * 5]
                else:
                    assert value == 4
        metrics = shared.metrics()
    assert calls == 160
    # Every call is a request, or a page answered from the client's cache.
    assert sum(entry.requests + entry.cache_hits for entry in metrics.endpoints) == calls
    assert sum(entry.errors for entry in metrics.endpoints) == 0


def test_clients_and_lists_collected_while_loads_are_in_flight(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", "2000")  # every load is still in flight when collected
    collected: List["weakref.ref[Any]"] = []
    for _ in range(10):
        c = catfacts.Client(mock.url, retries=0)
        c.on_request(lambda *args: None)
        breeds = c.breeds(page_size=5)
        breeds.on_change(lambda *args: None)
        assert breeds.get(0) is None  # its page is loading
        facts = c.facts(page_size=5)
        facts.get(40)
        cycle = c.breeds()
        cycle.on_change(lambda *args, keep=cycle: None)  # a cycle only the collector can free
        cycle.get(0)
        collected += [weakref.ref(c), weakref.ref(cycle)]
        del c, breeds, facts, cycle
        gc.collect()
    assert wait_for(lambda: gc.collect() >= 0 and all(ref() is None for ref in collected))
    # A request sent after the loads, as slow as they are, is answered after them: once it has
    # come, so has every load sent before it (or it was cut when its objects were collected).
    with catfacts.Client(mock.url) as c:
        assert c.breeds_page(1, limit=1).items[0].breed == "Abyssinian"


def test_a_list_whose_listener_refers_to_it_is_collected_with_its_client(make_mock: MakeMock) -> None:
    mock = make_mock()  # its own, so that its connections are this test's only
    c = catfacts.Client(mock.url, retries=0)
    cycle = c.breeds(page_size=5)
    cycle.on_change(lambda *args, keep=cycle: None)  # a cycle only the collector can free
    assert cycle[0].breed == "Abyssinian"
    assert established(mock.port) > 0
    refs: List["weakref.ref[object]"] = [weakref.ref(c), weakref.ref(cycle)]
    del c, cycle
    assert wait_for(lambda: gc.collect() >= 0 and all(ref() is None for ref in refs))
    assert wait_for(lambda: established(mock.port) == 0)  # the handles were closed, not only forgotten


def test_a_client_whose_request_listener_refers_to_it_is_collected(make_mock: MakeMock) -> None:
    mock = make_mock()
    c = catfacts.Client(mock.url, retries=0, read_ahead=0)
    c.on_request(lambda *args, keep=c: None)
    assert c.breeds_page(1, limit=1).items[0].breed == "Abyssinian"
    ref = weakref.ref(c)
    del c
    assert wait_for(lambda: gc.collect() >= 0 and ref() is None)
    assert wait_for(lambda: established(mock.port) == 0)


class Typist:
    """Keeps a search session whose callback is one of its methods: a cycle through the session."""

    def __init__(self, client: catfacts.Client, answered: threading.Event) -> None:
        self.answered = answered
        self.search = client.search_session(debounce=0, limit=1, on_results=self.show)

    def show(self, results: catfacts.SearchResults) -> None:
        if results.generation == self.search.generation:
            self.answered.set()


def test_a_search_whose_listener_refers_to_it_is_collected_with_its_client(mock_url: str) -> None:
    answered = threading.Event()
    c = catfacts.Client(mock_url, retries=0)
    typist = Typist(c, answered)
    typist.search.set("Abys")
    assert answered.wait(HANG_S)
    refs: List["weakref.ref[object]"] = [weakref.ref(c), weakref.ref(typist.search)]
    del c, typist
    assert wait_for(lambda: gc.collect() >= 0 and all(ref() is None for ref in refs))


def test_listeners_held_only_by_their_objects_still_fire(mock_url: str) -> None:
    changes: List[Tuple[catfacts.ListEvent, int, int]] = []
    requests: List[Tuple[str, bool]] = []
    answers: List[Tuple[str, str]] = []
    with catfacts.Client(mock_url, retries=0, read_ahead=0) as c:
        c.on_request(lambda endpoint, ms, ok: requests.append((endpoint, ok)))
        lst = c.breeds(page_size=5)
        lst.on_change(lambda event, first, count: changes.append((event, first, count)))
        search = c.search_session(debounce=0, limit=1, on_results=lambda results: answers.append(
            (results.text, results.breeds[0].breed)))
        gc.collect()  # the lambdas have no reference left but their objects'
        assert c.breeds_page(1, limit=1).items[0].breed == "Abyssinian"
        assert lst.get(0, wait=True) is not None
        search.set("Aeg")
        assert wait_for(lambda: ("/breeds", True) in requests and changes and answers)
    assert (catfacts.ListEvent.LOADED, 0, 5) in changes
    assert answers == [("Aeg", "Aegean")]


def test_a_walk_that_fails_leaves_nothing_for_the_collector(make_mock: MakeMock,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A page that fails part-way through breeds_pages() is freed as soon as its exception is
    dropped: no cycle (future, exception, traceback, frame, future) waits for the collector."""
    futures: List["weakref.ref[Any]"] = []
    submit = ThreadPoolExecutor.submit

    def recorded(pool: ThreadPoolExecutor, *args: Any, **kwargs: Any) -> Any:
        future = submit(pool, *args, **kwargs)
        futures.append(weakref.ref(future))
        return future

    monkeypatch.setattr(ThreadPoolExecutor, "submit", recorded)
    mock = make_mock()
    gc.collect()
    gc.disable()
    try:
        with catfacts.Client(mock.url, retries=0) as client:
            walk = client.breeds_pages(10, parallel=1)  # page 1 comes now, while the mock runs
            mock.stop()
            with pytest.raises(catfacts.NetworkError):
                for _ in walk:
                    pass
            del walk
        assert futures, "the walk asked for no page after the first"
        # The pages' threads drop their futures when they end; then nothing holds them.
        assert wait_for(lambda: all(ref() is None for ref in futures)), "a failed page waits for the collector"
    finally:
        gc.enable()


def test_interpreter_exit_with_open_clients_and_loads_in_flight(make_mock: MakeMock) -> None:
    mock = make_mock("--latency-ms", "300")
    script = textwrap.dedent(f"""
        import sys, threading
        sys.path.insert(0, {str(PYTHON_DIR)!r})
        import catfacts
        c = catfacts.Client({mock.url!r})
        c.on_request(lambda *args: print("request", *args))
        lst = c.breeds(page_size=5)
        lst.on_change(lambda *args: print("change", *args))
        lst.get(0)
        threading.Thread(target=lambda: c.fact(), daemon=True).start()
        print("exiting")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "exiting" in done.stdout and "Traceback" not in done.stderr


def rss_kb() -> int:
    """This process's resident memory (Linux, where the suite runs)."""
    lines = [line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith("VmRSS:")]
    assert lines, "no VmRSS in /proc/self/status"
    return int(lines[0].split()[1])


def test_memory_stays_flat_over_open_close_cycles(mock_url: str) -> None:
    def cycle() -> None:
        with catfacts.Client(mock_url, retries=0) as c:
            c.on_request(lambda *args: None)
            c.breeds_page(1, limit=5)
            c.breed("Aegean")
            c.metrics()
            with c.breeds(page_size=10) as lst:
                lst[0], lst[-1]
            with c.facts(page_size=10) as lst:
                lst.get(3, wait=True)
            with pytest.raises(catfacts.NotFoundError):
                c.breed("Nope")

    for _ in range(30):  # warm up allocators and caches
        cycle()
    gc.collect()
    before = rss_kb()
    for _ in range(200):
        cycle()
    gc.collect()
    grown_mb = (rss_kb() - before) / 1024
    assert grown_mb < 4, f"RSS grew {grown_mb:.1f} MB over 200 cycles"


def test_every_header_function_is_declared_for_ctypes() -> None:
    header = (ROOT / "include" / "catfacts.h").read_text()
    declared = set(re.findall(r"^[a-z0-9_ ]+?\**\s*\**(cf_\w+)\s*\(", header, re.MULTILINE))
    assert len(declared) >= 23
    assert declared == set(_native._PROTOTYPES)
    for name in declared:
        function = getattr(_native.lib, name)
        assert function.argtypes is not None, name
    assert _native.lib.cf_free.restype is None and _native.lib.cf_last_error.restype is not None


def run_import(env_updates: Dict[str, str], pythonpath: Path) -> "subprocess.CompletedProcess[str]":
    env = {key: value for key, value in os.environ.items() if key != "CATFACTS_LIBRARY"}
    env.update(env_updates)
    env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([sys.executable, "-c", "import catfacts; print(catfacts.library_path)"],
                          capture_output=True, text=True, env=env, cwd=str(pythonpath), timeout=30)


def test_catfacts_library_env_is_used_first(tmp_path: Path) -> None:
    copy = tmp_path / "libCatFacts.so"
    shutil.copy(catfacts.library_path, copy)
    done = run_import({"CATFACTS_LIBRARY": str(copy)}, PYTHON_DIR)
    assert done.returncode == 0 and done.stdout.strip() == str(copy)


def test_a_bad_catfacts_library_env_is_an_import_error() -> None:
    done = run_import({"CATFACTS_LIBRARY": "/nonexistent/libCatFacts.so"}, PYTHON_DIR)
    assert done.returncode != 0 and "ImportError" in done.stderr and "CATFACTS_LIBRARY" in done.stderr


def test_a_library_bundled_next_to_the_package_is_found(tmp_path: Path) -> None:
    # Where a wheel puts it: catfacts/libCatFacts.so.0 (its SONAME), found before any build folder.
    shutil.copytree(PYTHON_DIR / "catfacts", tmp_path / "catfacts")
    bundled = _native._BUNDLED_NAME
    shutil.copy(catfacts.library_path, tmp_path / "catfacts" / bundled)
    done = run_import({}, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "catfacts" / bundled)


def test_no_library_anywhere_is_an_import_error_saying_how_to_build(tmp_path: Path) -> None:
    shutil.copytree(PYTHON_DIR / "catfacts", tmp_path / "catfacts")
    # The system's library path is searched last: hide a system-wide install, if any.
    script = "import ctypes.util; ctypes.util.find_library = lambda name: None; import catfacts"
    env = {key: value for key, value in os.environ.items() if key != "CATFACTS_LIBRARY"}
    env["PYTHONPATH"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          cwd=str(tmp_path), timeout=30)
    assert done.returncode != 0 and "ImportError" in done.stderr
    assert "swift build --product CatFacts" in done.stderr and "CATFACTS_LIBRARY" in done.stderr


def test_without_libcurl_requests_are_network_errors_and_the_fallback_still_answers(mock_url: str) -> None:
    # libcurl is loaded at the first request; CATFACTS_LIBCURL names another library.
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(PYTHON_DIR)!r})
        import catfacts
        with catfacts.Client({mock_url!r}, retries=0) as c:
            try:
                c.breeds_page(1, limit=2)
            except catfacts.NetworkError as error:
                print("error:", error)
        with catfacts.Client({mock_url!r}, retries=0, offline_fallback=True) as c:
            page = c.breeds_page(1, limit=2)
            print("fallback:", page.source, [b.breed for b in page.items])
    """)
    env = dict(os.environ, CATFACTS_LIBCURL="/nonexistent/libcurl.so.4")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=30)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"error: network error for {mock_url}/breeds?page=1&limit=2: HTTP is unavailable: "
                               "/nonexistent/libcurl.so.4 could not be loaded (")
    assert lines[0].endswith("install libcurl4, or name the library in CATFACTS_LIBCURL; check the address and your connection")
    assert lines[1] == "fallback: offline-catalog ['Abyssinian', 'Aegean']"


def test_the_interrupt_watcher_starts_with_the_first_blocking_call(mock_url: str) -> None:
    # A fresh interpreter: the watcher is one thread a process, named cf-interrupt, started by
    # the first blocking call (a C host's or this package's), not by opening a client.
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(PYTHON_DIR)!r})
        import catfacts

        def names():
            found = []
            for task in os.listdir("/proc/self/task"):
                try:
                    with open(f"/proc/self/task/{{task}}/comm") as comm:
                        found.append(comm.read().strip())
                except FileNotFoundError:
                    pass
            return found

        client = catfacts.Client({mock_url!r})
        before = "cf-interrupt" in names()
        client.breeds_page(1, limit=1)
        after = "cf-interrupt" in names()
        client.close()
        print(before, after)
        """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_S,
                         env={**os.environ, "CATFACTS_LIBRARY": str(_native.library_path)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "True"]


def test_a_string_handed_out_is_decoded_once_and_freed() -> None:
    # take_string frees with cf_free (free(3)) what the library allocated with malloc: a
    # block from libc's strdup stands for one here.
    libc = ctypes.CDLL(None)
    libc.strdup.argtypes = [ctypes.c_char_p]
    libc.strdup.restype = ctypes.c_void_p
    text = "Ébène \U0001F408 \\u0000 " + "x" * 300_000
    pointer = ctypes.c_void_p(libc.strdup(text.encode("utf-8")))
    assert _native.take_string(pointer) == text
    assert pointer.value is None
    # Bytes that are not UTF-8 raise, and the block is freed all the same.
    pointer = ctypes.c_void_p(libc.strdup(b"caf\xe9"))
    with pytest.raises(UnicodeDecodeError):
        _native.take_string(pointer)
    assert pointer.value is None
    assert _native.take_string(ctypes.c_void_p()) == ""
