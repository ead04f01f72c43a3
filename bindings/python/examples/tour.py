#!/usr/bin/env python3
"""A tour of catfacts: pages of breeds, one breed in full, a fact, then the metrics.

    python3 bindings/python/examples/tour.py --base-url http://127.0.0.1:8106
    (start a local server with: .build/debug/catfacts-mock --port 8106)

Runs from a checkout as it is, or with the package installed (pip install ./bindings/python).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

try:
    import catfacts
except ImportError:  # not installed: use the checkout's package, next to this folder
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import catfacts

# A time, or "—" when nothing was measured (None: no response yet), never a 0.0 ms.
format_ms = catfacts.metrics.format_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="the server (default: https://catfact.ninja)")
    parser.add_argument("--pages", type=int, default=2, help="pages of breeds to show (default 2)")
    parser.add_argument("--limit", type=int, default=5, help="breeds per page (default 5)")
    args = parser.parse_args()

    try:
        with catfacts.Client(args.base_url, timeout=10) as client:
            first = None
            for number in range(1, args.pages + 1):
                page = client.breeds_page(number, limit=args.limit)
                print(f"breeds, page {page.page} of {page.last_page} ({page.total} in all, from {page.source}):")
                for offset, breed in enumerate(page.items, start=(page.page - 1) * page.per_page + 1):
                    print(f"  {offset:3}. {breed.breed}")
                first = first or (page.items[0] if page.items else None)
                if not page.has_next:
                    break

            if first is not None:
                breed = client.breed(first.breed)
                print(f"\n{breed.breed}:")
                for field in ("country", "origin", "coat", "pattern"):
                    print(f"  {field:8} {getattr(breed, field) or '-'}")

            print(f"\na fact: {client.fact(max_length=120)}")

            print("\nmetrics:")
            for endpoint in client.metrics().endpoints:
                print(f"  {endpoint.endpoint:8} {endpoint.requests:3} requests, "
                      f"avg {format_ms(endpoint.avg_ms)}, p95 {format_ms(endpoint.p95_ms)}, {endpoint.bytes} bytes")
    except catfacts.CatFactsError as error:
        print(f"tour: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
