"""The Python side of `make soak`: the `catfacts` package with a client of its own (one client
cannot cross processes) on the C driver's cache file, driven by two threads making calls of
every kind and a third that interrupts them now and then.

    python_worker.py BASE_URL CACHE_PATH SECONDS SEED

It speaks to Tests/soak/soak.py as the C driver does: "ready", then "quiet" when the time is
up and its threads have returned (the client still open); then it waits for "go" on stdin,
closes the client and prints "result JSON" (calls per kind and status, wrong answers,
deadlines) and "end". Before each sample soak.py sends "collect": the worker collects its
cyclic garbage and says "heap N" (malloc's bytes in use, in kB) and "collected", and it does
so before "quiet" too, so that every sample
counts live memory, not garbage the interpreter has not got round to (a walk that failed
part-way leaves a cycle: a future, its exception, the traceback, the generator's frame
holding the future).
"""
from __future__ import annotations

import collections
import ctypes
import gc
import json
import random
import sys
import threading
import time
import unicodedata
from typing import Any, Callable, Dict, Tuple, Union

import catfacts

CALLERS = 2
# Far beyond any call's timeout: only a hang waits this long for a list item or an answer.
HANG_S = 120.0
# Indices drawn for list reads: past the catalogs' ends too (2000 breeds, 5000 facts).
LIST_SPAN = 5200
BREEDS = 2000
# A read that ended this way needs no retry(): the page loaded, loads, is past the end, or
# the read was interrupted.
NO_RETRY = {"OK", "PENDING", "NOT_FOUND", "CANCELLED"}
List = Union[catfacts.BreedList, catfacts.FactList]


def folded(text: str) -> str:
    """Text as the library's prefix search compares it: case and diacritics dropped."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


class Tally:
    """Calls per kind and status, wrong answers and deadline hits, from several threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: Dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.wrong: collections.Counter[str] = collections.Counter()
        self.deadlines: collections.Counter[str] = collections.Counter()

    def count(self, kind: str, status: str) -> None:
        with self.lock:
            self.calls[kind][status] += 1

    def wrong_answer(self, kind: str, what: str) -> None:
        with self.lock:
            self.wrong[kind] += 1
            shown = sum(self.wrong.values())
        if shown <= 20:
            print(f"python_worker: wrong answer from {kind}: {what}", file=sys.stderr, flush=True)

    def call(self, kind: str, call: Callable[[], Any]) -> Tuple[str, Any]:
        """Makes the call and counts how it ended: OK (PENDING for a list read that gave
        None), the error's status as the C driver names them (NETWORK, TIMEOUT, ...),
        NOT_FOUND for an index past the end. Anything else escaping the package is a wrong
        answer, counted as EXCEPTION."""
        try:
            result = call()
        except catfacts.CatFactsError as error:
            status = error.status.name.removeprefix("ERR_")
            self.count(kind, status)
            # The package's message for a passed deadline: "the call's timeout of 0.9 s passed ...".
            if status == "TIMEOUT" and "timeout of" in str(error):
                with self.lock:
                    self.deadlines[kind] += 1
            if status in ("ARGUMENT", "INTERNAL"):
                print(f"python_worker: {kind}: {error!r}", file=sys.stderr, flush=True)
            return status, None
        except IndexError:
            self.count(kind, "NOT_FOUND")
            return "NOT_FOUND", None
        except Exception as error:  # the soak reports it rather than dying of it
            self.count(kind, "EXCEPTION")
            self.wrong_answer(kind, repr(error))
            return "EXCEPTION", None
        status = "PENDING" if result is None else "OK"
        self.count(kind, status)
        return status, result


class Worker:
    """The calls, one method per kind, on one client and two lists the callers share."""

    def __init__(self, client: catfacts.Client, tally: Tally) -> None:
        self.client = client
        self.tally = tally
        self.breeds = client.breeds(page_size=20, prefetch_distance=20, max_cached_items=100)
        self.facts = client.facts(page_size=50, prefetch_distance=50, max_cached_items=300)
        self.names_lock = threading.Lock()
        self.names: list[str] = []

    def page_json(self, rng: random.Random) -> None:
        page, limit = rng.randint(1, 60), rng.choice((5, 25, 100))
        status, result = self.tally.call("page_json", lambda: self.client.facts_page(page, limit=limit, max_length=150))
        if status == "OK" and (result.page != page or len(result.items) > limit or
                               any(not 0 < fact.length <= 150 for fact in result.items)):
            self.tally.wrong_answer("page_json", f"facts page {page} of {limit}: {result!r}"[:300])

    def page_items(self, rng: random.Random) -> None:
        page, limit = rng.randint(1, 60), rng.choice((5, 25, 100))
        status, result = self.tally.call("page_items", lambda: self.client.breeds_page(page, limit=limit))
        if status != "OK":
            return
        if result.page != page or len(result.items) > limit:
            self.tally.wrong_answer("page_items", f"breeds page {page} of {limit}: {result!r}"[:300])
        if result.items:
            with self.names_lock:
                self.names = (self.names + [result.items[0].breed])[-32:]

    def page_walk(self, rng: random.Random) -> None:
        parallel = rng.randint(1, 4)
        status, result = self.tally.call(
            "page_walk", lambda: sum(len(page.items) for page in self.client.breeds_pages(100, parallel=parallel)))
        if status == "OK" and result != BREEDS:
            self.tally.wrong_answer("page_walk", f"{result} breeds in all pages, not {BREEDS}")

    def fact(self, rng: random.Random) -> None:
        status, result = self.tally.call("fact", lambda: self.client.fact(max_length=200))
        if status == "OK" and not 0 < result.length <= 200:
            self.tally.wrong_answer("fact", repr(result))

    def breed_find(self, rng: random.Random) -> None:
        # One call in four asks for a name no catalog has: that must be NotFoundError.
        with self.names_lock:
            name = rng.choice(self.names) if self.names and rng.random() < 0.75 else None
        status, result = self.tally.call("breed_find", lambda: self.client.breed(name or "No Such Soak Breed"))
        if status == "OK" and (name is None or result.breed.lower() != name.lower()):
            self.tally.wrong_answer("breed_find", f"{result!r} for {name!r}")
        if status == "NOT_FOUND" and name is not None:
            self.tally.wrong_answer("breed_find", f"NotFoundError for {name!r}, a name a page held")

    def query(self, rng: random.Random) -> None:
        if rng.random() < 0.5:
            prefix = rng.choice("abcs")
            status, result = self.tally.call("query", lambda: self.client.query(search=prefix, limit=30))
            if status == "OK" and (len(result) > 30 or any(not folded(b.breed).startswith(prefix) for b in result)):
                self.tally.wrong_answer("query", f"{result!r} for prefix {prefix!r}, limit 30"[:300])
        else:
            status, result = self.tally.call("query", lambda: self.client.group("country", where={"coat": "Short"}))
            if status == "OK" and any(b.country != key for key, breeds in result.items() for b in breeds):
                self.tally.wrong_answer("query", repr(result)[:300])

    def _shared_list(self, rng: random.Random) -> List:
        return self.breeds if rng.random() < 0.5 else self.facts

    def _retry_if_failed(self, items: List, status: str) -> None:
        """A failed page loads again only after retry(): the reader that saw the failure asks."""
        def retry() -> bool:
            items.retry()
            return True
        if status not in NO_RETRY:
            self.tally.call("list_retry", retry)

    def _read(self, kind: str, items: List, index: int, wait: float) -> None:
        status, _ = self.tally.call(kind, lambda: items.get(index, wait=wait))
        self._retry_if_failed(items, status)

    def list_item(self, rng: random.Random) -> None:
        self._read("list_item", self._shared_list(rng), rng.randrange(LIST_SPAN), 0)

    def list_wait(self, rng: random.Random) -> None:
        self._read("list_wait", self._shared_list(rng), rng.randrange(LIST_SPAN), 3.0)

    def list_batch(self, rng: random.Random) -> None:
        """A slice: items read in a row, each waited for."""
        items = self._shared_list(rng)
        start, length = rng.randrange(300), rng.randint(1, 50)
        status, result = self.tally.call("list_batch", lambda: items[start:start + length])
        if status == "OK" and len(result) != length:
            self.tally.wrong_answer("list_batch", f"{len(result)} items for [{start}:{start + length}]")
        self._retry_if_failed(items, status)

    def list_open(self, rng: random.Random) -> None:
        """A list of its own, read once and closed, its first page maybe still loading."""
        opener = self.client.breeds if rng.random() < 0.5 else self.client.facts
        page_size = rng.randint(5, 50)
        status, items = self.tally.call("list_open", lambda: opener(page_size=page_size, max_cached_items=300))
        if status != "OK":
            return
        with items:
            index = rng.randrange(300)
            if rng.random() < 0.25:
                # The read starts the load; closing the list cancels it.
                self.tally.call("list_item", lambda: items.get(index))
            elif self.tally.call("list_wait", lambda: items.get(index, wait=HANG_S))[0] == "PENDING":
                self.tally.wrong_answer("list_wait", f"item {index} of a new list not loaded within {HANG_S:.0f} s")

    def search(self, rng: random.Random) -> None:
        """A burst of typing, then the answer to its last text."""
        text = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 4)))
        with self.client.search_session(debounce=rng.randint(0, 40) / 1000, limit=10) as session:
            for end in range(1, len(text) + 1):
                session.set(text[:end])
            results = None
            until = time.monotonic() + HANG_S
            while (results is None or results.generation < len(text)) and time.monotonic() < until:
                # Not `or`: an answer with no breeds is an empty sequence, and false.
                answer = session.results(timeout=until - time.monotonic())
                results = results if answer is None else answer
        if results is None or results.generation != len(text):
            self.tally.count("search", "EXCEPTION")
            self.tally.wrong_answer("search", f"no answer to {text!r} within {HANG_S:.0f} s")
        elif results.error is not None:
            status = results.error.status.name.removeprefix("ERR_")
            self.tally.count("search", status)
        else:
            self.tally.count("search", "OK")
            if results.text != text or len(results.breeds) > 10:
                self.tally.wrong_answer("search", repr(results)[:300])

    def metrics(self, rng: random.Random) -> None:
        status, result = self.tally.call("metrics", self.client.metrics)
        if status == "OK" and not isinstance(result.online, bool):
            self.tally.wrong_answer("metrics", repr(result)[:300])

    def prometheus(self, rng: random.Random) -> None:
        status, result = self.tally.call("prometheus", self.client.metrics_prometheus)
        if status == "OK" and not (result.endswith("\n") and "catfacts_resident_memory_bytes" in result):
            self.tally.wrong_answer("prometheus", result[:300])


# Each kind with its weight: how often a caller draws it.
KINDS: Dict[str, int] = {
    "page_json": 12, "page_items": 12, "page_walk": 2, "fact": 8, "breed_find": 6, "query": 6,
    "list_item": 14, "list_wait": 8, "list_batch": 6, "list_open": 4, "search": 5,
    "metrics": 5, "prometheus": 3,
}


_say_lock = threading.Lock()


def say(line: str) -> None:
    """One line to soak.py, whole: the stdin thread answers while the main thread reports."""
    with _say_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


_mallinfo2 = ctypes.CDLL(None).mallinfo2
_mallinfo2.restype = _MallInfo2
_mallinfo2.argtypes = []


def heap_kb() -> int:
    """malloc's bytes in use, in kB, every arena (the library's, and CPython's large blocks)."""
    info = _mallinfo2()
    return int((info.uordblks + info.hblkhd) // 1024)


def obey(go: threading.Event) -> None:
    """soak.py's lines: "collect" before a sample (answered with the heap), "go" (or the end
    of stdin) to finish."""
    for line in sys.stdin:
        if line.strip() == "collect":
            gc.collect()
            say(f"heap {heap_kb()}")
            say("collected")
        elif line.strip() == "go":
            break
    go.set()


def main() -> int:
    base_url, cache_path, seconds, seed = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    tally = Tally()
    # A deadline shorter than the C client's: every Retry-After wait (1 s) and slow body (1.2 s)
    # passes it, so this client sees deadlines often where the C one sees waits and retries
    # succeed. A small cache with a short TTL, on the C client's file.
    client = catfacts.Client(base_url, timeout=0.9, attempt_timeout=0.8, retries=2, cache_path=cache_path,
                             cache_ttl=2.0, cache_max_bytes=1 << 20)
    worker = Worker(client, tally)
    stop_at = time.monotonic() + seconds
    stopping = threading.Event()

    def call_until_stop(index: int) -> None:
        rng = random.Random(seed * 31 + index)
        names, weights = list(KINDS), list(KINDS.values())
        while time.monotonic() < stop_at:
            getattr(worker, rng.choices(names, weights)[0])(rng)
            # Pacing, not a check: steady traffic rather than a benchmark.
            time.sleep(rng.random() / 100)

    def interrupt_now_and_then() -> None:
        rng = random.Random(seed * 31 + CALLERS)
        while not stopping.wait(0.2 + rng.random() * 1.3):
            client.interrupt()
            tally.count("interrupt", "OK")

    go = threading.Event()
    callers = [threading.Thread(target=call_until_stop, args=(i,)) for i in range(CALLERS)]
    interrupter = threading.Thread(target=interrupt_now_and_then)
    for thread in callers + [interrupter]:
        thread.start()
    threading.Thread(target=obey, args=(go,), daemon=True).start()
    say("ready")
    for thread in callers:
        thread.join()
    stopping.set()
    interrupter.join()
    gc.collect()
    say(f"heap {heap_kb()}")
    say("quiet")
    go.wait()
    worker.breeds.close()
    worker.facts.close()
    client.close()
    result = {"calls": {kind: dict(counts) for kind, counts in tally.calls.items()},
              "wrong": dict(tally.wrong), "deadlines": dict(tally.deadlines)}
    say("result " + json.dumps(result))
    say("end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
