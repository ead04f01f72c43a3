"""The README's table of client options, checked against what the fronts accept: every key of
`cf_client_open`'s options JSON (the header's list) has a row naming it in the C column, and
every argument of the Python clients (`ClientConfig`'s fields) one naming it in the Python
column. A new option fails the docs test until the table has its row."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import List, Set

from blocks import Problem

HEADING = "## Client options, front by front"
OPTION_KEY = re.compile(r'^\s*\*\s+"([a-z_]+)"\s')


def header_option_keys(header: Path) -> Set[str]:
    """The keys listed in the comment of cf_client_open (from "Opens a client." to its declaration)."""
    text = header.read_text()
    start = text.index("Opens a client.")
    end = text.index("cf_client_open(", start)
    return {found.group(1) for line in text[start:end].split("\n") if (found := OPTION_KEY.match(line))}


def python_arguments(config: Path) -> Set[str]:
    """The fields of `ClientConfig`: the arguments both Python clients take."""
    tree = ast.parse(config.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "ClientConfig":
            return {item.target.id for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
    raise ValueError(f"{config} has no ClientConfig")


def check(path: Path, text: str, root: Path) -> List[Problem]:
    """What the options table of `text` (if it has one) leaves out."""
    if HEADING not in text:
        return []
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.split("\n") if line.startswith("|")]
    c_column = " ".join(cells[2] for cells in rows if len(cells) > 3)
    python_column = " ".join(cells[3] for cells in rows if len(cells) > 4)
    where = f"{path}:{text[:text.index(HEADING)].count(chr(10)) + 1}"
    problems = [Problem(where, f"the options table has no row for the C option `{key}` (include/catfacts.h, "
                               "cf_client_open): add one with its Python keyword, shell flag, default and range")
                for key in sorted(header_option_keys(root / "include/catfacts.h")) if f"`{key}`" not in c_column]
    problems += [Problem(where, f"the options table has no row for the Python argument `{name}=` "
                                "(bindings/python/catfacts/_config.py): add one")
                 for name in sorted(python_arguments(root / "bindings/python/catfacts/_config.py"))
                 if f"`{name}=`" not in python_column]
    return problems
