#!/usr/bin/env python3
"""`make docs-test`: runs every example of the documentation against the real build and a mock.

    Tests/docs/run.py [--build-dir DIR] [FILE ...]

FILEs default to README.md, bindings/c/README.md, bindings/python/README.md, docs/*.md, the
header's comments (include/catfacts.h) and the Python package's docstrings
(bindings/python/catfacts/*.py). The Markdown is checked first (blocks.py says what fails and
how blocks are marked; options_table.py, that README's table has every client option), then
each example runs (runners.py says how). It prints the examples skipped with their reasons,
every failure with its example's place, and per file the examples run and skipped; exit status
1 when an example failed or the Markdown has a problem, 2 when the build is missing.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Dict, List, Tuple

from blocks import Block, Found, docstring_blocks, header_blocks, markdown_blocks
import options_table
from runners import Context, run

ROOT = Path(__file__).resolve().parents[2]


def default_files(root: Path) -> List[Path]:
    return ([root / "README.md", root / "bindings/c/README.md", root / "bindings/python/README.md"]
            + sorted((root / "docs").glob("*.md")) + [root / "include/catfacts.h"]
            + sorted((root / "bindings/python/catfacts").glob("*.py")))


def find(path: Path) -> Found:
    if path.suffix == ".h":
        return header_blocks(path)
    if path.suffix == ".py":
        return docstring_blocks(path)
    text = path.read_text()
    found = markdown_blocks(path, text)
    found.problems += options_table.check(path, text, ROOT)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description="Run every example of the documentation.")
    parser.add_argument("--build-dir", default=os.environ.get("BUILD_DIR", ".build/debug"),
                        help="the build whose library and programs the examples use (default .build/debug)")
    parser.add_argument("--list", action="store_true", help="list the examples and their markers; run nothing")
    parser.add_argument("files", nargs="*", type=Path, help="documents to check (default: all of them)")
    arguments = parser.parse_args()
    build_dir = Path(arguments.build_dir)
    # Absolute but not resolved: .build/debug is a link into .build/<triple>, and .build is where
    # the examples find pkgconfig/ beside it.
    build_dir = build_dir if build_dir.is_absolute() else Path.cwd() / build_dir
    for program in ("libCatFacts.so", "catfacts", "catfacts-mock"):
        if not (build_dir / program).exists():
            print(f"docs-test: {build_dir / program} is missing: build first (make test-build), "
                  "or give --build-dir", file=sys.stderr)
            return 2
    files = [path.resolve() for path in arguments.files] or default_files(ROOT)

    found: Dict[Path, Found] = {path: find(path) for path in files}
    problems = [problem for result in found.values() for problem in result.problems]
    for problem in problems:
        print(f"BROKEN {_short(problem.where)}: {problem.what}")

    if arguments.list:
        for result in found.values():
            for block in result.blocks:
                print(f"{_short(block.where)} {block.language}: "
                      f"{'skip: ' + block.skip if block.skip else 'given client' if block.given_client else 'run'}"
                      f"{' (doctest)' if block.doctest else ''}{' (output shown)' if block.output else ''}")
        return 1 if problems else 0

    mock_module = _mock_module(build_dir)
    shared = mock_module.Mock()
    failures: List[Tuple[Block, str]] = []
    counts: Dict[Path, Tuple[int, int]] = {}
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="docs-test.") as sandbox:
            context = Context(ROOT, build_dir, Path(sandbox), shared.url, mock_module.Mock)
            for path, result in found.items():
                ran = skipped = 0
                for block in result.blocks:
                    if block.skip:
                        skipped += 1
                        print(f"  skipped {_short(block.where)} ({block.language}): {block.skip}")
                        continue
                    ran += 1
                    outcome = run(block, context)
                    if not outcome.ok:
                        failures.append((block, outcome.message))
                counts[path] = (ran, skipped)
    finally:
        shared.stop()

    for block, message in failures:
        print(f"FAIL {_short(block.where)} ({block.language}):\n{_indent(block.code)}\n{_indent(message)}")
    for path, (ran, skipped) in counts.items():
        if ran or skipped:
            print(f"docs-test: {_short(str(path))}: {ran} run, {skipped} skipped")
    empty = [_short(str(path)) for path, (ran, skipped) in counts.items() if not ran and not skipped]
    if empty:
        print(f"docs-test: no examples in {', '.join(empty)}")
    total_run = sum(ran for ran, _ in counts.values())
    total_skipped = sum(skipped for _, skipped in counts.values())
    print(f"docs-test: {total_run} examples run, {total_skipped} skipped, {len(failures)} failed, "
          f"{len(problems)} problems in the Markdown ({time.monotonic() - started:.1f} s)")
    return 1 if failures or problems else 0


def _mock_module(build_dir: Path) -> ModuleType:
    """The Python suite's fixtures module (bindings/python/tests/conftest.py), whose `Mock`
    starts this build's mock: imported here, once the environment names the build."""
    os.environ["CATFACTS_MOCK"] = str(build_dir / "catfacts-mock")
    os.environ["CATFACTS_LIBRARY"] = str(build_dir / "libCatFacts.so")
    sys.path.insert(0, str(ROOT / "bindings/python/tests"))
    import conftest
    return conftest


def _short(where: str) -> str:
    return where[len(str(ROOT)) + 1:] if where.startswith(str(ROOT) + "/") else where


def _indent(text: str) -> str:
    return "\n".join("    | " + line for line in text.rstrip("\n").split("\n"))


if __name__ == "__main__":
    sys.exit(main())
