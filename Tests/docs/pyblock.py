"""Runs one Python example of the documentation, in a process of its own.

    pyblock.py exec|doctest FILE WHERE [CLIENT_URL]

exec: the code as a script; top-level `await`, `async with` and `async for` run in asyncio, as
they do in `python -m asyncio`. doctest: the `>>>` lines, their shown output compared (`...`
stands for any text, whitespace runs compare equal). With CLIENT_URL the code runs with
`client`, a `catfacts.Client` of that URL, already open (a fragment marked `given client`).
"""
from __future__ import annotations

import ast
import asyncio
import doctest
import inspect
import sys
from typing import Any, Dict

import catfacts


def main(mode: str, path: str, where: str, client_url: str) -> int:
    code = open(path).read()
    names: Dict[str, Any] = {"__name__": "__main__"}
    client = catfacts.Client(client_url) if client_url else None
    if client is not None:
        names["client"] = client
    try:
        if mode == "doctest":
            return run_doctest(code, names, where)
        compiled = compile(code, where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        result = eval(compiled, names)
        if inspect.iscoroutine(result):
            asyncio.run(result)
        return 0
    finally:
        if client is not None:
            client.close()


def run_doctest(code: str, names: Dict[str, Any], where: str) -> int:
    test = doctest.DocTestParser().get_doctest(code, names, where, where, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
