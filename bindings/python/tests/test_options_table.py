"""One owner for each option's facts: the library's table (ClientOption, printed by
``catfacts --options-table``) against every front and the README. Each front is asked, not
read: C through ``cf_client_open`` itself, Python through ``catfacts.Client``, the shell by
running it. A range, a type or a keyword that differs anywhere fails here."""
from __future__ import annotations

import ctypes
import json
import re
import subprocess
from dataclasses import fields
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

import catfacts
from catfacts import errors
from catfacts._config import ClientConfig
from catfacts._native import lib

from conftest import ROOT, mock_binary

DEAD = "http://127.0.0.1:9"
#: Arguments of the Python clients that are Python's own, not options of the library.
PYTHON_ONLY = {"otel_context"}
CF_OK, CF_ERR_ARGUMENT = 0, 2


def table() -> List[Dict[str, Any]]:
    shell = mock_binary().parent / "catfacts"
    out = subprocess.run([str(shell), "--options-table"], capture_output=True, text=True, check=True, timeout=60)
    # A key the library leaves out is a fact the option does not have (no range, no flag).
    absent = dict.fromkeys(("python", "shell", "min", "max", "longest", "default"))
    return [{**absent, **json.loads(line)} for line in out.stdout.splitlines()]


TABLE = table()
RANGED = [row for row in TABLE if row["min"] is not None]


def ids(rows: List[Dict[str, Any]]) -> List[str]:
    return [row["c"] for row in rows]


def test_the_table_names_every_option_once_in_each_front() -> None:
    assert len({row["c"] for row in TABLE}) == len(TABLE)
    pythons = [row["python"] for row in TABLE if row["python"]]
    shells = [row["shell"] for row in TABLE if row["shell"]]
    assert len(set(pythons)) == len(pythons) and len(set(shells)) == len(shells)
    # Every argument of the Python clients is an option of the table, and the reverse.
    assert {f.name for f in fields(ClientConfig)} - PYTHON_ONLY == set(pythons)


def test_python_words_the_librarys_messages_with_the_tables_keywords() -> None:
    for row in TABLE:
        if row["python"]:
            assert errors._keyword(row["c"]) == row["python"], row["c"]


def c_open(key: str, value: Any) -> Tuple[int, str]:
    client = ctypes.c_void_p()
    status = int(lib.cf_client_open(DEAD.encode(), json.dumps({key: value}).encode(), ctypes.byref(client)))
    message = (lib.cf_last_error() or b"").decode()
    if status == CF_OK:
        lib.cf_client_close(client)
    return status, message


@pytest.mark.parametrize("row", RANGED, ids=ids(RANGED))
def test_c_takes_the_range_and_refuses_either_side(row: Dict[str, Any]) -> None:
    key, low, high = row["c"], row["min"], row["max"]
    assert c_open(key, low)[0] == CF_OK
    assert c_open(key, high)[0] == CF_OK
    for outside in (low - 1, high + 1):
        status, message = c_open(key, outside)
        assert status == CF_ERR_ARGUMENT
        assert f"must be in {low}..{high}; got {outside}" in message
    # A bool is not a number, a number not a bool.
    assert c_open(key, True)[0] == CF_ERR_ARGUMENT


def test_c_takes_only_a_bool_for_a_flag() -> None:
    for row in TABLE:
        if row["unit"] == "flag":
            assert c_open(row["c"], True)[0] == CF_OK
            assert c_open(row["c"], 1)[0] == CF_ERR_ARGUMENT
            assert c_open(row["c"], "yes")[0] == CF_ERR_ARGUMENT


def python_value(row: Dict[str, Any], c_value: int) -> Any:
    """A C value in the unit the Python keyword takes (seconds for milliseconds)."""
    return c_value / 1000 if row["unit"] == "milliseconds" else c_value


def python_opens(keyword: str, value: Any) -> Optional[BaseException]:
    try:
        catfacts.Client(base_url=DEAD, **{keyword: value}).close()
    except (TypeError, catfacts.CatFactsError) as error:
        return error
    return None


PYTHON_RANGED = [row for row in RANGED if row["python"]]


@pytest.mark.parametrize("row", PYTHON_RANGED, ids=ids(PYTHON_RANGED))
def test_python_takes_the_range_and_refuses_either_side(row: Dict[str, Any]) -> None:
    keyword, low, high = row["python"], row["min"], row["max"]
    assert python_opens(keyword, python_value(row, low)) is None
    assert python_opens(keyword, python_value(row, high)) is None
    for outside in (low - 1, high + 1):
        error = python_opens(keyword, python_value(row, outside))
        assert isinstance(error, catfacts.ArgumentError), (keyword, outside, error)
        assert str(error).startswith(f"invalid argument: {keyword}="), str(error)
        # The range as the keyword takes it: seconds for a time.
        if row["unit"] == "milliseconds":
            lowest = "0 or more" if low == 0 else "more than 0"
            assert f": must be {lowest} seconds, at most {high / 1000:.15g}" in str(error), str(error)
        else:
            assert f": must be in {low}..{high}" in str(error), str(error)
    assert isinstance(python_opens(keyword, True), TypeError)
    if row["unit"] == "milliseconds":
        # The library counts milliseconds: a finer time is refused, never rounded into another.
        assert isinstance(python_opens(keyword, python_value(row, low) + 0.0005), catfacts.ArgumentError)
    else:
        assert isinstance(python_opens(keyword, low + 0.5), TypeError)


def test_python_takes_only_a_bool_for_a_flag() -> None:
    for row in TABLE:
        if row["unit"] == "flag" and row["python"]:
            assert python_opens(row["python"], True) is None
            assert isinstance(python_opens(row["python"], 1), TypeError)
            assert isinstance(python_opens(row["python"], "yes"), TypeError)


def test_pythons_own_defaults_are_the_librarys() -> None:
    # retries is the one number Python sets itself (timeout= is Python's own choice: 10 s,
    # where the library has no deadline); the rest are None, the library's default.
    defaults = {f.name: f.default for f in fields(ClientConfig)}
    for row in TABLE:
        if row["python"] == "retries":
            assert defaults["retries"] == row["default"]
        elif row["python"] not in (None, "timeout", "offline_fallback", *PYTHON_ONLY):
            assert defaults[row["python"]] is None, row["python"]


def shell_value(row: Dict[str, Any], c_value: int) -> str:
    if row["unit"] == "milliseconds":
        seconds = c_value / 1000
        return str(int(seconds)) if seconds == int(seconds) else repr(seconds)
    return str(c_value)


def shell_status(flag: str, value: str) -> Tuple[int, str]:
    shell = mock_binary().parent / "catfacts"
    run = subprocess.run([str(shell), "--offline", f"{flag}={value}", "-c", "help quit"], capture_output=True,
                         text=True, timeout=60, stdin=subprocess.DEVNULL)
    return run.returncode, run.stderr


SHELL_RANGED = [row for row in RANGED if row["shell"]]


@pytest.mark.parametrize("row", SHELL_RANGED, ids=ids(SHELL_RANGED))
def test_the_shell_takes_the_range_and_refuses_either_side(row: Dict[str, Any]) -> None:
    flag, low, high = row["shell"], row["min"], row["max"]
    assert shell_status(flag, shell_value(row, low))[0] == 0
    assert shell_status(flag, shell_value(row, high))[0] == 0
    for outside in (low - 1, high + 1):
        status, stderr = shell_status(flag, shell_value(row, outside))
        assert status == 2 and f"{flag} {shell_value(row, outside)}: must be" in stderr, stderr


README_ROW = re.compile(r"^\|[^|]*\| `(\w+)`")


def readme_rows() -> Dict[str, List[str]]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Client options, front by front", 1)[1].split("\n## ", 1)[0]
    rows: Dict[str, List[str]] = {}
    for line in section.splitlines():
        found = README_ROW.match(line)
        if found:
            rows[found[1]] = [cell.strip() for cell in line.split("|")[1:-1]]
    return rows


def test_the_readmes_table_has_each_options_keyword_flag_and_range() -> None:
    rows = readme_rows()
    for row in TABLE:
        cells = rows.get(row["c"])
        assert cells is not None, f"README's options table has no row for `{row['c']}`"
        what, c, python, shell, default, accepted = cells
        assert (f"`{row['python']}=`" in python) if row["python"] else python == "—", (row["c"], python)
        if row["shell"]:
            assert f"`{row['shell']}" in shell, (row["c"], shell)
        if row["min"] is not None:
            assert f"{row['min']}..{row['max']}" in accepted, (row["c"], accepted)
        if row["longest"] is not None:
            assert f"at most {row['longest']} bytes" in accepted, (row["c"], accepted)
