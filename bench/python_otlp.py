#!/usr/bin/env python3
"""What OpenTelemetry export does to a call's latency: `client.fact()` timed call by call
through the Python package with export off, to a collector that takes everything, to a closed
port (the collector down), to one that answers 500 and to one that never answers (hanging),
interleaved round by round in one run. Each round opens a client per case (so only that
client's exporter runs while it is timed), warms it up, times the calls, reads its export
figures and times its close. Prints one JSON object.

    python3 bench/python_otlp.py --base-url URL [--calls 2000] [--rounds 5]

The exporter is kept busy while the calls are timed: spans go out every 20 ms
(OTEL_BSP_SCHEDULE_DELAY) and metrics every 200 ms (OTEL_METRIC_EXPORT_INTERVAL); the queue
keeps its default bound (2048 spans), so the down and hanging cases drop spans as they go.
The collectors are Tests/otlp/collector.py in processes of their own. The library is
$CATFACTS_LIBRARY (bench/run sets it to the release build's).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bindings" / "python"))
import catfacts  # noqa: E402

COLLECTOR = ROOT / "Tests" / "otlp" / "collector.py"
WARM_UP_CALLS = 50


def collector(mode: str, stack: ExitStack) -> str:
    """A test collector in ``mode`` in a process of its own, stopped with ``stack``; its URL."""
    process = subprocess.Popen([sys.executable, str(COLLECTOR), "--port", "0", "--mode", mode],
                               stdout=subprocess.PIPE, text=True)
    stack.callback(process.wait, 10)
    stack.callback(process.terminate)
    line = process.stdout.readline().strip() if process.stdout else ""
    if not line.startswith("listening on "):
        raise SystemExit(f"the {mode} collector did not start: {line!r}")
    return line[len("listening on "):]


def closed_port() -> str:
    """A loopback URL nothing listens on: every export is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def percentile(sorted_values: List[float], share: float) -> float:
    """The nearest-rank percentile of values sorted ascending."""
    return sorted_values[min(len(sorted_values) - 1, max(0, round(share * len(sorted_values)) - 1))]


def one_round(base_url: str, endpoint: str, calls: int) -> Dict[str, float]:
    """A client exporting to ``endpoint`` ("" for off): ``calls`` calls timed, then its figures."""
    client = catfacts.Client(base_url, retries=0, cache_max_bytes=0, read_ahead=0, otlp_endpoint=endpoint)
    for _ in range(WARM_UP_CALLS):
        client.fact()
    times: List[float] = []
    clock = time.perf_counter_ns
    for _ in range(calls):
        started = clock()
        client.fact()
        times.append((clock() - started) / 1000)
    export = client.metrics().export
    started = clock()
    client.close()
    close_ms = (clock() - started) / 1e6
    times.sort()
    return {"p50_us": percentile(times, 0.50), "p90_us": percentile(times, 0.90), "p99_us": percentile(times, 0.99),
            "max_us": times[-1], "close_ms": close_ms,
            "sent": export.sent if export else 0, "dropped": export.dropped if export else 0,
            "failures": export.failures if export else 0}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    os.environ.update(OTEL_BSP_SCHEDULE_DELAY="20", OTEL_METRIC_EXPORT_INTERVAL="200")
    with ExitStack() as stack:
        endpoints = {"off": "", "ok": collector("ok", stack), "down": closed_port(),
                     "500": collector("500", stack), "hanging": collector("hang", stack)}
        results: Dict[str, Dict[str, List[float]]] = {case: {} for case in endpoints}
        for _ in range(args.rounds):  # interleaved, so that a noisy moment hits every case
            for case, endpoint in endpoints.items():
                for key, value in one_round(args.base_url, endpoint, args.calls).items():
                    results[case].setdefault(key, []).append(value)
    print(json.dumps({"calls": args.calls, "rounds": args.rounds, "cases": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
