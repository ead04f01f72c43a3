#!/usr/bin/env python3
"""What max_connections does for many calls at once: 40 `AsyncClient.breeds_page` calls
gathered together against a mock that answers after a fixed latency, with the default (8
connections to a host) and with 64. Prints one JSON object: the wall seconds of each gather, per
configuration and round, and the latency, so the caller can state them in latencies.

    python3 bench/python_connections.py --base-url URL --latency-ms 300 [--calls 40] [--rounds 5]

The library is $CATFACTS_LIBRARY (bench/run sets it to the release build's).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bindings" / "python"))
import catfacts  # noqa: E402


async def gather_once(base_url: str, calls: int, max_connections: Optional[int]) -> float:
    """Seconds for `calls` page calls gathered at once, on a fresh client (no connection open
    before, no cache: every call is a request)."""
    async with catfacts.AsyncClient(base_url, timeout=60, cache_max_bytes=0, read_ahead=0,
                                    max_connections=max_connections) as client:
        started = time.perf_counter()
        pages = await asyncio.gather(*(client.breeds_page(n % 9 + 1, limit=10) for n in range(calls)))
        seconds = time.perf_counter() - started
    assert len(pages) == calls and all(page.items for page in pages)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--latency-ms", type=int, required=True, help="the mock's latency, to state results in it")
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results: Dict[str, List[float]] = {"default": [], "64": []}
    for _ in range(args.rounds):  # interleaved, so load changes touch both alike
        results["default"].append(asyncio.run(gather_once(args.base_url, args.calls, None)))
        results["64"].append(asyncio.run(gather_once(args.base_url, args.calls, 64)))
    print(json.dumps({"calls": args.calls, "latency_ms": args.latency_ms, "rounds": args.rounds, "seconds": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
