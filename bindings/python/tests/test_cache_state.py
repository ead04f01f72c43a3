"""The cache's state in ``Client.metrics().cache``, with real faults: a cache file whose header
was overwritten, a full disk (a tiny tmpfs, filled), a read-only folder (a read-only bind
mount), and pages evicted for ``cache_max_bytes``. Calls go on through every one of them.

The mount tests run their client in a child process inside a mount namespace of its own
(``unshare --mount``), so no mount is seen outside it or outlives it; they need root.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict

import pytest

import catfacts

from conftest import PYTHON_DIR

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="needs root and unshare(1): a tmpfs and a read-only bind mount are mounted (root ignores file modes)")


def test_a_memory_cache_is_a_typed_frozen_state_without_a_path(mock_url: str) -> None:
    with catfacts.Client(mock_url, retries=0, cache_max_bytes=100_000, read_ahead=0) as client:
        assert client.breeds_page(1, limit=5).source == "network"
        assert client.breeds_page(1, limit=5).source == "cache"
        cache = client.metrics().cache
    assert isinstance(cache, catfacts.CacheState)
    assert cache.bytes > 0
    assert cache == catfacts.CacheState(path=None, bytes=cache.bytes, max_bytes=100_000, entries=1, hits=1,
                                        writes_failed=0, evicted_entries=0, evicted_bytes=0, warnings=())
    with pytest.raises(dataclasses.FrozenInstanceError):
        cache.entries = 0  # type: ignore[misc]


def test_no_cache_is_none(mock_url: str) -> None:
    with catfacts.Client(mock_url, cache_max_bytes=0) as client:
        assert client.metrics().cache is None


def test_the_state_is_read_from_json_and_absent_from_an_older_library() -> None:
    base: Dict[str, Any] = {
        "endpoints": [], "device": {"make": "m", "model": "n", "arch": "x", "cpus": 2},
        "os": {"name": "Debian", "version": "12", "kernel": "6.1"}, "app": {"name": "p", "library_version": "0.1.0"},
        "memory": {"resident_bytes": 1, "peak_resident_bytes": 2}, "online": True}
    assert catfacts.Metrics.from_json(base).cache is None
    cache = {"path": "/tmp/c.sqlite", "bytes": 10, "max_bytes": 20, "entries": 1, "hits": 2, "writes_failed": 3,
             "evicted_entries": 4, "evicted_bytes": 5, "warnings": ["one", "two"], "later": True}
    assert catfacts.Metrics.from_json({**base, "cache": cache}).cache == catfacts.CacheState(
        "/tmp/c.sqlite", 10, 20, 1, 2, 3, 4, 5, ("one", "two"))


def test_a_damaged_file_is_moved_aside_and_the_warning_names_both_files(mock_url: str, tmp_path: Path) -> None:
    live, path = tmp_path / "live.sqlite", tmp_path / "cache.sqlite"
    with catfacts.Client(mock_url, retries=0, cache_path=live, read_ahead=0) as client:
        client.breeds_page(1, limit=5)
    # A copy of a cache file, its header overwritten. Not the file itself: the closed client's
    # connection may live on until its last task ends, and SQLite shares a file's WAL between
    # the connections of a process, where a good copy of the header could answer.
    shutil.copyfile(live, path)
    garbage = b"\xde\xad" * 50
    with open(path, "r+b") as file:
        file.write(garbage)

    with catfacts.Client(mock_url, retries=0, cache_path=path, read_ahead=0) as client:
        cache = client.metrics().cache
        assert cache is not None and cache.path == str(path) and cache.entries == 0
        assert len(cache.warnings) == 1
        match = re.fullmatch(rf"the cache file {re.escape(str(path))} is not a valid SQLite database \(.+\); "
                             rf"moved it to ({re.escape(str(path))}\.corrupt-\S+) and started a new cache", cache.warnings[0])
        assert match, cache.warnings
        assert Path(match.group(1)).read_bytes()[:100] == garbage
        assert client.breeds_page(1, limit=5).source == "network"
        assert client.breeds_page(1, limit=5).source == "cache"
        after = client.metrics().cache
        assert after is not None and (after.entries, after.hits, after.warnings) == (1, 1, cache.warnings)


def test_evictions_keep_the_cap_and_one_warning_says_how_many(mock_url: str) -> None:
    cap, pages = 8000, 10
    with catfacts.Client(mock_url, retries=0, cache_max_bytes=cap, read_ahead=0) as client:
        for page in range(1, pages + 1):
            client.breeds_page(page, limit=5)
        cache = client.metrics().cache
        assert cache is not None
        assert 1 <= cache.entries < pages and cache.entries + cache.evicted_entries == pages
        assert 0 < cache.bytes <= cap and cache.evicted_bytes > cache.evicted_entries
        assert cache.warnings == (
            f"evicted {cache.evicted_entries} cached pages ({cache.evicted_bytes} bytes) so far, least recently used "
            f"first, to keep the cache within cache_max_bytes ({cap} bytes); they load again when asked",)
        assert client.breeds_page(pages, limit=5).source == "cache"
        assert client.breeds_page(1, limit=5).source == "network"
        again = client.metrics().cache
        assert again is not None and again.hits == 1 and len(again.warnings) == 1
        assert again.entries + again.evicted_entries == pages + 1


def test_the_prometheus_text_has_the_cache_and_promtool_accepts_it(mock_url: str) -> None:
    promtool = shutil.which("promtool")
    assert promtool, "promtool is missing: make test-deps installs Debian's prometheus package"
    with catfacts.Client(mock_url, retries=0, cache_max_bytes=8000, read_ahead=0) as client:
        for page in range(1, 11):
            client.breeds_page(page, limit=5)
        cache = client.metrics().cache
        text = client.metrics_prometheus()
    assert cache is not None
    # The cache's own families: catfacts_cache_hits_total{endpoint=...} is per endpoint, and older.
    samples = dict(line.split(" ") for line in text.splitlines() if line.startswith("catfacts_cache_") and "{" not in line)
    assert samples == {
        "catfacts_cache_entries": str(cache.entries), "catfacts_cache_bytes": str(cache.bytes),
        "catfacts_cache_max_bytes": "8000", "catfacts_cache_writes_failed_total": "0",
        "catfacts_cache_evicted_entries_total": str(cache.evicted_entries),
        "catfacts_cache_evicted_bytes_total": str(cache.evicted_bytes), "catfacts_cache_warnings": "1"}
    checked = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
    assert (checked.returncode, checked.stdout, checked.stderr) == (0, "", "")


# --- faults of the file system, in a mount namespace of their own --------------------------

#: Run in the child: mounts `mount` (a shell command) on the folder, then opens a client on
#: a cache file in it (without read-ahead, so each page asked is one write), runs `calls`
#: (Python, with `client` and `sources`), and prints the metrics' cache
#: and the sources seen as JSON. The mount is undone in a finally, though the namespace
#: would take it away anyway.
CHILD = textwrap.dedent("""
    import json, subprocess, sys
    sys.path.insert(0, sys.argv[1])
    import catfacts
    url, folder, mount, calls = sys.argv[2:6]
    subprocess.run(mount.format(folder=folder), shell=True, check=True)
    try:
        sources = []
        with catfacts.Client(url, retries=0, cache_path=folder + "/cache.sqlite", read_ahead=0) as client:
            exec(calls)
            state = client.metrics().cache
        print(json.dumps({"sources": sources, "cache": state.__dict__ if state else None}))
    finally:
        subprocess.run(["umount", "--lazy", folder], check=True)
""")


def run_in_mount_namespace(url: str, folder: Path, mount: str, calls: str) -> Dict[str, Any]:
    child = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", sys.executable, "-c", CHILD, str(PYTHON_DIR), url,
         str(folder), mount, calls],
        capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    result: Dict[str, Any] = json.loads(child.stdout)
    return result


@needs_root
def test_a_full_disk_counts_failed_writes_in_one_warning_and_calls_go_on(mock_url: str, tmp_path: Path) -> None:
    # The client opens the file (and its WAL) first; then a filler takes every free byte.
    calls = textwrap.dedent("""
        import errno, os
        filler = os.open(folder + "/filler", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            while True:
                os.write(filler, b"f" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error
        finally:
            os.close(filler)
        for page in (1, 2, 3):
            sources.append(client.breeds_page(page, limit=20).source)
        full = client.metrics().cache
        os.unlink(folder + "/filler")
        sources.append(client.breeds_page(4, limit=20).source)
        sources.append(client.breeds_page(4, limit=20).source)
        sources.append(full.writes_failed)
        sources.append(full.entries)
    """)
    result = run_in_mount_namespace(mock_url, tmp_path, "mount -t tmpfs -o size=256k tmpfs {folder}", calls)
    assert result["sources"] == ["network", "network", "network", "network", "cache", 3, 0]
    cache = result["cache"]
    assert (cache["path"], cache["writes_failed"], cache["entries"]) == (str(tmp_path / "cache.sqlite"), 3, 1)
    assert len(cache["warnings"]) == 1
    assert cache["warnings"][0].startswith(
        f"disk full: 3 cache writes failed; the last: the cache could not write {mock_url}/breeds?limit=20&page=3: "
        "SQLite error 13: database or disk is full")
    assert cache["warnings"][0].endswith("; free space on its disk, or lower cache_max_bytes")


@needs_root
@pytest.mark.parametrize("existing", [False, True], ids=["new file", "existing file"])
def test_a_read_only_folder_is_named_and_the_cache_moves_to_memory(mock_url: str, tmp_path: Path,
                                                                    existing: bool) -> None:
    path = tmp_path / "cache.sqlite"
    if existing:  # a cache file with page 1, in a folder that is read-only the next time
        with catfacts.Client(mock_url, retries=0, cache_path=path) as client:
            client.breeds_page(1, limit=5)
    calls = "sources += [client.breeds_page(1, limit=5).source, client.breeds_page(1, limit=5).source]"
    result = run_in_mount_namespace(mock_url, tmp_path, "mount --bind {folder} {folder} && "
                                    "mount -o remount,bind,ro {folder}", calls)
    # SQLite could not write the file's -wal and -shm beside it: the file is left as it was.
    assert result["sources"] == ["network", "cache"]
    cache = result["cache"]
    assert cache["path"] is None and (cache["entries"], cache["hits"], cache["writes_failed"]) == (1, 1, 0)
    assert cache["warnings"] == [
        f"cannot use the cache file {path}: its folder {tmp_path} is not writable (Read-only file system)",
        f"the cache file {path} cannot be used; caching in memory instead"]
    assert path.exists() == existing
