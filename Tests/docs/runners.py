"""Running one example against the real build: C compiled against include/ and the build's
libCatFacts and run, Python run by Tests/docs/pyblock.py (doctest where it shows output), shell
blocks run by bash, console blocks one `$` command at a time with their shown output compared.

Examples name the mock as a newcomer starts it, `catfacts-mock` on its default port:
http://127.0.0.1:8106. The runner starts its own on a free port and puts that port in their
place, and a block that starts mocks itself (`catfacts-mock FLAGS &`) gets each of them started
here with those flags on a free port, which the block's own URLs then name.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from blocks import Block

HERE = Path(__file__).resolve().parent
#: How long one example may run: only a hang reaches it (the suites' HANG_S). The self-test
#: lowers it (DOCS_TEST_HANG_S) to see a planted hang caught in seconds.
HANG_S = float(os.environ.get("DOCS_TEST_HANG_S", "60"))
#: The port the examples name: catfacts-mock's default.
DOCUMENTED_PORT = 8106
LOOPBACK_URL = re.compile(r"\b(?:127\.0\.0\.1|localhost):(\d+)")
BACKGROUND_MOCK = re.compile(r"^\s*(?:\S*/)?catfacts-mock\b([^#&]*)&\s*(?:#.*)?$")
ELLIPSIS = re.compile(r"\.\.\.|…")
#: How C and Python say a fragment used a `client` it does not declare.
NO_CLIENT = re.compile(r"[‘'`]client[’'`] undeclared|name 'client' is not defined")


@dataclass
class Outcome:
    ok: bool
    stdout: str = ""
    message: str = ""


class Context:
    """What every example runs with: the build, a sandbox checkout, the shared mock."""

    def __init__(self, root: Path, build_dir: Path, sandbox: Path, mock_url: str,
                 mock_factory: Callable[..., Any]) -> None:
        self.root = root
        self.build_dir = build_dir
        self.sandbox = sandbox
        self.mock_url = mock_url
        self.make_mock = mock_factory  # flags -> a started mock with .url and .stop()
        self.checkout = sandbox / "checkout"
        self._count = 0
        self._make_checkout()
        home = sandbox / "home"
        home.mkdir(exist_ok=True)
        self.env = dict(os.environ,
                        PATH=os.pathsep.join((str(self._guards()), str(build_dir), os.environ.get("PATH", ""))),
                        PKG_CONFIG_PATH=str(build_dir.parent / "pkgconfig"),
                        HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), XDG_STATE_HOME=str(home / "state"),
                        CATFACTS_LIBRARY=str(build_dir / "libCatFacts.so"),
                        CATFACTS_MOCK=str(build_dir / "catfacts-mock"),
                        PYTHONPATH=str(root / "bindings" / "python"), NO_COLOR="1")
        self.env.pop("COLUMNS", None)

    def _make_checkout(self) -> None:
        """A folder that looks like the checkout (its entries linked) whose .build/debug is the
        build under test, so that examples run from the top as the README says and write their
        files here, not into the tree."""
        self.checkout.mkdir()
        for entry in self.root.iterdir():
            if entry.name not in (".build", ".git"):
                (self.checkout / entry.name).symlink_to(entry)
        build = self.checkout / ".build"
        build.mkdir()
        if self.build_dir.parent.is_dir():
            for entry in self.build_dir.parent.iterdir():
                if entry.name != "debug":
                    (build / entry.name).symlink_to(entry)
        (build / "debug").symlink_to(self.build_dir)

    def _guards(self) -> Path:
        """A folder of `make` and `swift` that refuse to build: an example that would start a
        Swift build (minutes, in the tree under test) fails saying to mark it skip. `make -C
        DIR` (the C samples' own Makefile) runs."""
        guards = self.sandbox / "guards"
        guards.mkdir()
        real_make = shutil.which("make") or "make"
        refusal = ('echo "docs-test: an example runs \'$(basename "$0") $*\', which builds or runs the suites: '
                   'mark its block <!-- docs-test: skip (REASON) -->" >&2; exit 97')
        (guards / "swift").write_text(f"#!/bin/sh\n{refusal}\n")
        (guards / "make").write_text(f'#!/bin/sh\n[ "$1" = -C ] && exec {shlex.quote(real_make)} "$@"\n{refusal}\n')
        for guard in guards.iterdir():
            guard.chmod(0o755)
        return guards

    def scratch(self, suffix: str) -> Path:
        self._count += 1
        return self.sandbox / f"example{self._count}{suffix}"

    def with_urls(self, code: str, ports: Dict[int, str]) -> str:
        """`code` with each loopback URL of a mock it names pointing at the one started here."""
        def replace(found: re.Match) -> str:
            url = ports.get(int(found.group(1)))
            return url.split("://", 1)[1] if url else found.group(0)
        return LOOPBACK_URL.sub(replace, code)


def matches(expected: str, actual: str) -> bool:
    """Whether `actual` is the output `expected` shows, `...` (or `…`) standing for any text."""
    def normal(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.strip("\n").split("\n")).strip("\n")
    pattern = "[\\s\\S]*?".join(re.escape(part) for part in ELLIPSIS.split(normal(expected)))
    return re.fullmatch(pattern, normal(actual)) is not None


def run(block: Block, context: Context) -> Outcome:
    runner = {"c": run_c, "python": run_python, "sh": run_sh, "console": run_console}[block.language]
    outcome = runner(block, context)
    if outcome.ok and block.output is not None and not matches(block.output.code, outcome.stdout):
        return Outcome(False, outcome.stdout, f"its output is not what {block.output.where} shows:\n"
                       f"--- shown\n{block.output.code}--- printed\n{outcome.stdout}")
    if not outcome.ok and not block.given_client and NO_CLIENT.search(outcome.message):
        outcome.message += ("(a fragment inside an open client? put <!-- docs-test: given client --> on the line "
                            "before its fence)\n")
    return outcome


def _execute(argv: Sequence[str], context: Context, merge: bool = False) -> Tuple[int, str, str]:
    """Runs `argv` in the sandbox checkout: its exit status, stdout and stderr. An example that
    is still running after HANG_S is killed with all it started (its own process group)."""
    with subprocess.Popen(list(argv), cwd=context.checkout, env=context.env, text=True, errors="replace",
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merge else subprocess.PIPE,
                          stdin=subprocess.DEVNULL, start_new_session=True) as process:
        try:
            out, err = process.communicate(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            return -1, out, f"{err or ''}still running after {HANG_S:.0f} s (a hang), or left a process running\n"
    return process.returncode, out, err or ""


def _failed(what: str, status: int, stdout: str, stderr: str) -> Outcome:
    return Outcome(False, stdout, f"{what} failed (exit status {status})\n{stdout}{stderr}".rstrip() + "\n")


C_PRELUDE = "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <catfacts.h>\n"


def c_program(block: Block, url: str) -> str:
    """The block as a C program: as it is when it has a main, else its lines in one (its
    #include lines above), inside an open client when it is marked `given client`."""
    if re.search(r"\bmain\s*\(", block.code):
        return C_PRELUDE + block.code
    includes = [line for line in block.code.split("\n") if line.startswith("#include")]
    body = "\n".join("    " + line for line in block.code.split("\n") if not line.startswith("#include"))
    opening = closing = ""
    if block.given_client:
        opening = (f"    cf_client *client;\n    if (cf_client_open({_c_string(url)}, NULL, &client) != CF_OK) {{\n"
                   "        fprintf(stderr, \"%s\\n\", cf_last_error());\n        return 1;\n    }\n")
        closing = "    cf_client_close(client);\n"
    return (C_PRELUDE + "\n".join(includes) + "\n\nint main(void) {\n" + opening + "    {\n" + body + "\n    }\n"
            + closing + "    return 0;\n}\n")


def _c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run_c(block: Block, context: Context) -> Outcome:
    source = context.scratch(".c")
    source.write_text(context.with_urls(c_program(block, context.mock_url), {DOCUMENTED_PORT: context.mock_url}))
    program = source.with_suffix("")
    compiler = os.environ.get("CC", "cc")
    status, out, err = _execute([compiler, "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", str(program), str(source),
                                 f"-I{context.root / 'include'}", f"-L{context.build_dir}", "-lCatFacts",
                                 f"-Wl,-rpath,{context.build_dir}"], context)
    if status != 0:
        return _failed(f"compiling {source}", status, out, err)
    status, out, err = _execute([str(program)], context)
    return Outcome(True, out) if status == 0 else _failed(f"running {program}", status, out, err)


def run_python(block: Block, context: Context) -> Outcome:
    script = context.scratch(".py")
    script.write_text(context.with_urls(block.code, {DOCUMENTED_PORT: context.mock_url}))
    argv = [sys.executable, str(HERE / "pyblock.py"), "doctest" if block.doctest else "exec", str(script),
            f"{block.where}", context.mock_url if block.given_client else ""]
    status, out, err = _execute(argv, context)
    return Outcome(True, out) if status == 0 else _failed(f"running {script}", status, out, err)


def shell_lines(code: str) -> List[str]:
    """The block's lines, each `\\`-continued line joined to the next."""
    lines: List[str] = []
    pending = ""
    for line in code.split("\n"):
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    return lines


def _start_block_mocks(lines: List[str], context: Context) -> Tuple[List[str], Dict[int, str], List[Any], str]:
    """Starts here each mock the block starts in the background (`catfacts-mock FLAGS &`), on a
    free port, and maps the port it names (its --port, else 8106) to it; the block's own line
    becomes an echo of the line the mock printed, `listening on URL`."""
    ports: Dict[int, str] = {DOCUMENTED_PORT: context.mock_url}
    started: List[Any] = []
    kept: List[str] = []
    for line in lines:
        found = BACKGROUND_MOCK.match(line)
        if not found:
            kept.append(line)
            continue
        flags = shlex.split(found.group(1))
        port = DOCUMENTED_PORT
        if "--port" in flags:
            at = flags.index("--port")
            if at + 1 >= len(flags) or not flags[at + 1].isdigit():
                return kept, ports, started, f"{line.strip()!r}: --port needs a number"
            port = int(flags[at + 1])
            del flags[at:at + 2]
        try:
            mock = context.make_mock(*flags)
        except RuntimeError as error:
            return kept, ports, started, f"{line.strip()!r}: {error}"
        started.append(mock)
        ports[port] = mock.url
        kept.append(f"echo 'listening on {mock.url}'   # started by the docs test: catfacts-mock {' '.join(flags)}")
    return kept, ports, started, ""


def run_sh(block: Block, context: Context) -> Outcome:
    lines, ports, started, problem = _start_block_mocks(shell_lines(block.code), context)
    try:
        if problem:
            return Outcome(False, "", f"a mock the block starts did not start: {problem}\n")
        script = context.with_urls("\n".join(lines), ports)
        status, out, err = _execute(["bash", "-e", "-o", "pipefail", "-c", script], context)
        return Outcome(True, out) if status == 0 else _failed("the block", status, out, err)
    finally:
        for mock in started:
            mock.stop()


def console_commands(code: str) -> List[Tuple[str, str]]:
    """Each `$ command` of a console block with the output shown under it."""
    commands: List[Tuple[str, str]] = []
    for line in shell_lines(code):
        if line.startswith("$ "):
            commands.append((line[2:], ""))
        elif commands:
            command, shown = commands[-1]
            commands[-1] = (command, shown + line + "\n")
    return commands


def run_console(block: Block, context: Context) -> Outcome:
    commands = console_commands(block.code)
    if not commands:
        return Outcome(False, "", "a console block with no `$ ` command\n")
    lines, ports, started, problem = _start_block_mocks([command for command, _ in commands], context)
    try:
        if problem:
            return Outcome(False, "", f"a mock the block starts did not start: {problem}\n")
        printed = ""
        for command, (original, shown) in zip(lines, commands):
            status, out, _ = _execute(["bash", "-o", "pipefail", "-c", context.with_urls(command, ports)],
                                      context, merge=True)
            printed += out
            if status != 0:
                return _failed(f"$ {original}", status, out, "")
            if shown.strip() and not matches(context.with_urls(shown, ports), out):
                return Outcome(False, printed, f"$ {original}\n--- shown\n{shown}--- printed\n{out}")
        return Outcome(True, printed)
    finally:
        for mock in started:
            mock.stop()
