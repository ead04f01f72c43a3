#!/usr/bin/env python3
"""The docs test's own test: it plants breakage in copies of a document (bindings/c/README.md,
whose examples run in a second) and in small documents of its own, and checks that the runner
fails on each, saying what is wrong; and that a document whose examples are right passes.

    Tests/docs/self_test.py [--build-dir DIR]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
C_README = ROOT / "bindings/c/README.md"
FENCE = "```"

GOOD = f"""# Right examples of every kind
<!-- docs-test: skip (a planted skip) -->
{FENCE}sh
make install PREFIX=/usr/local
{FENCE}
{FENCE}python
>>> import catfacts
>>> catfacts.Client("http://127.0.0.1:8106").breed("abyssinian").country
'Ethiopia'
{FENCE}
<!-- docs-test: given client -->
{FENCE}c
char *json;
if (cf_breed_find(client, "abyssinian", &json) != CF_OK) return 1;
puts(json);
cf_free(json);
{FENCE}
<!-- docs-test: output -->
{FENCE}text
{{..."country":"Ethiopia"...}}
{FENCE}
{FENCE}console
$ catfacts --base-url http://127.0.0.1:8106 --csv -c "show abyssinian"
...Abyssinian,Ethiopia...
{FENCE}
"""


def planted(text: str, old: str, new: str) -> str:
    """`text` with its one `old` replaced by `new`: a plant that finds nothing is a broken test."""
    if text.count(old) != 1:
        raise SystemExit(f"self-test: {old!r} is not in the document once; update the plant")
    return text.replace(old, new)


def options_section() -> str:
    """README.md's table of client options, alone."""
    text = (ROOT / "README.md").read_text()
    start = text.index("## Client options, front by front")
    return text[start:text.index("\n## ", start + 1)] + "\n"


def cases() -> List[Tuple[str, str, str, Optional[str]]]:
    """(what is planted, the document, what the runner must say, the one flag) for each case."""
    readme = C_README.read_text()
    listing = "--list"  # Markdown faults are found without running anything
    return [
        ("a closing fence with text after it",
         planted(readme, "./prog                     # the library's version\n```\n",
                 "./prog                     # the library's version\n``` Build against it with\n"),
         "a closing fence with text after it", listing),
        ("a fence never closed", readme.rstrip("\n").rsplit(FENCE, 1)[0], "never closed", listing),
        ("an unknown info string", planted(readme, f"{FENCE}console\n", f"{FENCE}shell-session\n"),
         "unknown info string 'shell-session'", listing),
        ("a fence without an info string", f"{FENCE}\nls\n{FENCE}\n", "without an info string", listing),
        ("a block the runner cannot run, unmarked", f"{FENCE}swift\nlet x = 1\n{FENCE}\n", "with no marker", listing),
        ("an options table without a row for an option",
         "\n".join(line for line in options_section().split("\n") if not line.startswith("| retries of")),
         "no row for the C option `retries`", listing),
        ("an unknown marker", f"<!-- docs-test: skipp (typo) -->\n{FENCE}sh\ntrue\n{FENCE}\n",
         "unknown docs-test marker", listing),
        ("a failing example (the samples' breed_detail on no such breed)",
         planted(readme, "--base-url http://127.0.0.1:8106 abyssinian", "--base-url http://127.0.0.1:8106 'no such breed'"),
         "failed (exit status 1)", None),
        ("a wrong shown output (a console transcript)", planted(readme, "Country: Ethiopia", "Country: Egypt"),
         "--- shown", None),
        ("a wrong shown output (a doctest)", planted(GOOD, "'Ethiopia'\n", "'Egypt'\n"), "Expected:", None),
        ("a wrong shown output (an output block)", planted(GOOD, '"Ethiopia"...', '"Egypt"...'),
         "its output is not what", None),
        ("a C example that does not compile", planted(GOOD, "cf_free(json)", "cf_frees(json)"), "compiling", None),
        ("an example that would build", f"{FENCE}sh\nmake test\n{FENCE}\n", "which builds or runs the suites", None),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description="Prove that the docs test catches what it exists for.")
    parser.add_argument("--build-dir", default=os.environ.get("BUILD_DIR", ".build/debug"))
    build_dir = parser.parse_args().build_dir
    failed = 0
    with tempfile.TemporaryDirectory(prefix="docs-self-test.") as folder:
        def run(name: str, text: str, flag: Optional[str]) -> subprocess.CompletedProcess:
            document = Path(folder) / name
            document.write_text(text)
            return subprocess.run([sys.executable, str(HERE / "run.py"), "--build-dir", build_dir,
                                   *([flag] if flag else []), str(document)],
                                  text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)

        good = run("good.md", GOOD, None)
        if good.returncode != 0 or "3 run, 1 skipped" not in good.stdout:
            failed += 1
            print(f"self-test: right examples did not pass as 3 run, 1 skipped:\n{good.stdout}")
        for number, (what, text, said, flag) in enumerate(cases()):
            done = run(f"case{number}.md", text, flag)
            if done.returncode != 1 or said not in done.stdout:
                failed += 1
                print(f"self-test: {what}: expected exit status 1 and {said!r}; got {done.returncode}:\n{done.stdout}")
    print(f"docs-test self-test: {len(cases()) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
