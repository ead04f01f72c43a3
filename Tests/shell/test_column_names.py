"""Every CSV and JSON Lines output of the shell names its columns and keys once each, and the
same whatever the arguments: tools that read CSV by its header (csv.DictReader, pandas,
sqlite's .import) drop or rename a repeated column."""
import csv
import io
import json

import pytest

from conftest import run_shell

#: One run per command (a run's CSV is one table: its header, then its records). A command
#: that moves through a listing has the listing first, its output sent elsewhere.
COMMANDS = [
    "breeds", "breeds 2", "breeds; next", "breeds 3; prev", "breeds 3; first", "breeds; last",
    "show abyssinian", "breeds; show 3", "facts", "facts 2 --max-length 80", "fact", "fact 100", "scroll",
    "group coat", "group origin", "group country --all", "group pattern", "group breed", "group coat; next",
    "sort country", "sort coat desc", "filter coat short", "filter origin natural",
    "search a", "metrics", "source", "set", "set page-size 5", "help", "help show",
]


def run_last(mode, command, tmp_path):
    """`command`'s output in `mode` (--csv, --json): what its last part printed, read back
    from `.output FILE`; stderr of the whole run."""
    *before, last = [part.strip() for part in command.split(";")]
    path = tmp_path / "out"
    run = run_shell("--mock", mode, "-c", "; ".join([*before, f".output {path}", last]))
    assert run.status == 0, run.stderr
    return path.read_bytes().decode("utf-8"), run.stderr


def csv_header(text):
    """The header row of `text`, read as csv.DictReader reads it (its field names)."""
    reader = csv.DictReader(io.StringIO(text, newline=""))
    assert reader.fieldnames, f"no header row in {text!r}"
    rows = list(reader)
    # DictReader files a surplus field under None: a record longer than the header.
    assert all(None not in row for row in rows), text
    return list(reader.fieldnames)


def no_repeated_keys(pairs):
    keys = [key for key, _ in pairs]
    assert len(keys) == len(set(keys)), f"a key repeated in {keys}"
    return dict(pairs)


@pytest.mark.parametrize("command", COMMANDS)
def test_csv_column_names_are_unique(command, tmp_path):
    text, _ = run_last("--csv", command, tmp_path)
    if not text:
        return  # prints nothing as CSV (help)
    header = csv_header(text)
    assert len(header) == len(set(header)), f"{command}: {header}"
    assert all(header), f"{command}: an empty column name in {header}"


@pytest.mark.parametrize("command", COMMANDS)
def test_json_lines_keys_are_unique(command, tmp_path):
    text, errors = run_last("--json", command, tmp_path)
    for line in (text + errors).splitlines():
        if line:
            json.loads(line, object_pairs_hook=no_repeated_keys)


def test_group_puts_its_key_in_a_column_called_group_whatever_the_field():
    headers = {field: csv_header(run_shell("--mock", "--csv", "-c", f"group {field}").stdout)
               for field in ("coat", "origin", "country", "pattern", "breed")}
    assert set(map(tuple, headers.values())) == {("group", "number", "breed", "country", "origin", "coat", "pattern")}
    rows = list(csv.DictReader(io.StringIO(run_shell("--mock", "--csv", "-c", "group coat --all").stdout, newline="")))
    grouped = json.loads(run_shell("--mock", "--json", "-c", "group coat --all").stdout)["groups"]
    assert [row["group"] for row in rows] == [group["key"] for group in grouped for _ in group["items"]]
    assert [row["coat"] for row in rows] == [item.get("coat", "") for group in grouped for item in group["items"]]
