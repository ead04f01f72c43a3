"""examples/tour.py runs from the checkout as a user would run it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TOUR = Path(__file__).resolve().parent.parent / "examples" / "tour.py"


def test_the_tour_pages_shows_a_breed_and_prints_metrics(mock_url: str) -> None:
    done = subprocess.run([sys.executable, str(TOUR), "--base-url", mock_url], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ), cwd="/")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "breeds, page 1 of 20 (98 in all, from network):" in lines
    assert "    1. Abyssinian" in lines and "   10. Australian Mist" in lines
    assert "  country  Ethiopia" in lines
    assert any(line.startswith("  /breeds    2 requests") for line in lines)
