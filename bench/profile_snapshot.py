#!/usr/bin/env python3
"""Writes the instructions section's "before" profile: callgrind of the C sweep (cache off and
on) and of curl for the same pages, at the build in BENCH_BIN (default .build/release), into
OUT (a JSON file in the shape of bench/profile_before.json).

    bench/profile_snapshot.py OUT COMMIT

Run it at the commit before a change of the hot path; `bench/run` reads the file it names
in PROFILE_BEFORE for the "before" columns.
"""
from __future__ import annotations

import json
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import importlib.machinery  # noqa: E402
import importlib.util  # noqa: E402

import callgrind_profile  # noqa: E402

# bench/run has no .py suffix: loaded by path, for its mock() and c_program().
_loader = importlib.machinery.SourceFileLoader("bench_run", str(Path(__file__).resolve().parent / "run"))
_spec = importlib.util.spec_from_loader("bench_run", _loader)
assert _spec is not None
bench_run = importlib.util.module_from_spec(_spec)
_loader.exec_module(bench_run)


def as_json(profile: callgrind_profile.Profile) -> dict:
    return {"instructions": profile.total, "stages": dict(profile.stages), "categories": dict(profile.categories),
            "top": [list(entry) for entry in profile.top]}


def main() -> int:
    out, commit = Path(sys.argv[1]), sys.argv[2]
    sweep = bench_run.c_program("sweep", "-lpthread")
    configurations = {}
    with bench_run.mock("--breeds", "100000") as url, tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "curl.conf"
        config.write_text("".join(f'url = "{url}/breeds?page={n}&limit=1000"\noutput = "/dev/null"\n'
                                  for n in range(1, 101)))
        for name, options in {"cache off": [bench_run.NO_CACHE], "cache on": []}.items():
            print(f"callgrind: sweep, {name}", file=sys.stderr)
            configurations[name] = as_json(callgrind_profile.run([str(sweep), url, "1000", "4", "shared", "items",
                                                                  *options]))
        print("callgrind: curl", file=sys.stderr)
        curl = callgrind_profile.run(["curl", "-sf", "--parallel", "--parallel-max", "8", "-K", str(config)])
    out.write_text(json.dumps({
        "commit": commit,
        "measured": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "valgrind --tool=callgrind bench/c/sweep URL 1000 4 shared items [OPTIONS]",
        "configurations": configurations,
        "curl_instructions": curl.total,
    }, indent=1) + "\n")
    print(f"{out}: cache off {configurations['cache off']['instructions'] / 1e6:.0f} M, "
          f"cache on {configurations['cache on']['instructions'] / 1e6:.0f} M, curl {curl.total / 1e6:.0f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
