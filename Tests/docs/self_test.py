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
from typing import List, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
C_README = ROOT / "bindings/c/README.md"
FENCE = "```"
#: The hang limit of the planted hang's run: it runs nothing but `sleep`, so no machine is too
#: slow for it; every other run keeps the runner's own limit.
PLANTED_HANG_S = "2"

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


#: How a case is run: LIST only reads the Markdown (run.py --list: nothing runs), RUN runs its
#: examples, HANG runs them with the planted hang's limit.
LIST, RUN, HANG = "list", "run", "hang"


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


def cases() -> List[Tuple[str, str, str, str]]:
    """(what is planted, the document, what the runner must say, how it is run) for each case."""
    readme = C_README.read_text()
    return [
        ("a closing fence with text after it",
         planted(readme, "./prog                     # the library's version\n```\n",
                 "./prog                     # the library's version\n``` Build against it with\n"),
         "a closing fence with text after it", LIST),
        ("a fence never closed", readme.rstrip("\n").rsplit(FENCE, 1)[0], "never closed", LIST),
        ("an unknown info string", planted(readme, f"{FENCE}console\n", f"{FENCE}shell-session\n"),
         "unknown info string 'shell-session'", LIST),
        ("a fence without an info string", f"{FENCE}\nls\n{FENCE}\n", "without an info string", LIST),
        ("a block the runner cannot run, unmarked", f"{FENCE}swift\nlet x = 1\n{FENCE}\n", "with no marker", LIST),
        ("an options table without a row for an option",
         "\n".join(line for line in options_section().split("\n") if not line.startswith("| retries of")),
         "no row for the C option `retries`", LIST),
        ("an unknown marker", f"<!-- docs-test: skipp (typo) -->\n{FENCE}sh\ntrue\n{FENCE}\n",
         "unknown docs-test marker", LIST),
        ("a failing example (the samples' breed_detail on no such breed)",
         planted(readme, "--base-url http://127.0.0.1:8106 abyssinian", "--base-url http://127.0.0.1:8106 'no such breed'"),
         "failed (exit status 1)", RUN),
        ("a wrong shown output (a console transcript)", planted(readme, "Country: Ethiopia", "Country: Egypt"),
         "--- shown", RUN),
        ("a wrong shown output (a doctest)", planted(GOOD, "'Ethiopia'\n", "'Egypt'\n"), "Expected:", RUN),
        ("a wrong shown output (an output block)", planted(GOOD, '"Ethiopia"...', '"Egypt"...'),
         "its output is not what", RUN),
        ("a C example that does not compile", planted(GOOD, "cf_free(json)", "cf_frees(json)"), "compiling", RUN),
        ("an example that hangs, with a child holding its output",
         f"{FENCE}sh\nsleep 600 &\nsleep 600\n{FENCE}\n", "(a hang)", HANG),
        ("a fragment using a client it does not open, unmarked",
         f"{FENCE}c\ncf_client_interrupt(client);\n{FENCE}\n", "put <!-- docs-test: given client -->", RUN),
        ("an example that would build", f"{FENCE}sh\nmake test\n{FENCE}\n", "which builds or runs the suites", RUN),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description="Prove that the docs test catches what it exists for.")
    parser.add_argument("--build-dir", default=os.environ.get("BUILD_DIR", ".build/debug"))
    build_dir = parser.parse_args().build_dir
    failed = 0
    with tempfile.TemporaryDirectory(prefix="docs-self-test.") as folder:
        def run(name: str, text: str, mode: str) -> subprocess.CompletedProcess:
            document = Path(folder) / name
            document.write_text(text)
            return subprocess.run([sys.executable, str(HERE / "run.py"), "--build-dir", build_dir,
                                   *(["--list"] if mode == LIST else []), str(document)],
                                  text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300,
                                  env=dict(os.environ, DOCS_TEST_HANG_S=PLANTED_HANG_S) if mode == HANG else None)

        good = run("good.md", GOOD, RUN)
        if good.returncode != 0 or "3 run, 1 skipped" not in good.stdout:
            failed += 1
            print(f"self-test: right examples did not pass as 3 run, 1 skipped:\n{good.stdout}")
        for number, (what, text, said, mode) in enumerate(cases()):
            done = run(f"case{number}.md", text, mode)
            if done.returncode != 1 or said not in done.stdout:
                failed += 1
                print(f"self-test: {what}: expected exit status 1 and {said!r}; got {done.returncode}:\n{done.stdout}")
    print(f"docs-test self-test: {len(cases()) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
