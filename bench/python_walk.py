#!/usr/bin/env python3
"""Walks every breed page through the catfacts package and through `requests`, and compares.

Start a mock with a large catalog first, then point this at it:

    .build/release/catfacts-mock --port 0 --breeds 100000 &
    python3 bench/python_walk.py --base-url http://127.0.0.1:PORT --runs 3

Without --base-url it starts one itself (--mock, default the release build's, else the
debug build's catfacts-mock, with --breeds 100000) and stops it at the end.

Measured, RUNS times each (medians reported, every run listed):
- package_pages:    catfacts.Client + breeds_page(n, limit) until the last page (typed Breeds)
- package_list:     iterating catfacts.Client.breeds(page_size=limit) (the prefetching pager)
- package_parallel: catfacts.Client.breeds_pages(limit, parallel=4) (pages loading 4 at a time)
- requests_get:     requests.get(...).json() in a loop, as a script writer would
- requests_session: the same through one requests.Session
- cold start:       a fresh interpreter importing the package (or requests) and fetching the
                    first page, timed from outside (whole process) and inside (import + page)

Prints one JSON object. ratio = the package's fastest way / requests_get (the goal is <= 0.5);
`fastest` names it.
The library is $CATFACTS_LIBRARY, else --library, else the release build if there is one.
"""
from __future__ import annotations

import argparse
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
GOAL = 0.5


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


def walk_package_pages(base_url: str, limit: int) -> int:
    import catfacts
    count = 0
    with catfacts.Client(base_url) as client:
        number = 1
        while True:
            page = client.breeds_page(number, limit=limit)
            count += len(page.items)
            if number >= page.last_page:
                return count
            number += 1


def walk_package_list(base_url: str, limit: int) -> int:
    import catfacts
    with catfacts.Client(base_url) as client, client.breeds(page_size=limit) as breeds:
        return sum(1 for _ in breeds)


def walk_package_parallel(base_url: str, limit: int) -> int:
    import catfacts
    with catfacts.Client(base_url) as client:
        return sum(len(page.items) for page in client.breeds_pages(limit, parallel=4))


def walk_with(get: Callable[..., "requests.Response"], base_url: str, limit: int) -> int:
    """Every page through `get` (requests.get, or a Session's), as a script writer would."""
    count, number = 0, 1
    while True:
        response = get(f"{base_url}/breeds", params={"page": number, "limit": limit}, timeout=30)
        response.raise_for_status()
        body = response.json()
        count += len(body["data"])
        if number >= body["last_page"]:
            return count
        number += 1


def walk_requests_get(base_url: str, limit: int) -> int:
    import requests
    return walk_with(requests.get, base_url, limit)


def walk_requests_session(base_url: str, limit: int) -> int:
    import requests
    with requests.Session() as session:
        return walk_with(session.get, base_url, limit)


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
    args = parser.parse_args()

    library = choose_library(args.library)
    if library:
        os.environ["CATFACTS_LIBRARY"] = library
    sys.path.insert(0, str(PYTHON_DIR))

    with mock_server(args.base_url, args.mock, args.breeds) as base_url:
        result = measure(base_url, args.runs, args.limit)
    print(json.dumps(result, indent=2))
    return 0


def measure(base_url: str, runs: int, limit: int) -> Dict[str, object]:
    import catfacts
    import requests

    walks: Dict[str, Callable[[str, int], int]] = {
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
    for run in range(runs):  # interleaved, so that a noisy moment hits every variant
        for name, walk in walks.items():
            print(f"run {run + 1}/{runs}: {name}", file=sys.stderr)
            started = time.perf_counter()
            count = walk(base_url, limit)
            seconds[name].append(time.perf_counter() - started)
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
    fastest = min(("package_pages", "package_list", "package_parallel"), key=lambda name: median[name])
    ratio = median[fastest] / median["requests_get"]
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
        "breeds_per_second": {name: round(total / value) for name, value in median.items()},
        "cold_start_ms": cold_median,
        "fastest": fastest,
        "ratio": round(ratio, 3),
        "ratio_vs_session": round(median[fastest] / median["requests_session"], 3),
        "ratio_pages": round(median["package_pages"] / median["requests_get"], 3),
        "ratio_list": round(median["package_list"] / median["requests_get"], 3),
        "ratio_cold_start": round(cold_median["package"]["process_ms"] / cold_median["requests"]["process_ms"], 3),
        "goal": GOAL,
        "meets_goal": ratio <= GOAL,
    }
    return result


if __name__ == "__main__":
    sys.exit(main())
