"""The examples run from the checkout as a user would run them."""
from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List

from conftest import HANG_S, MakeMock, established, wait_for

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TOUR = EXAMPLES / "tour.py"
ALL_BREEDS = EXAMPLES / "all_breeds.py"


def run(script: Path, *arguments: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, str(script), *arguments], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ), cwd="/")


def test_the_tour_pages_shows_a_breed_and_prints_metrics(mock_url: str) -> None:
    done = run(TOUR, "--base-url", mock_url)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "breeds, page 1 of 20 (98 in all, from network):" in lines
    assert "    1. Abyssinian" in lines and "   10. Australian Mist" in lines
    assert "  country  Ethiopia" in lines
    # Two pages asked in order: the library reads up to two more ahead (read_ahead), and
    # the metrics count the requests sent by the time they are printed.
    assert any(line.startswith(("  /breeds    2 requests", "  /breeds    3 requests", "  /breeds    4 requests"))
               for line in lines), lines


def test_all_breeds_lists_every_breed_then_the_metrics(mock_url: str) -> None:
    done = run(ALL_BREEDS, "--base-url", mock_url, "--page-size", "10")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "   1. Abyssinian (Ethiopia)" and lines[97] == "  98. York Chocolate (United States)"
    assert lines[98:100] == ["", "metrics:"]
    assert lines[100].startswith("  /breeds    10 requests, 0 errors, 0 from cache, avg ")
    assert lines[101].startswith("  memory   ") and lines[101].endswith(" kB resident, online")
    assert done.stderr == ""  # not a terminal: no progress bar


def test_all_breeds_draws_its_progress_bar_on_a_terminal(mock_url: str) -> None:
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run([sys.executable, str(ALL_BREEDS), "--base-url", mock_url, "--page-size", "49"],
                              stdout=subprocess.PIPE, stderr=terminal, text=True, timeout=60, cwd="/")
        os.close(terminal)
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal's other end is closed: all read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(controller)
    assert done.returncode == 0
    assert b"\r[###############...............] 49/98 breeds" in shown
    assert b"\r[##############################] 98/98 breeds\r\x1b[K" in shown


def test_all_breeds_says_when_the_server_cannot_be_reached(make_mock: MakeMock) -> None:
    mock = make_mock()
    mock.stop()
    done = run(ALL_BREEDS, "--base-url", mock.url)
    assert done.returncode == 1
    assert done.stderr.startswith(f"cannot reach the server: network error for {mock.url}/breeds")
    assert "\nmetrics:\n  /breeds     3 requests, 3 errors" in done.stdout


def test_all_breeds_falls_back_to_the_bundled_catalog_when_asked(make_mock: MakeMock) -> None:
    mock = make_mock()
    mock.stop()
    done = run(ALL_BREEDS, "--base-url", mock.url, "--offline-fallback", "--page-size", "50")
    assert done.returncode == 0, done.stderr
    assert done.stderr == "the server cannot be reached: these are the bundled catalog's breeds\n"
    assert done.stdout.splitlines()[97] == "  98. York Chocolate (United States)"


def test_all_breeds_stops_at_ctrl_c_and_still_prints_the_metrics(make_mock: MakeMock) -> None:
    latency_s = 5.0
    mock = make_mock("--latency-ms", str(int(latency_s * 1000)))
    child = subprocess.Popen([sys.executable, str(ALL_BREEDS), "--base-url", mock.url, "--timeout", "60"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/")
    # Ctrl-C once the first page's request is under way.
    assert wait_for(lambda: established(mock.port) > 0 or child.poll() is not None)
    assert child.poll() is None, child.communicate()
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, errors = child.communicate(timeout=HANG_S)
    elapsed = time.monotonic() - sent
    assert child.returncode == 130, errors
    assert errors == "interrupted after 0 of ? breeds\n"
    lines: List[str] = out.splitlines()
    assert lines[:2] == ["", "metrics:"] and lines[2].startswith("  /breeds     1 requests, 1 errors")
    assert elapsed < latency_s  # sooner than the request could have been answered
