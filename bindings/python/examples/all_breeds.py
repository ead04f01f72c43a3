#!/usr/bin/env python3
"""Every breed, page by page, with a progress bar; then the client's metrics.

    python3 bindings/python/examples/all_breeds.py --base-url http://127.0.0.1:8106
    (start a local server with: .build/debug/catfacts-mock --port 8106)

The breeds go to stdout, one a line. The progress bar goes to stderr, only when stderr is a
terminal (so a pipe or a log file never gets one). Ctrl-C stops at once: what was read and
the metrics are still printed, and the exit status is 130. When the server cannot be reached
it says so and exits 1; with --offline-fallback the bundled catalog answers instead.

Runs from a checkout as it is, or with the package installed (pip install ./bindings/python).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional, TextIO

try:
    import catfacts
except ImportError:  # not installed: use the checkout's package, next to this folder
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import catfacts

# A time, or "—" when nothing was measured (None: no response yet), never a 0.0 ms.
format_ms = catfacts.metrics.format_ms


class ProgressBar:
    """``[#####.....]  40/98 breeds`` redrawn in place on a terminal; nothing elsewhere."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self._stream = stream
        self._width = width
        self._shown = stream.isatty()

    def update(self, done: int, total: int) -> None:
        if not self._shown or total <= 0:
            return
        filled = self._width * done // total
        self._stream.write(f"\r[{'#' * filled}{'.' * (self._width - filled)}] {done:>{len(str(total))}}/{total} breeds")
        self._stream.flush()

    def clear(self) -> None:
        """Erases the bar, so that what follows starts on a clean line."""
        if self._shown:
            self._stream.write("\r\033[K")
            self._stream.flush()


def print_metrics(metrics: catfacts.Metrics, out: TextIO) -> None:
    print("\nmetrics:", file=out)
    for endpoint in metrics.endpoints:
        print(f"  {endpoint.endpoint:8} {endpoint.requests:4} requests, {endpoint.errors} errors, "
              f"{endpoint.cache_hits} from cache, avg {format_ms(endpoint.avg_ms)}, p95 {format_ms(endpoint.p95_ms)}, "
              f"{endpoint.bytes} bytes", file=out)
    print(f"  memory   {metrics.memory.resident_bytes // 1024} kB resident, "
          f"{'online' if metrics.online else 'offline'}", file=out)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="the server (default: https://catfact.ninja)")
    parser.add_argument("--page-size", type=int, default=25, help="breeds per request (default 25)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds for each page, retries included")
    parser.add_argument("--offline-fallback", action="store_true",
                        help="answer from the bundled catalog when the server cannot be reached")
    args = parser.parse_args(argv)

    bar = ProgressBar(sys.stderr)
    read = 0
    total = 0
    with catfacts.Client(args.base_url, timeout=args.timeout, offline_fallback=args.offline_fallback) as client:
        try:
            for page in client.breeds_pages(args.page_size):
                total = page.total
                if page.source == "offline-catalog" and page.page == 1:
                    bar.clear()
                    print("the server cannot be reached: these are the bundled catalog's breeds", file=sys.stderr)
                for breed in page:
                    read += 1
                    print(f"{read:4}. {breed.breed}" + (f" ({breed.country})" if breed.country else ""))
                bar.update(read, total)
            bar.clear()
            status = 0
        except KeyboardInterrupt:
            bar.clear()
            print(f"interrupted after {read} of {total or '?'} breeds", file=sys.stderr)
            status = 130
        except catfacts.OfflineError as error:
            bar.clear()
            print(f"offline, and nothing cached answers: {error}\n"
                  "try again later, or use --offline-fallback for the bundled catalog", file=sys.stderr)
            status = 1
        except ConnectionError as error:  # catfacts.NetworkError is one
            bar.clear()
            print(f"cannot reach the server: {error}", file=sys.stderr)
            status = 1
        except catfacts.CatFactsError as error:
            bar.clear()
            print(f"failed: {error}", file=sys.stderr)
            status = 1
        print_metrics(client.metrics(), sys.stdout)
    return status


if __name__ == "__main__":
    sys.exit(main())
