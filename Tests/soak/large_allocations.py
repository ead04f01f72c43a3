"""What Tests/soak/large_allocations.c logged for one process: its large blocks by size, and
the calls that asked for the ones of 64 kB or more, each named by the library's first frames.

    python3 Tests/soak/large_allocations.py LOG LIBRARY [--frames N] [--top N]

LIBRARY is the libCatFacts.so the process ran (its frames are named with addr2line and
`swift demangle`); a call is keyed by the library that asked malloc (the first frame's) and
the first N (3) frames in LIBRARY.
"""
from __future__ import annotations

import argparse
import collections
import re
import subprocess

BANDS = ((32 << 10, "16-32 kB"), (64 << 10, "32-64 kB"), (128 << 10, "64-128 kB"), (256 << 10, "128-256 kB"))
LIBRARY_FRAME = re.compile(r"libCatFacts\.so(?:\.0)?\(\+(0x[0-9a-f]+)\)")


def band(size: int) -> str:
    return next((name for limit, name in BANDS if size < limit), "256 kB or more")


class Names:
    """The library's functions by offset, named once each."""

    def __init__(self, library: str) -> None:
        self.library = library
        self.known: dict[str, str] = {}

    def __call__(self, offset: str) -> str:
        if offset not in self.known:
            raw = subprocess.run(["addr2line", "-f", "-e", self.library, offset],
                                 capture_output=True, text=True).stdout.split("\n")[0]
            demangled = subprocess.run(["swift", "demangle", "--simplified"], input=raw,
                                       capture_output=True, text=True).stdout.strip()
            self.known[offset] = (demangled or raw)[:100]
        return self.known[offset]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log")
    parser.add_argument("library")
    parser.add_argument("--frames", type=int, default=3)
    parser.add_argument("--top", type=int, default=15)
    arguments = parser.parse_args()
    names = Names(arguments.library)
    by_band: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[tuple[str, str, str]] = collections.Counter()
    with open(arguments.log, errors="replace") as log:
        for line in log:
            head, *frames = line.rstrip("\n").split(" | ")
            size = int(head.split()[1])
            by_band[band(size)] += 1
            if size < 64 << 10:
                continue
            asker = frames[0].split("(")[0].rsplit("/", 1)[-1] if frames else "?"
            ours = [names(match.group(1)) for frame in frames if (match := LIBRARY_FRAME.search(frame))]
            calls[(band(size), asker, " < ".join(ours[:arguments.frames]))] += 1
    print("blocks by size:", ", ".join(f"{name} {by_band[name]}" for _, name in BANDS + ((0, "256 kB or more"),)))
    print("blocks of 64 kB or more by call (size, the library malloc was called from, the library's frames):")
    for (size_band, asker, where), count in calls.most_common(arguments.top):
        print(f"{count:7d}  {size_band:14s} {asker:24s} {where}")


if __name__ == "__main__":
    main()
