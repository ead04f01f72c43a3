"""The soak's verdict: what the C driver and the Python worker counted, what their samples
show, the goals met or missed, as Markdown (printed, and kept in BENCHMARKS.md's soak
section by `make soak`)."""
from __future__ import annotations

import json
import os
import platform
import re
import subprocess
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, List, Optional, Sequence

# The statuses each kind of call documents (include/catfacts.h), as the drivers name them.
PAGE_STATUSES = {"OK", "NETWORK", "TIMEOUT", "HTTP", "RATE_LIMITED", "DECODE", "OFFLINE", "CANCELLED"}
LIST_STATUSES = PAGE_STATUSES | {"PENDING", "NOT_FOUND"}
DOCUMENTED = {
    "page_json": PAGE_STATUSES, "page_items": PAGE_STATUSES, "page_walk": PAGE_STATUSES,
    "fact": PAGE_STATUSES, "breed_find": PAGE_STATUSES | {"NOT_FOUND"}, "query": PAGE_STATUSES,
    "list_item": LIST_STATUSES, "list_batch": LIST_STATUSES, "list_wait": LIST_STATUSES,
    "list_retry": {"OK"}, "list_open": {"OK"}, "search": PAGE_STATUSES,
    "metrics": {"OK"}, "prometheus": {"OK"}, "interrupt": {"OK"},
    "client_open": {"OK"}, "client_call": PAGE_STATUSES, "client_close": {"OK"},
}
COLUMNS = ["OK", "PENDING", "NETWORK", "TIMEOUT", "HTTP", "RATE_LIMITED", "DECODE", "NOT_FOUND", "OFFLINE",
           "CANCELLED", "ARGUMENT", "INTERNAL"]
# A leak shows in malloc's bytes in use; RSS shows it too, and whatever grows outside malloc
# (stacks: every read of the metrics once nested the next one deeper, 8 threads' stacks grew
# by 950 kB each in 5 minutes while the heap stayed flat). Both are held to the limit: the
# heap in every run, RSS (against its level after the first minute) in runs of
# RSS_HELD_FROM_S or more, since RSS still grows for a while after the first minute of a
# short run (malloc's arenas for the threads that come later keep their free pages).
# glibc gives threads arenas of their own (up to 8 per CPU), and the pages an arena frees
# stay resident until its top is free: RSS drifts above the bytes in use as live blocks land
# higher in one arena or another. The samples split RSS so that the report says where a
# growth is: in those arenas (fragmentation; MALLOC_ARENA_MAX=2 holds it, as the header says)
# or elsewhere (a leak outside malloc, stacks, Python's own arenas).
HEAP_GROWTH_LIMIT_KB = 2048
RSS_GROWTH_LIMIT_KB = 2048
RSS_HELD_FROM_S = 600
# The library opens at most 8 connections to a host (CURLMOPT_MAX_HOST_CONNECTIONS); a socket
# whose connection broke (the mock's resets) may still be open beside its replacement.
SOCKET_LIMIT = 16
# The C driver's 20 churning clients add, each, its HTTP thread's wake-up pair and a
# connection or two (one call at a time), and their exporter its connections.
CHURN_SOCKETS = 20 * 4 + 8
# Threads after the warm-up may exceed the most seen in its first half by the runtime's pool
# threads, which come and go, and a churning client's thread or two between its close and
# reopening; beyond that they are not flat (a thread left by each close would be one per
# client_close counted, hundreds).
THREAD_SLACK = 8
HEADING = "## Soak"


@dataclass
class Sample:
    """One measurement of a process: seconds since both were ready, RSS in kB, open fds and
    how many of them are sockets (connections come and go with the pool; the rest stay), its
    threads, malloc's bytes in use in kB as the process said (-1: not said), and the part of
    RSS in malloc's thread arenas in kB (-1: not read; see ``thread_arenas_kb``)."""
    at: float
    rss_kb: int
    fds: int
    sockets: int
    threads: int = -1
    heap_kb: int = -1
    arenas_kb: int = -1


# glibc's arenas for threads other than the first are heaps of HEAP_MAX_SIZE (64 MiB on a
# 64-bit machine: twice the largest mmap threshold), each mapped at an address aligned to it.
THREAD_ARENA_ALIGNMENT = 64 << 20
_MAPPING = re.compile(r"([0-9a-f]+)-[0-9a-f]+ \S+ \S+ \S+ \S+ *(.*)")


def thread_arenas_kb(smaps: str) -> int:
    """The RSS (kB) of the anonymous mappings of /proc/PID/smaps that start at a multiple of
    THREAD_ARENA_ALIGNMENT: the thread arenas of glibc's malloc."""
    total, counting = 0, False
    for line in smaps.splitlines():
        mapping = _MAPPING.fullmatch(line)
        if mapping:
            counting = not mapping.group(2) and int(mapping.group(1), 16) % THREAD_ARENA_ALIGNMENT == 0
        elif counting and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total


@dataclass
class CollectorLife:
    """One life of the OTLP collector: the export requests it decoded (metrics and traces),
    the ones it refused, whether the soak killed it (else it lived to the end) and whether it
    was still running when its life ended (not dead of its own accord)."""
    received: int
    refused: int
    killed: bool
    alive: bool


@dataclass
class Run:
    """What the orchestrator saw of one process: its samples (the last one taken when it said
    "quiet", its work done and its client still open), its exit status and its output."""
    name: str
    samples: List[Sample]
    quiet: Optional[Sample]
    returncode: Optional[int]
    output: List[str]


@dataclass
class Counts:
    """A process's calls by kind and status, wrong answers and deadline hits by kind, its
    listeners' calls, and its other report lines (metrics, fds before and after)."""
    calls: Dict[str, Dict[str, int]] = field(default_factory=dict)
    wrong: Dict[str, int] = field(default_factory=dict)
    deadlines: Dict[str, int] = field(default_factory=dict)
    listeners: Dict[str, int] = field(default_factory=dict)
    extra: Dict[str, str] = field(default_factory=dict)
    reported: bool = False


def counts_of(output: Sequence[str]) -> Counts:
    """Reads the C driver's lines (tally.h) or the Python worker's "result JSON" line."""
    counts = Counts()
    for line in output:
        word, _, rest = line.partition(" ")
        parts = rest.split()
        if word == "result":
            data = json.loads(rest)
            counts.calls, counts.wrong, counts.deadlines = data["calls"], data["wrong"], data["deadlines"]
        elif word == "call" and len(parts) == 3:
            counts.calls.setdefault(parts[0], {})[parts[1]] = int(parts[2])
        elif word in ("wrong", "deadline", "listener") and len(parts) == 2:
            {"wrong": counts.wrong, "deadline": counts.deadlines, "listener": counts.listeners}[word][parts[0]] = int(parts[1])
        elif word == "end":
            counts.reported = True
        elif parts:
            counts.extra[word] = rest
    return counts


def calls_table(counts: Dict[str, Counts]) -> List[str]:
    lines = ["| process | kind | calls | " + " | ".join(COLUMNS) + " | other | wrong answers |",
             "|---|---|---:|" + "---:|" * (len(COLUMNS) + 2)]
    for name, c in counts.items():
        for kind in sorted(c.calls, key=lambda k: list(DOCUMENTED).index(k) if k in DOCUMENTED else len(DOCUMENTED)):
            by_status = c.calls[kind]
            cells = []
            for column in COLUMNS:
                hits = c.deadlines.get(kind, 0) if column == "TIMEOUT" else 0
                cells.append(f"{by_status.get(column, 0)}" + (f" ({hits} deadline)" if hits else ""))
            other = ", ".join(f"{s} {n}" for s, n in by_status.items() if s not in COLUMNS) or "0"
            lines.append(f"| {name} | {kind} | {sum(by_status.values())} | " + " | ".join(cells) +
                         f" | {other} | {c.wrong.get(kind, 0)} |")
    return lines


def metrics_table(text: str) -> List[str]:
    """The C client's own account at the end: requests, errors, retries, cache hits."""
    try:
        metrics = json.loads(text)
    except json.JSONDecodeError:
        return [f"The C client's metrics did not parse: `{text[:200]}`"]
    lines = ["| C client, `cf_metrics` at the end | requests | errors | retries | cache hits | p50 ms | p99 ms |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for e in metrics.get("endpoints", []):
        lines.append(f"| {e['endpoint']} | {e['requests']} | {e['errors']} | {e['retries']} | {e['cache_hits']} "
                     f"| {e['p50_ms']:.1f} | {e['p99_ms']:.1f} |")
    if "cache" in metrics:
        lines += ["", f"Its cache: `{json.dumps(metrics['cache'])}`"]
    return lines


def timeline_table(runs: Sequence[Run], seconds: int) -> List[str]:
    """RSS (and its part in malloc's thread arenas), heap in use, fds (sockets among them)
    and threads every minute, or every 10 s in a run under 2 minutes."""
    step = 10 if seconds < 120 else 60
    marks = list(range(0, seconds + 1, step))
    lines = ["| process | " + " | ".join(f"{m} s" for m in marks) + " | end |",
             "|---|" + "---:|" * (len(marks) + 1)]
    for run in runs:
        picked = [next((s for s in run.samples if abs(s.at - m) < 5), None) for m in marks] + [run.quiet]
        lines.append(f"| {run.name} RSS MB | " + " | ".join("" if s is None else f"{s.rss_kb / 1024:.1f}" for s in picked) + " |")
        lines.append(f"| {run.name} RSS in thread arenas MB | " +
                     " | ".join("" if s is None or s.arenas_kb < 0 else f"{s.arenas_kb / 1024:.1f}" for s in picked) + " |")
        lines.append(f"| {run.name} heap in use MB | " +
                     " | ".join("" if s is None or s.heap_kb < 0 else f"{s.heap_kb / 1024:.1f}" for s in picked) + " |")
        lines.append(f"| {run.name} fds (sockets) | " +
                     " | ".join("" if s is None else f"{s.fds} ({s.sockets})" for s in picked) + " |")
        lines.append(f"| {run.name} threads | " + " | ".join("" if s is None else f"{s.threads}" for s in picked) + " |")
    return lines


@dataclass
class Goal:
    what: str
    met: bool
    measured: str


def second_half_rss(samples: Sequence[Sample], seconds: float) -> str:
    """In a run of RSS_HELD_FROM_S or more, RSS over its second half while the calls go on
    (the samples from half-time to the last one before the time is up; not the end's, taken
    once the threads have returned): the least and most, and the last against the first. A
    leak grows RSS there as in the first half; malloc's arenas do most of their drift in the
    first minutes (the growth the RSS goal counts from the first minute), so the two parts of
    the run tell a leak from that drift."""
    if seconds < RSS_HELD_FROM_S:
        return ""
    second = [s for s in samples if seconds / 2 - 1 <= s.at < seconds - 1]
    if len(second) < 2:
        return ""
    least, most = min(s.rss_kb for s in second), max(s.rss_kb for s in second)
    return (f"; from {second[0].at:.0f} to {second[-1].at:.0f} s {least / 1024:.1f}–{most / 1024:.1f} MB, "
            f"{(second[-1].rss_kb - second[0].rss_kb) / 1024:+.1f} from the first to the last")


def resource_goals(runs: Sequence[Run], warm_up: float, seconds: float) -> List[Goal]:
    """Heap flat (malloc's bytes in use at the end, no call under way, no more than the most
    of the first half of the samples after the warm-up, plus the limit: a leak grows it
    through the second half), fds flat (files, pipes and the like no more at the end than
    after the warm-up; sockets within the pools) and threads flat (none of the samples of the
    second half of the run after the warm-up, nor the end, above the most of its first half,
    give or take the runtime's pool). RSS at the end within the limit of its level after the
    warm-up, in a run of RSS_HELD_FROM_S or more; reported in shorter ones."""
    rss_held = seconds >= RSS_HELD_FROM_S
    heap: List[str] = []
    rss: List[str] = []
    rss_ok = True
    fds: List[str] = []
    threads: List[str] = []
    heap_ok = fds_ok = threads_ok = True
    for run in runs:
        if run.quiet is None or not run.samples:
            heap.append(f"{run.name}: no sample at the end")
            rss.append(f"{run.name}: no sample at the end")
            rss_ok = False
            fds.append(f"{run.name}: no sample at the end")
            threads.append(f"{run.name}: no sample at the end")
            heap_ok = fds_ok = threads_ok = False
            continue
        base = next((s for s in run.samples if s.at >= warm_up - 1), run.quiet)
        end = run.quiet
        after = [s for s in run.samples if s.at >= warm_up - 1]
        first = after[:max(1, len(after) // 2)]
        heaps = [s.heap_kb for s in first if s.heap_kb >= 0]
        rss_ok &= end.rss_kb <= base.rss_kb + RSS_GROWTH_LIMIT_KB or not rss_held
        arenas = (f"; {(end.arenas_kb - base.arenas_kb) / 1024:+.1f} in malloc's thread arenas, "
                  f"{(end.rss_kb - end.arenas_kb - base.rss_kb + base.arenas_kb) / 1024:+.1f} elsewhere"
                  if base.arenas_kb >= 0 and end.arenas_kb >= 0 else "")
        rss.append(f"{run.name} {base.rss_kb / 1024:.1f} MB at {base.at:.0f} s, {end.rss_kb / 1024:.1f} at the end "
                   f"({(end.rss_kb - base.rss_kb) / 1024:+.1f}{arenas}{second_half_rss(run.samples, seconds)})")
        if not heaps or end.heap_kb < 0:
            heap_ok = False
            heap.append(f"{run.name}: no heap figure")
        else:
            heap_ok &= end.heap_kb <= max(heaps) + HEAP_GROWTH_LIMIT_KB
            heap.append(f"{run.name} at most {max(heaps) / 1024:.1f} MB in the first half, {end.heap_kb / 1024:.1f} "
                        f"at the end")
        others_base, others_end = base.fds - base.sockets, end.fds - end.sockets
        most_sockets = max(s.sockets for s in run.samples + [end])
        socket_limit = SOCKET_LIMIT + (CHURN_SOCKETS if run.name == "C" else 0)
        fds_ok &= others_end <= others_base and most_sockets <= socket_limit
        fds.append(f"{run.name} other fds {others_base} → {others_end}, sockets at most {most_sockets} "
                   f"(≤ {socket_limit})")
        after = [s for s in after if s.threads >= 0]
        first, second = after[:max(1, len(after) // 2)], after[max(1, len(after) // 2):] + [end]
        if not first or end.threads < 0:
            threads.append(f"{run.name}: no thread count")
            threads_ok = False
            continue
        most_first, most_second = max(s.threads for s in first), max(s.threads for s in second)
        threads_ok &= most_second <= most_first + THREAD_SLACK
        threads.append(f"{run.name} at most {most_first} in the first half, {most_second} in the second and at "
                       f"the end ({end.threads})")
    return [
        Goal(f"heap flat after {warm_up:.0f} s (malloc's bytes in use at the end ≤ the first half's most + "
             f"{HEAP_GROWTH_LIMIT_KB // 1024} MB)", heap_ok, "; ".join(heap)),
        Goal(f"RSS flat after {warm_up:.0f} s (at the end ≤ its level then + {RSS_GROWTH_LIMIT_KB // 1024} MB"
             + ("" if rss_held else f"; reported, held in runs of {RSS_HELD_FROM_S} s or more") + ")",
             rss_ok, "; ".join(rss)),
        Goal(f"fds flat after {warm_up:.0f} s (files and pipes no more at the end; sockets ≤ {SOCKET_LIMIT}, the "
             f"8 connections of the pool and ones closing, and {CHURN_SOCKETS} more for the C driver's 20 "
             "churning clients)", fds_ok, "; ".join(fds)),
        Goal(f"threads flat after {warm_up:.0f} s (the second half's most ≤ the first half's + {THREAD_SLACK}, "
             "the runtime's pool)", threads_ok, "; ".join(threads)),
    ]


HEADER = Path(__file__).resolve().parents[2] / "include" / "catfacts.h"
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def header_descriptors_left() -> Optional[int]:
    """The descriptors catfacts.h's "The process" says stay once every client is closed ("at
    most two threads and five descriptors more than before the first client"), or None when it
    no longer says so in those words."""
    try:
        text = " ".join(HEADER.read_text().replace("*", " ").split())
    except OSError:
        return None
    found = re.search(r"at most (\w+) threads and (\w+) descriptors more than before the first client", text)
    return NUMBER_WORDS.get(found.group(2)) if found else None


def descriptors_goal(c_extra: Dict[str, str]) -> Goal:
    """After the C driver's last cf_client_close (its sockets down to their number before),
    no more descriptors than before its first cf_client_open and the ones the header names."""
    left = header_descriptors_left()
    what = ("descriptors after the last `cf_client_close` (once the sockets are down, or 10 s): no socket more "
            f"than before the first open, and at most {left if left is not None else '?'} descriptors more in all "
            "(catfacts.h, \"The process\")")
    before = re.match(r"(\d+) \((\d+) sockets\)", c_extra.get("fds_before_open", ""))
    after = re.match(r"(\d+) \((\d+) sockets\)", c_extra.get("fds_after_close", ""))
    if left is None:
        return Goal(what, False, f"{HEADER.name} no longer says how many descriptors stay after the last client")
    if before is None or after is None:
        return Goal(what, False, "the C driver did not report its descriptors")
    more, sockets_more = int(after.group(1)) - int(before.group(1)), int(after.group(2)) - int(before.group(2))
    return Goal(what, more <= left and sockets_more <= 0,
                f"{c_extra['fds_before_open']} before the first open, {c_extra['fds_after_close']} ({more:+d})"
                + (f"; the ones added: {c_extra['fds_added'].strip()}" if c_extra.get("fds_added") else ""))


def collector_goal(lives: Sequence[CollectorLife], problem: Optional[str]) -> Goal:
    """The collector killed and started again at least once, every life still running when
    it was ended, nothing refused, and exports heard in every full life after a restart (the
    exporters came back each time; the last life, cut short by the end, is not counted)."""
    restarts = sum(1 for life in lives if life.killed)
    after_restart = [life.received for life in lives[1:] if life.killed]
    silent = sum(1 for received in after_restart if received <= 0)
    refused = sum(max(0, life.refused) for life in lives)
    died = sum(1 for life in lives if not life.alive)
    unread = sum(1 for life in lives if life.received < 0)
    met = problem is None and restarts >= 2 and silent == 0 and refused == 0 and died == 0 and unread == 0
    measured = (f"{len(lives)} lives, {restarts} killed; export requests per life: "
                f"{', '.join(str(life.received) for life in lives) or 'none'}; {refused} refused; "
                f"{silent} full lives after a restart heard nothing; {died} died on their own; {unread} unreadable" + (f"; {problem}" if problem else ""))
    return Goal("the OTLP collector killed and restarted, and the exports reach it after each restart "
                "(0 refused)", met, measured)


def report(runs: Sequence[Run], seconds: int, mock_problem: Optional[str], integrity: str,
           collector_lives: Sequence[CollectorLife], collector_problem: Optional[str]) -> tuple[List[str], bool]:
    """The tables and goals as Markdown lines, and whether every goal was met."""
    counts = {run.name: counts_of(run.output) for run in runs}
    lines = calls_table(counts)
    for name, c in counts.items():
        if c.listeners:
            lines += ["", f"{name} listener calls: " + ", ".join(f"{k} {n}" for k, n in c.listeners.items()) + "."]
    c_extra = counts["C"].extra if "C" in counts else {}
    if "metrics" in c_extra:
        lines += [""] + metrics_table(c_extra["metrics"])
    lines += [""] + timeline_table(runs, seconds)

    warm_up = min(60.0, seconds / 2)
    crashes = [f"{run.name} exited {run.returncode}" + ("" if counts[run.name].reported else " without its report")
               for run in runs if run.returncode != 0 or not counts[run.name].reported]
    if mock_problem:
        crashes.append(mock_problem)
    undocumented = [f"{name} {kind} {status} ×{n}" for name, c in counts.items() for kind, by_status in c.calls.items()
                    for status, n in by_status.items() if status not in DOCUMENTED.get(kind, set())]
    internal = sum(by_status.get("INTERNAL", 0) for c in counts.values() for by_status in c.calls.values())
    wrong = sum(sum(c.wrong.values()) for c in counts.values())
    goals = [
        Goal("0 crashes (the C driver, the Python worker, the mock)", not crashes, "; ".join(crashes) or "none"),
        Goal("0 `CF_ERR_INTERNAL`", internal == 0, str(internal)),
        Goal("every status one its call documents", not undocumented, "; ".join(undocumented) or "all"),
        Goal("0 wrong answers (content, error fields, search order, hangs)", wrong == 0, str(wrong)),
        *resource_goals(runs, warm_up, seconds),
        descriptors_goal(c_extra),
        collector_goal(collector_lives, collector_problem),
        Goal("`pragma integrity_check` on the cache file afterwards", integrity == "ok", integrity),
    ]
    lines += ["", "| goal | verdict | measured |", "|---|---|---|"]
    lines += [f"| {g.what} | {'met' if g.met else '**missed**'} | {g.measured} |" for g in goals]
    passed = sum(1 for g in goals if g.met)
    lines += ["", f"soak: {passed} passed, {len(goals) - passed} failed"]
    return lines, passed == len(goals)


def malloc_settings() -> str:
    """The environment's settings of glibc's malloc, which every process of the soak inherits
    (thread arenas above all), or that there are none."""
    names = ("MALLOC_ARENA_MAX", "MALLOC_ARENA_TEST", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_",
             "GLIBC_TUNABLES")
    settings = [f"{name}={os.environ[name]}" for name in names if name in os.environ]
    return ", ".join(settings) if settings else "glibc's defaults (no MALLOC_ARENA_MAX nor GLIBC_TUNABLES)"


def machine() -> str:
    """Cores, CPU model, memory and kernel, as the section's header gives them."""
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = re.search(r"model name\s*:\s*(.*)", cpuinfo)
    memory = re.search(r"MemTotal:\s*(\d+) kB", Path("/proc/meminfo").read_text())
    cpu = model.group(1).strip() if model else platform.machine()
    gib = int(memory.group(1)) / 1024 ** 2 if memory else 0
    return f"{os.cpu_count()} cores ({cpu}), {gib:.0f} GiB; Linux {platform.release()}"


def record(path: Path, lines: List[str], seconds: int, seed: int, mock_flags: Sequence[str]) -> None:
    """Writes the report into the soak section of BENCHMARKS.md (replacing the one there, or
    added at the end); bench/run keeps that section when it rewrites the rest."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    section = [
        f"{HEADING}: one client from 8 C threads and a Python process, 20 clients coming and going, faults at "
        "random, a collector that dies and comes back",
        "",
        "Written by `make soak` (`Tests/soak/run.sh`); `make bench` keeps this section as it is.",
        "",
        f"- Machine: {machine()}; the debug build (`.build/debug`), other work running beside it.",
        f"- Run: {when}, commit {commit}, `make soak` (SOAK_S={seconds}), seed {seed} (`SOAK_SEED={seed}` draws the "
        "same faults and calls; thread timing differs).",
        f"- malloc: {malloc_settings()}.",
        f"- Mock: `catfacts-mock {' '.join(mock_flags)}`. C client: `deadline_ms` 1500, `timeout_ms` 1400, "
        "`retries` 2, `cache_ttl_ms` 2000, `cache_max_bytes` 1 MiB; Python client: `timeout=0.9` (every "
        "Retry-After wait passes it), the same cache file. Both interrupt their client every 0.2-1.5 s. "
        "20 more C clients (no cache, the C deadlines) each opened, called, closed and opened again all "
        "through the run, exporting to `Tests/otlp/collector.py`, which is killed (SIGKILL) every sixth of the "
        "run (10 s to 2 min) and started again on its port 3 s later.",
        "",
        *lines,
        "",
    ]
    old = path.read_text().splitlines() if path.exists() else []
    start = next((i for i, line in enumerate(old) if line.startswith(HEADING)), len(old))
    end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
    kept = old[:start] + ([""] if start == len(old) and old and old[-1] else [])
    path.write_text("\n".join(kept + section + old[end:]) + ("\n" if old[end:] else ""))
