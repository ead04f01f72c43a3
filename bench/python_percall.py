#!/usr/bin/env python3
"""Per-call cost of a loaded list item through the Python package: `lst.get(i)` on a page
already loaded (page_size 50, prefetch 0), many iterations; and per item of iterating a
loaded list (`for b in lst`, a page per foreign call). Prints one JSON object.

    python3 bench/python_percall.py --base-url URL [--calls 200000]

The library is $CATFACTS_LIBRARY (bench/run sets it to the release build's).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bindings" / "python"))
import catfacts  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--calls", type=int, default=200000)
    args = parser.parse_args()
    with catfacts.Client(args.base_url) as client, \
            client.breeds(page_size=50, prefetch_distance=0, max_cached_items=50) as breeds:
        if breeds.get(0, wait=10.0) is None:
            raise SystemExit("first page did not load")
        get = breeds.get
        started = time.perf_counter()
        for i in range(args.calls):
            get(i % 50)
        get_ns = (time.perf_counter() - started) / args.calls * 1e9
        started = time.perf_counter()
        for i in range(args.calls):
            breeds[i % 50]
        index_ns = (time.perf_counter() - started) / args.calls * 1e9
        started = time.perf_counter()
        for i in range(args.calls):
            pass
        loop_ns = (time.perf_counter() - started) / args.calls * 1e9
        check = get(49)
    # The whole bundled catalog (98 breeds, two pages of 50), both held once read: iteration alone.
    with catfacts.Client(args.base_url) as client, \
            client.breeds(page_size=50, prefetch_distance=50, max_cached_items=150) as breeds:
        walks = max(1, args.calls // len(breeds))
        for _ in breeds:
            pass
        started = time.perf_counter()
        for _ in range(walks):
            for breed in breeds:
                breed.breed
        iterate_ns = (time.perf_counter() - started) / (walks * len(breeds)) * 1e9
    print(json.dumps({"calls": args.calls, "ns_per_get": round(get_ns, 1), "ns_per_index": round(index_ns, 1),
                      "ns_per_iterated_item": round(iterate_ns, 1), "ns_empty_loop": round(loop_ns, 1),
                      "last_name": check.breed if check else None}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
