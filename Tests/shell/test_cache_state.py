"""The cache's state and warnings in `metrics` and `source`, with real faults: a cache file
whose header was overwritten, a full disk (a tiny tmpfs, filled while the shell runs) and a
read-only folder (a read-only bind mount).

The mount tests run the shell inside a mount namespace of its own (`unshare --mount`), so
no mount is seen outside it or outlives it; they need root (root ignores file modes, so a
read-only folder has to be a read-only mount).
"""
import json
import os
import re
import select
import shutil
import subprocess
import time

import pytest

from conftest import SHELL, run_shell, stable_env

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="needs root and unshare(1): a tmpfs and a read-only bind mount are mounted (root ignores file modes)")


def damage(path):
    """Overwrites the file's header; the WAL (which may hold a good copy of it) goes too."""
    with open(path, "r+b") as file:
        file.write(b"X" * 100)
    for companion in ("-wal", "-shm"):
        if os.path.exists(f"{path}{companion}"):
            os.unlink(f"{path}{companion}")


def test_a_damaged_file_is_named_with_the_file_that_holds_it_in_source_and_metrics(tmp_path, mock_server):
    mock = mock_server()
    path = tmp_path / "cache.sqlite"
    assert run_shell("--base-url", mock.url, "--cache", str(path), "-c", "breeds").status == 0
    damage(path)

    run = run_shell("--base-url", mock.url, "--cache", str(path), "-c",
                    "breeds; breeds; set output plain; source; metrics --json; set output json; source")
    assert run.status == 0
    warning = run.error_lines[0][len("catfacts: cache: "):]
    match = re.fullmatch(rf"the cache file {re.escape(str(path))} is not a valid SQLite database \(.+\); "
                         rf"moved it to ({re.escape(str(path))}\.corrupt-\S+) and started a new cache", warning)
    assert match, run.error_lines
    assert run.error_lines == [f"catfacts: cache: {warning}"]
    with open(match.group(1), "rb") as aside:
        assert aside.read(100) == b"X" * 100
    lines = run.stdout.splitlines()
    assert f"cache_warning\t{warning}" in lines
    cache = json.loads(next(line for line in lines if line.startswith('{"app"')))["cache"]
    assert (cache["path"], cache["entries"], cache["hits"], cache["writes_failed"]) == (str(path), 1, 1, 0)
    assert cache["warnings"] == [warning]
    source = json.loads(lines[-1])
    assert source["cache_warnings"] == [warning]


def test_the_table_wraps_each_warning_whole_and_sums_the_cache_up(tmp_path, mock_server):
    mock = mock_server()
    path = tmp_path / "cache.sqlite"

    def damaged_run(columns):
        run_shell("--base-url", mock.url, "--cache", str(path), "-c", "breeds")
        damage(path)
        return run_shell("--base-url", mock.url, "--cache", str(path), "-c", "breeds; breeds; source; metrics",
                         env=stable_env(COLUMNS=str(columns)))

    run = damaged_run(100)
    warning = run.error_lines[0][len("catfacts: cache: "):]
    lines = run.stdout.splitlines()
    assert all(len(line) <= 100 for line in lines)
    # source: "Warning" then the text wrapped to the width (a word longer than a line, as the
    # path moved aside, is cut): every character of the warning is there, in order.
    first = next(i for i, line in enumerate(lines) if line.startswith("Warning   "))
    wrapped = [lines[first][10:]] + [line[10:] for line in lines[first + 1:first + 4] if line.startswith(" " * 10)]
    assert "".join(wrapped).replace(" ", "") == warning.replace(" ", "")
    # metrics: the cache in one line (wide enough for all of it), each warning wrapped below.
    lines = damaged_run(250).stdout.splitlines()
    summary = next(line for line in lines if re.match(r"Cache {3}\S", line))
    assert re.fullmatch(rf"Cache   {re.escape(str(path))}: 1 page, \d+\.\d KiB of 50\.0 MiB, 1 hit, 0 writes failed, "
                        r"0 evicted", summary), summary
    assert lines[lines.index(summary) + 1].startswith(f"        warning: the cache file {path} is not a valid SQLite")


def test_without_warnings_source_adds_nothing(mock_server, tmp_path):
    mock = mock_server()
    run = run_shell("--base-url", mock.url, "--cache", str(tmp_path / "c.sqlite"), "-c", "set output plain; breeds; source")
    assert run.error_lines == []
    assert not any(line.startswith("cache_warning") for line in run.stdout.splitlines())
    off = json.loads(run_shell("--mock", "--no-cache", "--json", "-c", "metrics").stdout)
    assert off["cache"] is None


# --- faults of the file system, in a mount namespace of their own --------------------------

def in_namespace(mount, folder, *args):
    """The argv that runs the shell with `args` after `mount` (a shell command, {folder}
    replaced) inside a private mount namespace; the shell keeps the process's id."""
    script = mount.format(folder=folder) + ' && exec "$0" "$@"'
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, SHELL, *args]


class Session:
    """The shell reading commands from a pipe, one at a time, its output read as it comes."""

    def __init__(self, argv):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=stable_env())
        self.out = b""

    def send(self, line, until):
        """Sends `line`, then reads stdout until it holds `until` (at most 60 s: only a hang takes that long)."""
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + 60
        while until.encode() not in self.out:
            assert time.monotonic() < deadline, f"no {until!r} after {line!r}: {self.out!r}"
            ready, _, _ = select.select([self.process.stdout], [], [], 1)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                assert chunk, f"the shell ended: {self.out!r} {self.process.stderr.read()!r}"
                self.out += chunk

    def finish(self):
        """Closes stdin (the shell then ends); all it wrote, and its exit status."""
        out, err = self.process.communicate(timeout=60)
        return (self.out + out).decode(), err.decode(), self.process.returncode

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@needs_root
def test_a_full_disk_is_counted_and_said_once_and_pages_still_come(tmp_path, mock_server):
    mock = mock_server()
    path = f"{tmp_path}/cache.sqlite"
    session = Session(in_namespace("mount -t tmpfs -o size=256k tmpfs {folder}", tmp_path,
                                   "--base-url", mock.url, "--cache", path))
    try:
        # The cache file, its WAL and shared memory are made when the shell starts.
        session.send("set output plain; source", until="cache\t")
        # The tmpfs, seen through the shell's own root (its mount namespace).
        filler = f"/proc/{session.process.pid}/root{tmp_path}/filler"
        with pytest.raises(OSError) as full:
            with open(filler, "wb", buffering=0) as file:
                while True:
                    file.write(b"f" * 4096)
        assert full.value.errno == 28  # ENOSPC
        # Pages 1, 3 and 5: not in order, so nothing is read ahead and each is one write.
        session.send("breeds; breeds 3; breeds 5; metrics --json", until='"collected_at"')
        session.send("source", until="cache_warning\t")
        out, err, status = session.finish()
    finally:
        session.kill()
    assert status == 0, err
    lines = out.splitlines()
    metrics = json.loads(next(line for line in lines if line.startswith('{"app"')))
    breeds = metrics["endpoints"][0]
    assert (breeds["endpoint"], breeds["requests"], breeds["errors"], breeds["cache_hits"]) == ("/breeds", 3, 0, 0)
    cache = metrics["cache"]
    assert (cache["path"], cache["writes_failed"], cache["entries"]) == (path, 3, 0)
    assert len(cache["warnings"]) == 1
    assert cache["warnings"][0].startswith(
        f"disk full: 3 cache writes failed; the last: the cache could not write {mock.url}/breeds?limit=10&page=5: "
        "SQLite error 13: database or disk is full - ")
    assert f"cache_warning\t{cache['warnings'][0]}" in lines


@needs_root
def test_a_read_only_folder_is_named_and_the_shell_caches_in_memory(tmp_path, mock_server):
    mock = mock_server()
    path = f"{tmp_path}/cache.sqlite"
    argv = in_namespace("mount --bind {folder} {folder} && mount -o remount,bind,ro {folder}", tmp_path,
                        "--base-url", mock.url, "--cache", path, "-c", "breeds; breeds; source; metrics")
    # Wide enough for the whole path on one line.
    run = subprocess.run(argv, capture_output=True, text=True, env=stable_env(COLUMNS="250"), timeout=60)
    assert run.returncode == 0, run.stderr
    warnings = [f"cannot use the cache file {path}: its folder {tmp_path} is not writable (Read-only file system)",
                f"the cache file {path} cannot be used; caching in memory instead"]
    assert run.stderr.splitlines() == [f"catfacts: cache: {warning}" for warning in warnings]
    lines = run.stdout.splitlines()
    assert "Breeds — page 1 of 10 (98 in all) (cache)" in lines
    assert f"Cache     in memory, for this session: {path} cannot be used (see the warning)" in lines
    assert re.search(r"^Cache   in memory: 1 page, \d+\.\d KiB of 50\.0 MiB, 1 hit, 0 writes failed, 0 evicted$",
                     run.stdout, re.M), run.stdout
    assert not os.path.exists(path)
