"""Script mode against the mock's deterministic catalog: every command, in every
output mode, compared with the golden files in golden/ (stdout, stderr and exit status).

Regenerate after a deliberate change with CATFACTS_UPDATE_GOLDEN=1, then read the diff.
Fetch times and the mock's port vary from run to run and are normalised; metrics and random
facts are checked by shape in test_script.py instead. With --mock the cache is in memory, for
the session: a page seen before comes back from it, labelled "(cache)".
"""
import os
import re
from pathlib import Path

import pytest

from conftest import run_shell

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CATFACTS_UPDATE_GOLDEN") == "1"

SCRIPTS = {
    "paging": "breeds; next; prev; last; first; breeds 3; set page-size 25; next; breeds 99",
    "show": "breeds 2; show 12; show abyssinian; show turkish van; show 'Ural Rex'; show 5; show Nope",
    "facts": "facts; facts 2 --max-length 60; next; facts --max-length=0 4; fact 10",
    "scroll": "scroll; set page-size 7; scroll 90",
    "query": "group origin; sort country desc; sort pattern; filter country united; filter coat short/long; "
             "search am; show 3; search zz",
    "settings": "source; set; set page-size 5; set; set output nope; set page-size 0; set colour on",
    "help": "help; " + "; ".join(f"help {name}" for name in [
        "breeds", "next", "prev", "first", "last", "show", "facts", "fact", "scroll", "group", "sort",
        "filter", "search", "metrics", "source", "set", "help", "quit", "exit"]) + "; help nope",
    "usage_errors": "next; bogus; serch am; breeds x; breeds 1 2; show; facts --max-length; facts --nope; "
                    "fact -1; sort color; sort coat up; group; filter coat; search; set page-size x; scroll 0; "
                    "metrics --nope; metrics --json --prom; metrics extra; source now; quit now",
}

MODES = {
    "table": ([], ""),
    "json": (["--json"], ""),
    "plain": ([], "set output plain; "),
}


def normalise(text):
    text = re.sub(r'"fetched_at":"[^"]*"', '"fetched_at":"<time>"', text)
    return re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", text)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("script", SCRIPTS)
def test_output_matches_golden(script, mode):
    flags, prefix = MODES[mode]
    run = run_shell("--mock", *flags, "-c", prefix + SCRIPTS[script])
    actual = (f"$ catfacts --mock {' '.join(flags)} -c {prefix + SCRIPTS[script]!r}\n"
              f"--- stdout\n{normalise(run.stdout)}--- stderr\n{normalise(run.stderr)}--- exit {run.status}\n")
    path = GOLDEN / f"{script}.{mode}.txt"
    if UPDATE or not path.exists():
        path.write_text(actual)
        if not UPDATE:
            pytest.fail(f"{path.name} did not exist; written: check it by eye, then run again")
    assert actual == path.read_text()
