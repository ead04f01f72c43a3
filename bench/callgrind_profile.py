"""Instruction counts of a program under callgrind, for bench/run's profile section.

Instruction counts do not move with the machine's load, unlike sampled CPU time, so they show
what a change to the library's hot path saves on a shared machine. Each function's own
instructions (its "self" cost, so the shares add up to 100 %) are put under the first
category whose pattern its name, file or object holds, and the functions with the most are
listed by name.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

# (category, patterns searched in "object file function"), first match wins. The library's
# own code is told apart by its source folder and by the types in its mangled names.
CATEGORIES: list[tuple[str, tuple[str, ...]]] = [
    ("decoding (`JSONScanner`, `ScanningPageDecoder`, `KeySet`)",
     ("/JSON/JSONScanner", "/JSON/ScanningPageDecoder", "/JSON/KeySet", "/JSON/Ascii", "/JSON/BreedArena",
      "11JSONScanner", "19ScanningPageDecoder", "6KeySet", "5BreedV4scan", "10BreedArena", "17BreedArenaBuilder")),
    ("making Swift strings (the standard library's UTF-8 checks, string storage)",
     ("$sSS", "$ss22_allocateStringStorage", "$ss9_allASCII", "$ss15__StringStorage", "SS8UTF8View")),
    ("writing JSON for C (`JSONWriter`)", ("/JSON/JSONWriter", "/JSON/JSONOutput", "10JSONWriter")),
    ("laying breeds out in the C block (`CBreedBlock`, `CBlock`)", ("/CatFactsC/CBlock", "/CatFactsC/CBreedBlock",
                                                                    "11CBreedBlock", "6CBlock")),
    ("the response cache (SQLite, `ResponseStore`)", ("libsqlite3", "/Store/", "13ResponseStore", "6SQLite")),
    ("HTTP (libcurl, the transport, TLS libraries' set-up)", ("libcurl", "/Transport/", "CCurl", "libssl", "libcrypto",
                                                              "libgnutls", "libnghttp", "libtasn1")),
    ("malloc, free, memcpy, memset (libc)", ("/malloc/", "multiarch/mem")),
    ("reference counting (`swift_retain`, `swift_release`)", ("swift_retain", "swift_release", "swift_bridgeObject",
                                                              "RefCounts", "swift_unknownObject")),
    ("tasks, threads and locks (Swift concurrency, Dispatch, pthread)", ("swift_task", "swift_job", "swift::",
                                                                        "dispatch", "pthread", "nptl", "futex",
                                                                        "/Concurrency/", "libdispatch")),
    ("loading and linking (the dynamic linker)", ("ld-linux",)),
]


# Stages of a page call, with what they call (inclusive): (stage, pattern of the function, or
# of the object the library calls into). A stage's figure is its largest match (wrappers and
# thunks of one function hold the same instructions) or, for an object, every call into it.
STAGES: list[tuple[str, str]] = [
    ("decoding a page (`ScanningPageDecoder.decodePage`, the strings it makes included)", "19ScanningPageDecoderV06decodeE0_4from"),
    ("decoding a page into its arena (`ScanningPageDecoder.decodeBreedArena`)", "19ScanningPageDecoderV16decodeBreedArena"),
    ("making `Breed` values from arenas (`BreedArena.breeds`)", "10BreedArenaC6breeds"),
    ("laying the breeds out for C (`CBreedBlock.make`)", "11CBreedBlockO4make"),
    ("writing JSON for C (`JSONOutput`)", "10JSONOutputO6string"),
    ("storing pages in the cache (calls into SQLite)", "object:libsqlite3"),
    ("HTTP (calls into libcurl, the body's callbacks included)", "object:libcurl"),
]


@dataclass
class Profile:
    """One program's instructions: the total, the share of each category (own instructions),
    of each stage (with what it calls) and the functions with the most of their own."""
    total: int
    categories: list[tuple[str, float]]
    stages: list[tuple[str, float]]
    top: list[tuple[str, float]]


@dataclass
class Costs:
    """A callgrind output file read: each function's own instructions and, with what it
    calls, its inclusive ones (by function name), and the calls from the library's object
    into each other object (by object)."""
    own: dict[tuple[str, str, str], int]
    inclusive: dict[str, int]
    into_object: dict[str, int]


def self_costs(path: Path, library: str = "libCatFacts") -> Costs:
    """Reads a callgrind output file; own costs by (object, file, function)."""
    names: dict[str, dict[str, str]] = {"ob": {}, "fl": {}, "fn": {}}
    current = {"ob": "", "fl": "", "fn": ""}
    costs: dict[tuple[str, str, str], int] = {}
    inclusive: dict[str, int] = {}
    into_object: dict[str, int] = {}
    # The call being read: its function and object (cob= only when it differs from the
    # caller's), and whether the next cost line is its inclusive cost.
    callee_fn, callee_ob, in_call = "", "", False

    def name(kind: str, value: str) -> str:
        # Name compression: "(id) name" defines an id, "(id)" refers to it.
        match = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not match:
            return value
        if match.group(2) is not None:
            names[kind][match.group(1)] = match.group(2)
        return names[kind].get(match.group(1), value)

    with open(path, errors="replace") as lines:
        for line in lines:
            if line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                cost = int(parts[1]) if len(parts) >= 2 else 0
                if in_call:  # the inclusive cost of a call, not the caller's own
                    in_call = False
                    if callee_fn != current["fn"]:  # a recursive call is counted in the caller already
                        inclusive[current["fn"]] = inclusive.get(current["fn"], 0) + cost
                    callee = callee_ob or current["ob"]
                    if library in current["ob"] and callee != current["ob"]:
                        into_object[callee] = into_object.get(callee, 0) + cost
                    callee_ob = ""
                    continue
                costs[(current["ob"], current["fl"], current["fn"])] = \
                    costs.get((current["ob"], current["fl"], current["fn"]), 0) + cost
                inclusive[current["fn"]] = inclusive.get(current["fn"], 0) + cost
                continue
            kind, _, value = line.rstrip("\n").partition("=")
            if kind in ("ob", "fl", "fn"):
                current[kind] = name(kind, value)
            elif kind == "cob":
                callee_ob = name("ob", value)
            elif kind == "cfn":
                callee_fn = name("fn", value)
            elif kind in ("cfi", "cfl", "fi", "fe"):
                name("fl", value)  # a file named for later lines; the function's own file stays
            elif kind == "calls":
                in_call = True
    return Costs(costs, inclusive, into_object)


def demangle(symbols: list[str]) -> list[str]:
    tool = shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle"
    if not Path(tool).exists():
        return symbols
    out = subprocess.run([tool, "--simplified"], input="\n".join(symbols), capture_output=True, text=True).stdout
    lines = out.splitlines()
    return lines if len(lines) == len(symbols) else symbols


def summarize(read: Costs, top: int = 12) -> Profile:
    total = max(1, sum(read.own.values()))
    by_category: dict[str, int] = {}
    by_function: dict[str, int] = {}
    for (obj, file, function), cost in read.own.items():
        text = f"{obj} {file} {function}"
        category = next((title for title, patterns in CATEGORIES if any(p in text for p in patterns)), "other")
        by_category[category] = by_category.get(category, 0) + cost
        by_function[function] = by_function.get(function, 0) + cost
    shares = sorted(((title, 100 * cost / total) for title, cost in by_category.items()), key=lambda x: -x[1])
    heaviest = sorted(by_function.items(), key=lambda x: -x[1])[:top]
    names = demangle([function for function, _ in heaviest])
    stages = []
    for title, pattern in STAGES:
        if pattern.startswith("object:"):
            cost = sum(c for obj, c in read.into_object.items() if pattern.removeprefix("object:") in obj)
        else:
            cost = max((c for function, c in read.inclusive.items() if pattern in function), default=0)
        stages.append((title, 100 * cost / total))
    return Profile(total, shares, stages,
                   [(names[i][:110], 100 * cost / total) for i, (_, cost) in enumerate(heaviest)])


def run(command: list[str]) -> Profile:
    """`command` under `valgrind --tool=callgrind`; its profile (every thread counted)."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"callgrind of {command[0]} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
        return summarize(self_costs(out))
