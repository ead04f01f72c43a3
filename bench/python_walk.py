#!/usr/bin/env python3
"""Walks every breed page through the catfacts package and through `requests`, and compares.

Start a mock with a large catalog first, then point this at it:

    .build/release/catfacts-mock --port 0 --breeds 100000 &
    python3 bench/python_walk.py --base-url http://127.0.0.1:PORT --runs 3

Without --base-url it starts one itself (--mock, default the release build's, else the
debug build's catfacts-mock, with --breeds 100000) and stops it at the end.

Measured, RUNS times each (medians reported, every run listed), each loop reading every
breed's name, as a script writer would write it:
- package_pages:    `for n in range(1, pages + 1): client.breeds_page(n, limit=limit)`
- package_list:     `for b in client.breeds(page_size=limit)` (the prefetching pager)
- package_parallel: `for page in client.breeds_pages(limit, parallel=4)` (4 pages loading at a time)
- requests_get:     requests.get(...).json() in a loop
- requests_session: the same through one requests.Session (what the goals compare with)
- cold start:       a fresh interpreter importing the package (or requests) and fetching the
                    first page, timed from outside (whole process) and inside (import + page)

- page_cost_ms:     one page's time in Python, stage by stage (foreign call, parsing, objects)
- cpu_seconds:      with --mock-pid, each loop's CPU time (median): this process's (Python and
                    the library's threads) and the mock's, which shares the machine's cores

Prints one JSON object. ratio_vs_session: each package loop's wall time / the Session loop's;
cpu_ratio_vs_session: its process CPU (time.process_time) / the Session loop's. GOALS, for the
sequential loops (the breeds_page loop and list iteration): both <= 0.5 (issue #28; bench/run
also sets every loop's wall time against its floor, from the CPU seconds).
The library is $CATFACTS_LIBRARY, else --library, else the release build if there is one.
"""
from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional

ROOT = Path(__file__).resolve().parent.parent
PYTHON_DIR = ROOT / "bindings" / "python"
# The package's loops, each set against the requests.Session loop measured in the same run.
PACKAGE_LOOPS = ("package_pages", "package_list", "package_parallel")
# The sequential loops' goals, for wall time and for process CPU alike, over the Session loop's (issue #28).
GOALS = {"package_pages": 0.5, "package_list": 0.5}


def choose_library(given: str | None) -> str | None:
    if os.environ.get("CATFACTS_LIBRARY"):
        return os.environ["CATFACTS_LIBRARY"]
    if given:
        return given
    release = ROOT / ".build" / "release" / "libCatFacts.so"
    return str(release) if release.is_file() else None


@contextmanager
def mock_server(base_url: Optional[str], binary: Optional[str], breeds: int) -> Iterator[str]:
    """The given base URL, or that of a catfacts-mock started here for the run."""
    if base_url:
        yield base_url.rstrip("/")
        return
    candidates = [Path(binary)] if binary else [ROOT / ".build" / build / "catfacts-mock" for build in ("release", "debug")]
    found = next((path for path in candidates if path.is_file()), None)
    if found is None:
        raise SystemExit(f"no catfacts-mock at {', '.join(map(str, candidates))}: build it, or pass --base-url")
    process = subprocess.Popen([str(found), "--port", "0", "--breeds", str(breeds)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline().strip() if process.stdout else ""
        if not line.startswith("listening on "):
            raise SystemExit(f"{found} did not start: {line!r}")
        yield line[len("listening on "):]
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()


def walk_package_pages(base_url: str, limit: int, pages: int) -> int:
    """The loop a script writer writes first: every page by number, every breed's name read."""
    import catfacts
    count = 0
    with catfacts.Client(base_url) as client:
        for number in range(1, pages + 1):
            for breed in client.breeds_page(number, limit=limit).items:
                breed.breed
                count += 1
    return count


def walk_package_list(base_url: str, limit: int, pages: int) -> int:
    """Iterating the windowed list, every breed's name read."""
    import catfacts
    count = 0
    with catfacts.Client(base_url) as client, client.breeds(page_size=limit) as breeds:
        for breed in breeds:
            breed.breed
            count += 1
    return count


def walk_package_parallel(base_url: str, limit: int, pages: int) -> int:
    """``breeds_pages(parallel=4)``, every breed's name read."""
    import catfacts
    count = 0
    with catfacts.Client(base_url) as client:
        for page in client.breeds_pages(limit, parallel=4):
            for breed in page.items:
                breed.breed
                count += 1
    return count


def walk_with(get: Callable[..., "requests.Response"], base_url: str, limit: int, pages: int) -> int:
    """Every page through `get` (requests.get, or a Session's), as a script writer would,
    every breed's name read."""
    count = 0
    for number in range(1, pages + 1):
        response = get(f"{base_url}/breeds", params={"page": number, "limit": limit}, timeout=30)
        response.raise_for_status()
        for item in response.json()["data"]:
            item["breed"]
            count += 1
    return count


def walk_requests_get(base_url: str, limit: int, pages: int) -> int:
    import requests
    return walk_with(requests.get, base_url, limit, pages)


def walk_requests_session(base_url: str, limit: int, pages: int) -> int:
    import requests
    with requests.Session() as session:
        return walk_with(session.get, base_url, limit, pages)


def page_cost(base_url: str, limit: int, pages: int) -> Dict[str, Dict[str, float]]:
    """Where one page's time goes in Python, stage by stage, in ms per page (medians over
    `pages` sequential pages, so read-ahead works as in the natural loop): for each way a
    page crosses from the library to Python objects."""
    import json as json_module
    import catfacts
    from catfacts import _call, _native
    from catfacts.models import Breed, Page

    stages: Dict[str, Dict[str, List[float]]] = {}

    def note(way: str, stage: str, seconds: float) -> None:
        stages.setdefault(way, {}).setdefault(stage, []).append(seconds * 1e3)

    clock = time.perf_counter
    # A client for each way: read-ahead never fetches again a page a client was asked for.
    with catfacts.Client(base_url) as client:
        for number in range(1, pages + 1):  # the JSON way: cf_breeds_page, json.loads, Breeds
            t0 = clock()
            # Straight on this thread (blocking=False: no interruptible hand-off), as the block way below.
            text = _call.call_text(client._connection, _native.lib.cf_breeds_page, number, limit, blocking=False)
            t1 = clock()
            obj = json_module.loads(text)
            t2 = clock()
            page = Page.from_json(obj, Breed)
            t3 = clock()
            for breed in page.items:
                breed.breed
            t4 = clock()
            note("json", "foreign call (HTTP and decoding off the GIL, JSON out, copied to str)", t1 - t0)
            note("json", "json.loads", t2 - t1)
            note("json", "Breed objects", t3 - t2)
            note("json", "reading every name", t4 - t3)
    with catfacts.Client(base_url) as client:
        for number in range(1, pages + 1):  # the block way: cf_breeds_page_items, one split, Breeds
            out = ctypes.POINTER(_native.CBreedPage)()
            t0 = clock()
            with client._connection.guard as handle:
                status = _native.lib.cf_breeds_page_items(handle, number, limit, ctypes.byref(out))
            if status:
                raise SystemExit(f"cf_breeds_page_items: status {status}")
            t1 = clock()
            block = out.contents.breeds
            text = _native.breeds_text(block)
            t2 = clock()
            items = Breed._from_text(text, block.count)
            t3 = clock()
            _native.lib.cf_free(ctypes.cast(out, ctypes.c_void_p))
            for breed in items:
                breed.breed
            t4 = clock()
            note("block", "foreign call (HTTP and decoding off the GIL, the block made)", t1 - t0)
            note("block", "copying the text out (string_at)", t2 - t1)
            note("block", "Breed objects (one decode, one split, named tuples made in C)", t3 - t2)
            note("block", "reading every name", t4 - t3)
    return {way: {stage: round(statistics.median(values), 3) for stage, values in by_stage.items()}
            for way, by_stage in stages.items()}


COLD_PACKAGE = """
import json, sys, time
started = time.perf_counter()
sys.path.insert(0, {python_dir!r})
import catfacts
imported = time.perf_counter()
with catfacts.Client({base_url!r}) as client:
    items = len(client.breeds_page(1, limit={limit}).items)
done = time.perf_counter()
print(json.dumps({{"import_ms": (imported - started) * 1e3, "first_page_ms": (done - imported) * 1e3, "items": items}}))
"""

COLD_REQUESTS = """
import json, time
started = time.perf_counter()
import requests
imported = time.perf_counter()
items = len(requests.get({base_url!r} + "/breeds", params={{"page": 1, "limit": {limit}}}, timeout=30).json()["data"])
done = time.perf_counter()
print(json.dumps({{"import_ms": (imported - started) * 1e3, "first_page_ms": (done - imported) * 1e3, "items": items}}))
"""


def cold_start(template: str, base_url: str, limit: int, env: Dict[str, str]) -> Dict[str, float]:
    code = template.format(python_dir=str(PYTHON_DIR), base_url=base_url, limit=limit)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    wall_ms = (time.perf_counter() - started) * 1e3
    inside = json.loads(done.stdout.strip().splitlines()[-1])
    return {"process_ms": wall_ms, "import_ms": inside["import_ms"], "first_page_ms": inside["first_page_ms"],
            "import_and_first_page_ms": inside["import_ms"] + inside["first_page_ms"]}


def summary(values: List[float]) -> Dict[str, object]:
    return {"median": round(statistics.median(values), 4), "min": round(min(values), 4),
            "max": round(max(values), 4), "runs": [round(v, 4) for v in values]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="a catfacts-mock started with --breeds 100000 (default: start one)")
    parser.add_argument("--mock", help="the catfacts-mock to start without --base-url (default: .build/release's)")
    parser.add_argument("--breeds", type=int, default=100000, help="catalog size of a mock started here")
    parser.add_argument("--runs", type=int, default=3, help="runs of each walk (default 3)")
    parser.add_argument("--limit", type=int, default=1000, help="items per page (default 1000)")
    parser.add_argument("--library", help="libCatFacts to use (default: the release build if present)")
    parser.add_argument("--mock-pid", type=int, help="the --base-url mock's process id, to count its CPU time per loop")
    args = parser.parse_args()

    library = choose_library(args.library)
    if library:
        os.environ["CATFACTS_LIBRARY"] = library
    sys.path.insert(0, str(PYTHON_DIR))

    with mock_server(args.base_url, args.mock, args.breeds) as base_url:
        result = measure(base_url, args.runs, args.limit, args.mock_pid)
    print(json.dumps(result, indent=2))
    return 0


def process_cpu_seconds(pid: Optional[int]) -> float:
    """CPU time (user and system, every thread) of process `pid`, from /proc; 0 without one."""
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(base_url: str, runs: int, limit: int, mock_pid: Optional[int] = None) -> Dict[str, object]:
    import catfacts
    import requests

    walks: Dict[str, Callable[[str, int, int], int]] = {
        "package_pages": walk_package_pages,
        "package_list": walk_package_list,
        "package_parallel": walk_package_parallel,
        "requests_get": walk_requests_get,
        "requests_session": walk_requests_session,
    }
    with catfacts.Client(base_url) as probe:
        total = probe.breeds_page(1, limit=1).total
    pages = -(-total // limit)

    seconds: Dict[str, List[float]] = {name: [] for name in walks}
    # CPU seconds of this process (Python and the library's threads) and of the mock, per loop.
    cpu: Dict[str, Dict[str, List[float]]] = {name: {"client": [], "mock": []} for name in walks}
    for run in range(runs):  # interleaved, so that a noisy moment hits every variant
        for name, walk in walks.items():
            print(f"run {run + 1}/{runs}: {name}", file=sys.stderr)
            mock_before, client_before = process_cpu_seconds(mock_pid), time.process_time()
            started = time.perf_counter()
            count = walk(base_url, limit, pages)
            seconds[name].append(time.perf_counter() - started)
            cpu[name]["client"].append(time.process_time() - client_before)
            cpu[name]["mock"].append(process_cpu_seconds(mock_pid) - mock_before)
            if count != total:
                raise SystemExit(f"{name} walked {count} breeds, expected {total}")

    env = dict(os.environ)
    cold: Dict[str, List[Dict[str, float]]] = {"package": [], "requests": []}
    for run in range(runs):
        print(f"run {run + 1}/{runs}: cold starts", file=sys.stderr)
        cold["package"].append(cold_start(COLD_PACKAGE, base_url, limit, env))
        cold["requests"].append(cold_start(COLD_REQUESTS, base_url, limit, env))

    median = {name: statistics.median(values) for name, values in seconds.items()}
    cold_median = {side: {key: round(statistics.median(sample[key] for sample in samples), 1) for key in samples[0]}
                   for side, samples in cold.items()}
    session = median["requests_session"]
    ratios = {name: median[name] / session for name in PACKAGE_LOOPS}
    cpu_median = {name: statistics.median(sides["client"]) for name, sides in cpu.items()}
    cpu_ratios = {name: cpu_median[name] / cpu_median["requests_session"] for name in PACKAGE_LOOPS
                  if cpu_median["requests_session"] > 0}
    result = {
        "benchmark": "python_walk",
        "base_url": base_url,
        "breeds": total,
        "limit": limit,
        "pages": pages,
        "runs": runs,
        "library": catfacts.library_path,
        "python": sys.version.split()[0],
        "requests_version": requests.__version__,
        "walk_seconds": {name: summary(values) for name, values in seconds.items()},
        "cpu_seconds": {name: {side: round(statistics.median(values), 3) for side, values in sides.items()}
                        for name, sides in cpu.items()} if mock_pid else {},
        "breeds_per_second": {name: round(total / value) for name, value in median.items()},
        "cold_start_ms": cold_median,
        "ratio_vs_session": {name: round(ratio, 3) for name, ratio in ratios.items()},
        "cpu_ratio_vs_session": {name: round(ratio, 3) for name, ratio in cpu_ratios.items()},
        "ratio_vs_get": {name: round(median[name] / median["requests_get"], 3) for name in PACKAGE_LOOPS},
        "goals": GOALS,
        "meets_goal": {name: ratios[name] <= GOALS[name] and cpu_ratios.get(name, 0) <= GOALS[name] for name in GOALS},
        "ratio_cold_start": round(cold_median["package"]["process_ms"] / cold_median["requests"]["process_ms"], 3),
        "page_cost_ms": page_cost(base_url, limit, pages),
    }
    return result


if __name__ == "__main__":
    sys.exit(main())
