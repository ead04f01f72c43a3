"""The documentation says what the code does: defaults are the library's, read from its header."""
from __future__ import annotations

import inspect
import re

import catfacts

from conftest import PYTHON_DIR, ROOT

HEADER = (ROOT / "include" / "catfacts.h").read_text()
README = " ".join((PYTHON_DIR / "README.md").read_text().split())  # as words: rewrapping changes nothing

# Parameters whose default is the library's: the package passes nothing for them.
LIBRARY_DEFAULTS = ("cache_path", "user_agent", "cache_ttl", "cache_max_bytes", "proxy", "connect_timeout",
                    "attempt_timeout", "max_connections")


def test_parameters_left_to_the_library_default_to_none() -> None:
    for client in (catfacts.Client, catfacts.AsyncClient):
        parameters = inspect.signature(client).parameters
        assert {name: parameters[name].default for name in LIBRARY_DEFAULTS} == dict.fromkeys(LIBRARY_DEFAULTS)


def test_the_client_docstring_copies_no_library_default() -> None:
    text = inspect.getdoc(catfacts.Client) or ""
    assert "the library's default" in text
    assert not re.search(r"\b\d+ ?(MB|MiB|kB|minutes?|ms)\b", text), "a library default copied into the docstring"


def test_the_readme_gives_the_cache_caps_the_header_gives() -> None:
    found = re.search(r'"cache_max_bytes".*?\(default (\d+) for a file,\s*\*\s*(\d+) in memory\)', HEADER, re.S)
    assert found is not None, "the header no longer says the cache's default caps"
    file_mib, memory_mib = (int(found.group(index)) // 2 ** 20 for index in (1, 2))
    assert f"the cap is {memory_mib} MiB in memory, {file_mib} MiB for a file" in README


def test_the_readme_no_longer_says_cache_path_is_refused() -> None:
    assert "refuses it" not in README and "cache_path" in README
