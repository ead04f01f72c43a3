"""`make soak`: the C driver (one client, 8 threads, and 20 more clients opened, used, closed
and reopened all through the run) and the Python worker (the catfacts package, a client of its
own) at once, against a catfacts-mock that injects every fault kind at random, on one SQLite
cache file; the 20 clients export to an OTLP collector (Tests/otlp/collector.py) that this
script kills and restarts on the same port all through the run. The processes' RSS, open
descriptors and threads are sampled every 10 s; then a table of calls, errors and resources,
and the goals, met or missed.

    soak.py --seconds S --driver PATH --mock PATH --library PATH --package DIR [--seed N]
            [--record BENCHMARKS.md] [--collector Tests/otlp/collector.py]

Tests/soak/run.sh builds the driver and calls this. The last line is
`soak: N passed, M failed` over the goals; the exit status is 1 when a goal was missed.
"""
from __future__ import annotations

import argparse
import os
import queue
import random
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

from soak_report import CollectorLife, Run, Sample, malloc_settings, record, report, thread_arenas_kb  # Tests/soak/ is this script's folder, first on sys.path

HERE = Path(__file__).resolve().parent
SAMPLE_EVERY_S = 10.0
# Bounds only a hang reaches: the mock's first line, the processes' "ready", their exit
# after the time is up (a call in flight ends within its 1.5 s deadline; a list wait or a
# search answer within 120 s, which the drivers count as wrong), the mock's exit.
START_BOUND_S = 120.0
FINISH_BOUND_S = 300.0
MOCK_STOP_BOUND_S = 30.0
# The collector is killed (SIGKILL) every sixth of the run, 10 s to 2 min, and started again
# on its port after being down a while; the exporters retry with backoff meanwhile. Their
# batches go out every second and metrics every 5 s, so that every life of the collector
# hears from them.
COLLECTOR_LIFE_S = (10.0, 120.0)
COLLECTOR_DOWN_S = 3.0
EXPORT_ENV = {"OTEL_BSP_SCHEDULE_DELAY": "1000", "OTEL_METRIC_EXPORT_INTERVAL": "5000"}
# Every fault the mock has, drawn at random for 1 request in 4 (a call retries 429, 503,
# resets and timeouts twice, so most calls still succeed); Retry-After 1 s and slow bodies
# over 1.2 s against the C client's 1.5 s deadline (two waits, or a wait and a slow body, pass
# it) and the Python client's 0.9 s (every wait and slow body passes it).
MOCK_FLAGS = ["--port", "0", "--breeds", "2000", "--facts", "5000", "--latency-ms", "2", "--jitter-ms", "2",
              "--fail-rate", "0.25", "--faults", "500,429,503,reset,malformed,truncated,slow",
              "--fault-order", "random", "--retry-after", "1", "--slow-ms", "1200"]


@dataclass
class Process:
    """A driver process, its stdout read line by line on a thread of its own."""
    name: str
    popen: subprocess.Popen[str]
    lines: "queue.Queue[tuple[str, Optional[str]]]"
    samples: List[Sample] = field(default_factory=list)
    quiet: Optional[Sample] = None
    output: List[str] = field(default_factory=list)
    ended: bool = False
    # Each is sampled when it answers "collect" ("heap N", then "collected"): the Python
    # worker collects its cyclic garbage first, so that samples count live memory.
    sample_due_at: Optional[float] = None
    # The last "heap N" heard (kB), for the sample its "collected" or "quiet" makes.
    heap_kb: int = -1

    def tell(self, line: str) -> None:
        """A line to the process's stdin; gone already (it ended) is not an error here."""
        assert self.popen.stdin is not None
        try:
            self.popen.stdin.write(line + "\n")
            self.popen.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def sample(self, at: float) -> Optional[Sample]:
        """RSS (and its part in malloc's thread arenas) and fds from /proc, or None once the
        process is gone."""
        folder = f"/proc/{self.popen.pid}/fd"
        try:
            status = Path(f"/proc/{self.popen.pid}/status").read_text()
            arenas = thread_arenas_kb(Path(f"/proc/{self.popen.pid}/smaps").read_text())
            targets = []
            for fd in os.listdir(folder):
                try:
                    targets.append(os.readlink(f"{folder}/{fd}"))
                except FileNotFoundError:  # closed since the listing
                    pass
        except OSError:
            return None
        rss = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), -1)
        threads = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("Threads:")), -1)
        return Sample(at, rss, len(targets), sum(1 for t in targets if t.startswith("socket:")), threads,
                      self.heap_kb, arenas)


def start(name: str, command: List[str], env: Dict[str, str], lines: "queue.Queue[tuple[str, Optional[str]]]") -> Process:
    popen = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    process = Process(name, popen, lines)

    def read() -> None:
        assert popen.stdout is not None
        for line in popen.stdout:
            lines.put((name, line.rstrip("\n")))
        lines.put((name, None))

    threading.Thread(target=read, daemon=True).start()
    return process


def start_mock(mock: str, seed: int) -> tuple[subprocess.Popen[str], str]:
    """The mock and its URL, from its first line ("listening on URL"), waited for with a bound."""
    popen = subprocess.Popen([mock, *MOCK_FLAGS, "--seed", str(seed)], stdout=subprocess.PIPE, text=True)
    assert popen.stdout is not None
    ready, _, _ = select.select([popen.stdout], [], [], START_BOUND_S)
    line = popen.stdout.readline() if ready else ""
    if not line.startswith("listening on "):
        popen.kill()
        sys.exit(f"soak: catfacts-mock did not start (first line {line!r})")
    return popen, line.split()[-1]


class Collector:
    """The OTLP collector the churning clients export to, killed and started again on its
    port all through the run (on a thread of its own); what each of its lives received."""

    def __init__(self, script: str, seconds: int) -> None:
        self.script = script
        self.life_s = min(max(seconds / 6, COLLECTOR_LIFE_S[0]), COLLECTOR_LIFE_S[1])
        self.lives: List[CollectorLife] = []
        self.problem: Optional[str] = None
        self.stop = threading.Event()
        self.popen: Optional[subprocess.Popen[str]] = None
        self.url = ""
        self.port = 0
        self.thread = threading.Thread(target=self.cycle, daemon=True)

    def start(self) -> None:
        """The first life, on a free port, and the thread that ends and begins the others."""
        if self.begin(0):
            self.thread.start()

    def begin(self, port: int) -> bool:
        # The port may still be held for a moment after a kill: tried again for a while.
        for _ in range(20):
            popen = subprocess.Popen([sys.executable, self.script, "--port", str(port)], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
            assert popen.stdout is not None
            ready, _, _ = select.select([popen.stdout], [], [], START_BOUND_S)
            line = popen.stdout.readline() if ready else ""
            if line.startswith("listening on "):
                self.popen, self.url = popen, line.split()[-1].rstrip("/")
                self.port = int(self.url.rsplit(":", 1)[1])
                return True
            popen.kill()
            popen.wait()
            if self.stop.wait(0.5):
                return False
        self.problem = (f"the collector did not start again on port {port}" if port else
                        f"the collector ({self.script}) did not start: does `{sys.executable} {self.script} --port 0` "
                        "run (it needs opentelemetry-proto: make python-deps)?")
        return False

    def end(self, killed: bool) -> None:
        """Reads what this life received, then kills it (SIGKILL, nothing flushed)."""
        if self.popen is None:
            return
        received = -1
        try:
            with urllib.request.urlopen(self.url + "/_collector/summary", timeout=10) as answer:
                fields = dict(line.split(" ", 1) for line in answer.read().decode().splitlines()
                              if line.split(" ", 1)[0] in ("metrics_requests", "trace_requests", "errors"))
            received = int(fields.get("metrics_requests", 0)) + int(fields.get("trace_requests", 0))
            refused = int(fields.get("errors", 0))
        except (OSError, ValueError):
            refused = -1
        alive = self.popen.poll() is None
        self.popen.kill()
        self.popen.wait()
        self.lives.append(CollectorLife(received, refused, killed, alive))
        self.popen = None

    def cycle(self) -> None:
        while not self.stop.wait(self.life_s):
            self.end(killed=True)
            if self.stop.wait(COLLECTOR_DOWN_S) or not self.begin(self.port):
                return

    def finish(self) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()
        self.end(killed=False)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    print(f"soak: {args.seconds} s, seed {seed} (SOAK_SEED={seed} repeats the mock's faults and the calls drawn); "
          f"malloc: {malloc_settings()}")
    mock, url = start_mock(args.mock, seed)
    folder = tempfile.TemporaryDirectory(prefix="catfacts-soak-")
    cache = os.path.join(folder.name, "cache.sqlite")
    lines: "queue.Queue[tuple[str, Optional[str]]]" = queue.Queue()
    env = dict(os.environ, CATFACTS_LIBRARY=args.library,
               PYTHONPATH=os.pathsep.join(filter(None, [args.package, os.environ.get("PYTHONPATH")])))
    collector = Collector(args.collector, args.seconds)
    collector.start()
    processes = {
        "C": start("C", [args.driver, url, cache, str(args.seconds), str(seed), collector.url],
                   dict(env, **EXPORT_ENV), lines),
        "Python": start("Python", [sys.executable, str(HERE / "python_worker.py"), url, cache, str(args.seconds),
                                   str(seed)], env, lines),
    }
    try:
        watch(processes, lines, args.seconds)
    finally:
        for process in processes.values():
            if process.popen.poll() is None:
                process.popen.kill()
            process.popen.wait()
        collector.finish()
    mock_problem = None if mock.poll() is None else f"catfacts-mock died during the run (status {mock.returncode})"
    mock.send_signal(signal.SIGTERM)
    try:
        if mock.wait(MOCK_STOP_BOUND_S) != 0 and mock_problem is None:
            mock_problem = f"catfacts-mock exited {mock.returncode} on SIGTERM"
    except subprocess.TimeoutExpired:
        mock.kill()
        mock_problem = f"catfacts-mock did not stop within {MOCK_STOP_BOUND_S:.0f} s of SIGTERM"
    integrity = integrity_check(cache)
    folder.cleanup()
    runs = [Run(p.name, p.samples, p.quiet, p.popen.returncode, p.output) for p in processes.values()]
    markdown, met = report(runs, args.seconds, mock_problem, integrity, collector.lives, collector.problem)
    print("\n" + "\n".join(markdown))
    if args.record:
        record(Path(args.record), markdown, args.seconds, seed, [*MOCK_FLAGS, "--seed", str(seed)])
        print(f"soak: the report is in {args.record}'s soak section")
    return 0 if met else 1


def watch(processes: Dict[str, Process], lines: "queue.Queue[tuple[str, Optional[str]]]", seconds: int) -> None:
    """Waits for both to be ready, samples them every 10 s, samples each once more when it
    says "quiet" (its threads done, its client still open) and lets it go on; returns when
    both have ended, or when a bound only a hang reaches has passed."""
    ready: set[str] = set()
    bound = time.monotonic() + START_BOUND_S
    while len(ready) < len(processes):
        name, line = next_line(lines, bound)
        if line is None:
            return
        if line == "ready":
            ready.add(name)
        else:
            processes[name].output.append(line)
    started = time.monotonic()
    next_sample = started
    bound = started + seconds + FINISH_BOUND_S
    while not all(p.ended for p in processes.values()) and time.monotonic() < bound:
        now = time.monotonic()
        if now >= next_sample:
            for process in processes.values():
                if process.quiet is not None:
                    continue
                process.sample_due_at = now - started  # sampled when it says "collected"
                process.tell("collect")
            next_sample += SAMPLE_EVERY_S
        try:
            name, line = lines.get(timeout=max(0.0, min(next_sample, bound) - time.monotonic()))
        except queue.Empty:
            continue
        process = processes[name]
        if line is None:
            process.ended = True
        elif line.startswith("heap ") and line[5:].isdigit():
            process.heap_kb = int(line[5:])
        elif line == "collected":
            if process.quiet is None and process.sample_due_at is not None and \
                    (sample := process.sample(process.sample_due_at)) is not None:
                process.samples.append(sample)
            process.sample_due_at = None
        elif line == "quiet":
            process.quiet = process.sample(time.monotonic() - started)
            process.tell("go")
            assert process.popen.stdin is not None
            process.popen.stdin.close()
        else:
            process.output.append(line)


def next_line(lines: "queue.Queue[tuple[str, Optional[str]]]", bound: float) -> tuple[str, Optional[str]]:
    try:
        return lines.get(timeout=max(0.0, bound - time.monotonic()))
    except queue.Empty:
        return "", None


def integrity_check(cache: str) -> str:
    if not os.path.exists(cache):
        return "no cache file"
    with sqlite3.connect(cache) as db:
        return "; ".join(row[0] for row in db.execute("pragma integrity_check"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, required=True)
    parser.add_argument("--driver", required=True)
    parser.add_argument("--mock", required=True)
    parser.add_argument("--library", required=True)
    parser.add_argument("--package", required=True, help="the folder holding the catfacts package")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--collector", default=str(HERE.parent / "otlp" / "collector.py"),
                        help="the OTLP collector script (Tests/otlp/collector.py)")
    parser.add_argument("--record", help="write the report into this file's soak section (BENCHMARKS.md)")
    args = parser.parse_args()
    if args.seconds < 1:
        parser.error("--seconds must be at least 1")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
