"""Fixtures for the catfacts shell suite: the binaries, a runner for script mode, and
catfacts-mock started as a subprocess (for latency and faults).

The binaries come from $CATFACTS and $CATFACTS_MOCK, else from .build/debug.
"""
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHELL = os.environ.get("CATFACTS", str(ROOT / ".build/debug/catfacts"))
MOCK = os.environ.get("CATFACTS_MOCK", str(ROOT / ".build/debug/catfacts-mock"))


#: How long a test waits for what must come (a prompt, an answer, a process's end): only a hang
#: reaches it, never a slow or loaded machine. Speed is `make bench`'s business.
HANG_S = 60

_CACHE_HOME = tempfile.mkdtemp(prefix="catfacts-shell-cache-")


def stable_env(**extra):
    """The environment for reproducible output: 100 columns, no colour."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    # A cache of the test run's own: pages cached by an earlier run must not answer for a dead server.
    env.update(COLUMNS="100", NO_COLOR="1", LC_ALL="C.UTF-8", XDG_CACHE_HOME=_CACHE_HOME)
    env.update(extra)
    return env


class Run:
    """One run of the shell: its stdout, stderr and exit status."""

    def __init__(self, completed):
        self.stdout = completed.stdout
        self.stderr = completed.stderr
        self.status = completed.returncode

    @property
    def error_lines(self):
        return [line for line in self.stderr.splitlines() if line]


def run_shell(*args, stdin=None, env=None, timeout=HANG_S):
    """Runs the shell with `args`, stdin from `stdin` (never a terminal)."""
    completed = subprocess.run(
        [SHELL, *args], input=stdin if stdin is not None else "", capture_output=True,
        text=True, env=env or stable_env(), timeout=timeout)
    return Run(completed)


class Mock:
    """catfacts-mock in a subprocess, on a free port."""

    def __init__(self, *args):
        self.process = subprocess.Popen(
            [MOCK, "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"listening on (http://\S+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"catfacts-mock did not start: {line!r}")
        self.url = match.group(1)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def mock_server():
    """A factory: mock_server("--latency-ms", "1500") starts one, stopped after the test."""
    started = []

    def start(*args):
        mock = Mock(*args)
        started.append(mock)
        return mock

    yield start
    for mock in started:
        mock.stop()
