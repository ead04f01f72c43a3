"""Finding the examples of the documentation: fenced blocks in Markdown (and in the header's
comments, written the same way), and the ``Example::`` blocks and ``>>>`` lines of the Python
package's docstrings. Also the Markdown check: a fence that is not closed, a closing fence with
text after it, an info string nobody knows, a marker nobody knows are each a `Problem`.

A block's marker is an HTML comment on the line just before its fence (invisible once rendered):
    <!-- docs-test: skip (REASON) -->   not run; listed with its reason
    <!-- docs-test: given client -->    a fragment inside an open client (C: `cf_client *client`;
                                        Python: `client`), against the mock
    <!-- docs-test: output -->          a ```text block: what the block before it prints
A ```text or ```json block needs no marker: it is not code, and is listed as skipped so.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Tuple

#: Info strings and what they are: code that runs, or text shown as it is.
RUNNABLE = ("c", "python", "sh", "console")
NOT_CODE = ("text", "json")
#: Code the runner cannot run here; such a block needs a skip marker saying why.
KNOWN_ONLY = ("swift",)

FENCE = re.compile(r"^(\s*)```(.*)$")
MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
SKIP = re.compile(r"^skip \((.+)\)$")


@dataclass
class Block:
    """One example: where it is, its language, its code, and its marker."""

    path: Path
    line: int  # of the opening fence (1-based)
    language: str
    code: str
    skip: Optional[str] = None  # the reason, when marked skip
    given_client: bool = False
    output: Optional["Block"] = None  # a following ```text block marked output
    doctest: bool = False  # Python in >>> form: run by doctest

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class Problem:
    """A fault of the Markdown itself, found before anything runs."""

    where: str
    what: str


@dataclass
class Found:
    blocks: List[Block] = field(default_factory=list)
    problems: List[Problem] = field(default_factory=list)


def markdown_blocks(path: Path, text: str, first_line: int = 1) -> Found:
    """The fenced blocks of Markdown `text` (its line 1 is line `first_line` of `path`)."""
    found = Found()
    lines = text.split("\n")
    index = 0
    previous: Optional[Block] = None
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        line_number = first_line + index
        where = f"{path}:{line_number}"
        indent, info = opening.group(1), opening.group(2).strip()
        marker = _marker(lines, index)
        body: List[str] = []
        index += 1
        closed = False
        while index < len(lines):
            closing = FENCE.match(lines[index])
            if closing and len(closing.group(1)) <= len(indent) + 3:
                if closing.group(2).strip():
                    found.problems.append(Problem(f"{path}:{first_line + index}",
                                                  f"a closing fence with text after it: {lines[index].strip()!r} "
                                                  f"(the block opened at line {line_number}); put the text on a "
                                                  "line of its own"))
                closed = True
                break
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index])
            index += 1
        index += 1
        if not closed:
            found.problems.append(Problem(where, "a fence that is never closed (the rest of the file renders as code)"))
            break
        block = Block(path, line_number, info, "\n".join(body) + "\n")
        problem = _apply(block, marker, previous)
        if problem:
            found.problems.append(Problem(where, problem))
            continue
        if marker == "output":
            assert previous is not None  # _apply checked it
            previous.output = block
            previous = None
            continue
        found.blocks.append(block)
        previous = block
    return found


def _marker(lines: List[str], fence_index: int) -> Optional[str]:
    if fence_index == 0:
        return None
    found = MARKER.match(lines[fence_index - 1])
    return found.group(1) if found else None


def _apply(block: Block, marker: Optional[str], previous: Optional[Block]) -> Optional[str]:
    """Applies `marker` to `block`; what is wrong with the pair, if anything."""
    if not block.language:
        return f"a fence without an info string: say what it holds ({', '.join(RUNNABLE + NOT_CODE + KNOWN_ONLY)})"
    if block.language not in RUNNABLE + NOT_CODE + KNOWN_ONLY:
        return (f"unknown info string {block.language!r}; known: "
                f"{', '.join(RUNNABLE + NOT_CODE + KNOWN_ONLY)}")
    if marker is None:
        if block.language in NOT_CODE:
            block.skip = f"{block.language}, not code"
        elif block.language in KNOWN_ONLY:
            return (f"a {block.language} block the runner cannot run, with no marker: put "
                    "<!-- docs-test: skip (REASON) --> on the line before its fence")
        block.doctest = block.language == "python" and _is_doctest(block.code)
        return None
    skip = SKIP.match(marker)
    if skip:
        block.skip = skip.group(1)
    elif marker == "given client" and block.language in ("c", "python"):
        block.given_client = True
        block.doctest = block.language == "python" and _is_doctest(block.code)
    elif marker == "output":
        if block.language != "text":
            return "an output marker on a block that is not ```text"
        if previous is None or previous.skip or previous.language == "console" or previous.doctest:
            return "an output block with no example just before it whose output it could be"
    else:
        return f"unknown docs-test marker {marker!r}; known: skip (REASON), given client, output"
    return None


def _is_doctest(code: str) -> bool:
    return any(line.lstrip().startswith(">>> ") for line in code.splitlines())


COMMENT_LINE = re.compile(r"^\s*\*( |$)")


def header_blocks(path: Path) -> Found:
    """Fenced blocks inside the header's comments, each comment line's ` * ` taken off."""
    lines = path.read_text().split("\n")
    stripped = [COMMENT_LINE.sub("", line, count=1) if COMMENT_LINE.match(line) else "" for line in lines]
    return markdown_blocks(path, "\n".join(stripped))


def docstring_blocks(path: Path) -> Found:
    """The examples of a module's docstrings: each ``Example::`` literal block, and the ``>>>``
    lines of a docstring as one doctest."""
    found = Found()
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        docstring = ast.get_docstring(node, clean=True)
        if not docstring or not node.body:
            continue
        first_line = node.body[0].lineno  # the docstring's first line
        if _is_doctest(docstring):
            found.blocks.append(Block(path, first_line, "python", docstring + "\n", doctest=True))
        for offset, code in _literal_blocks(docstring):
            found.blocks.append(Block(path, first_line + offset, "python", code))
    return found


#: A line that opens an example: "Example::", "Example (``python -m asyncio``)::".
EXAMPLE_INTRO = re.compile(r"\bExample\b.*::\s*$")


def _literal_blocks(docstring: str) -> List[Tuple[int, str]]:
    """The indented blocks after the lines that open examples, with their line offsets."""
    lines = docstring.split("\n")
    blocks = []
    for index, line in enumerate(lines):
        if not EXAMPLE_INTRO.search(line):
            continue
        body: List[str] = []
        start = index + 1
        while start < len(lines) and not lines[start].strip():
            start += 1
        end = start
        while end < len(lines) and (not lines[end].strip() or lines[end].startswith(" ")):
            body.append(lines[end])
            end += 1
        text = "\n".join(body).rstrip()
        width = min(len(l) - len(l.lstrip()) for l in body if l.strip()) if text else 0
        blocks.append((start, "\n".join(l[width:] for l in text.split("\n")) + "\n"))
    return blocks
