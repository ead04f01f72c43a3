"""Finding libCatFacts and declaring its C functions for ctypes.

Every function of include/catfacts.h gets ``argtypes`` and ``restype`` here, so a wrong
argument is a Python ``ctypes.ArgumentError`` rather than a crash. Strings the library
hands out through ``char **`` are declared as ``c_void_p`` (not ``c_char_p``): ctypes would
otherwise copy them into ``bytes`` and drop the pointer, leaking it. :func:`take_string`
copies and frees them.

The library is looked for in this order: ``$CATFACTS_LIBRARY``; the copy a wheel bundles next
to this file (``libCatFacts.so.0``, its SONAME); the checkout's ``.build`` folders (when the
package is imported from the source tree); the system library path.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path
from typing import Any, List, Optional, Tuple

__all__ = ["lib", "library_path", "take_string", "CBreed", "CFact", "CBreedArray", "CBreedPage", "CFactArray", "CFactPage",
           "breeds_text", "facts_text",
           "METRICS_LISTENER", "LIST_LISTENER", "ONLINE_LISTENER", "SEARCH_LISTENER",
           "NO_METRICS_LISTENER", "NO_LIST_LISTENER"]

ENV_VAR = "CATFACTS_LIBRARY"

# _FILE_NAME: what `swift build` makes; _BUNDLED_NAME: what a wheel carries (the SONAME).
if sys.platform == "darwin":
    _FILE_NAME = "libCatFacts.dylib"
    _BUNDLED_NAME = "libCatFacts.0.dylib"
elif sys.platform == "win32":
    _FILE_NAME = "CatFacts.dll"
    _BUNDLED_NAME = "CatFacts.dll"
else:
    _FILE_NAME = "libCatFacts.so"
    _BUNDLED_NAME = "libCatFacts.so.0"

# Relative to the checkout: where `swift build` puts the library.
_BUILD_FOLDERS = (
    ".build/debug",
    ".build/release",
    ".build/x86_64-unknown-linux-gnu/debug",
    ".build/x86_64-unknown-linux-gnu/release",
)


def _checkout_root(start: Path) -> Optional[Path]:
    """The nearest folder above ``start`` holding Package.swift (the CatFacts checkout)."""
    for folder in start.parents:
        if (folder / "Package.swift").is_file():
            return folder
    return None


def _candidates() -> List[Path]:
    """Where the library may be, in the order it is looked for (after CATFACTS_LIBRARY)."""
    package = Path(__file__).resolve().parent
    places = [package / _BUNDLED_NAME]  # put there by the wheel build (setup.py)
    root = _checkout_root(package)
    if root is not None:
        places += [root / folder / _FILE_NAME for folder in _BUILD_FOLDERS]
    return places


def _load() -> "tuple[ctypes.CDLL, str]":
    override = os.environ.get(ENV_VAR)
    if override:
        try:
            return ctypes.CDLL(override), override
        except OSError as error:
            raise ImportError(
                f"catfacts: {ENV_VAR}={override!r} could not be loaded: {error}. "
                f"Point it at a built {_FILE_NAME}, or unset it to search the build folders."
            ) from error

    looked: List[str] = [f"${ENV_VAR} (not set)"]
    failures: List[str] = []
    for path in _candidates():
        looked.append(str(path))
        if path.is_file():
            try:
                return ctypes.CDLL(str(path)), str(path)
            except OSError as error:
                failures.append(f"{path}: {error}")

    system = ctypes.util.find_library("CatFacts")
    looked.append("the system library path (ctypes.util.find_library('CatFacts'))")
    if system:
        try:
            return ctypes.CDLL(system), system
        except OSError as error:
            failures.append(f"{system}: {error}")

    why = ("; ".join(failures) + ". ") if failures else ""
    raise ImportError(
        f"catfacts: cannot find {_FILE_NAME}. Looked in: " + ", ".join(looked) + ". " + why
        + "Build it in the checkout with `swift build --product CatFacts` (or `make`), "
        f"or set {ENV_VAR} to the library's path, or install a catfacts wheel (it bundles the library)."
    )


lib, library_path = _load()


class CBreed(ctypes.Structure):
    """``cf_breed``: five UTF-8 strings, NULL when absent."""
    _fields_ = [("breed", ctypes.c_char_p), ("country", ctypes.c_char_p),
                ("origin", ctypes.c_char_p), ("coat", ctypes.c_char_p),
                ("pattern", ctypes.c_char_p)]


class CFact(ctypes.Structure):
    """``cf_fact``: the text and its length."""
    _fields_ = [("fact", ctypes.c_char_p), ("length", ctypes.c_int64)]


class CBreedArray(ctypes.Structure):
    """``cf_breed_array``: breeds in one block; ``text`` holds their strings, five per breed,
    each followed by a NUL (an absent field empty)."""
    _fields_ = [("count", ctypes.c_int64), ("items", ctypes.POINTER(CBreed)),
                ("text", ctypes.c_void_p), ("text_size", ctypes.c_size_t)]


#: The fields cf_breed_page and cf_fact_page both start with: the page's numbers, its source
#: and when it was fetched; then comes the page's block of items.
_PAGE_NUMBERS: List[Tuple[str, Any]] = [
    ("page", ctypes.c_int64), ("last_page", ctypes.c_int64), ("per_page", ctypes.c_int64),
    ("total", ctypes.c_int64), ("source", ctypes.c_char_p), ("fetched_at_ms", ctypes.c_int64)]


class CBreedPage(ctypes.Structure):
    """``cf_breed_page``: a page of breeds as one block."""
    _fields_ = _PAGE_NUMBERS + [("breeds", CBreedArray)]


class CFactArray(ctypes.Structure):
    """``cf_fact_array``: facts in one block; ``text`` holds their texts, each followed by a NUL."""
    _fields_ = [("count", ctypes.c_int64), ("items", ctypes.POINTER(CFact)),
                ("text", ctypes.c_void_p), ("text_size", ctypes.c_size_t)]


class CFactPage(ctypes.Structure):
    """``cf_fact_page``: a page of facts as one block."""
    _fields_ = _PAGE_NUMBERS + [("facts", CFactArray)]


#: ``void (*)(void *ctx, const char *endpoint, double ms, cf_status s)``
METRICS_LISTENER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_double, ctypes.c_int)
#: ``void (*)(void *ctx, cf_event event, int64_t first, int64_t count)``; cf_event is a C enum, an int here
LIST_LISTENER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64)
#: ``void (*)(void *ctx, int online)``
ONLINE_LISTENER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int)
#: ``void (*)(void *ctx, int64_t generation, cf_status s, const char *results_json)``; the JSON is
#: borrowed for the call, and ``c_char_p`` copies it into ``bytes`` before the call returns.
SEARCH_LISTENER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_char_p)

#: NULL function pointers, to remove a listener (ctypes does not take None for a CFUNCTYPE).
NO_METRICS_LISTENER = METRICS_LISTENER()
NO_LIST_LISTENER = LIST_LISTENER()

_status = ctypes.c_int
_ptr = ctypes.c_void_p
_out = ctypes.POINTER(ctypes.c_void_p)
_i64 = ctypes.c_int64

_PROTOTYPES = {
    # library
    "cf_version": ([], ctypes.c_char_p),
    "cf_status_string": ([_status], ctypes.c_char_p),
    "cf_last_error": ([], ctypes.c_char_p),
    "cf_last_error_http_status": ([], ctypes.c_int32),
    "cf_last_error_retry_after_ms": ([], ctypes.c_int64),
    "cf_last_error_attempts": ([], ctypes.c_int32),
    "cf_free": ([_ptr], None),
    # client
    "cf_client_open": ([ctypes.c_char_p, ctypes.c_char_p, _out], _status),
    "cf_client_close": ([_ptr], None),
    "cf_client_interrupt": ([_ptr], None),
    "cf_client_set_online_listener": ([_ptr, ONLINE_LISTENER, _ptr], _status),
    "cf_client_set_trace_parent": ([_ptr, ctypes.c_char_p], _status),
    "cf_client_set_trace_context": ([_ptr, ctypes.c_char_p, ctypes.c_char_p], _status),
    # one-shot calls
    "cf_breeds_page": ([_ptr, _i64, _i64, _out], _status),
    "cf_breeds_page_items": ([_ptr, _i64, _i64, ctypes.POINTER(ctypes.POINTER(CBreedPage))], _status),
    "cf_facts_page": ([_ptr, _i64, _i64, _i64, _out], _status),
    "cf_facts_page_items": ([_ptr, _i64, _i64, _i64, ctypes.POINTER(ctypes.POINTER(CFactPage))], _status),
    "cf_fact_random": ([_ptr, _i64, _out], _status),
    "cf_breed_find": ([_ptr, ctypes.c_char_p, _out], _status),
    # queries
    "cf_breeds_query": ([_ptr, ctypes.c_char_p, _out], _status),
    # metrics
    "cf_metrics": ([_ptr, _out], _status),
    "cf_metrics_prometheus": ([_ptr, _out], _status),
    # the package reads the endpoints from cf_metrics' JSON; the block is declared as a pointer
    "cf_metrics_endpoints": ([_ptr, _out], _status),
    "cf_client_set_metrics_listener": ([_ptr, METRICS_LISTENER, _ptr], _status),
    # paged lists
    "cf_list_open": ([_ptr, ctypes.c_int, ctypes.c_char_p, _out], _status),
    "cf_list_count": ([_ptr], _i64),
    "cf_list_breed": ([_ptr, _i64, ctypes.POINTER(ctypes.POINTER(CBreed))], _status),
    "cf_list_breeds": ([_ptr, _i64, _i64, ctypes.POINTER(ctypes.POINTER(CBreedArray))], _status),
    "cf_list_fact": ([_ptr, _i64, ctypes.POINTER(ctypes.POINTER(CFact))], _status),
    "cf_list_facts": ([_ptr, _i64, _i64, ctypes.POINTER(ctypes.POINTER(CFactArray))], _status),
    "cf_list_wait": ([_ptr, _i64, _i64], _status),
    "cf_list_retry": ([_ptr], _status),
    "cf_list_set_listener": ([_ptr, LIST_LISTENER, _ptr], _status),
    "cf_list_close": ([_ptr], None),
    "cf_breed_free": ([ctypes.POINTER(CBreed)], None),
    # search as you type
    "cf_search_open": ([_ptr, ctypes.c_char_p, SEARCH_LISTENER, _ptr, _out], _status),
    "cf_search_set": ([_ptr, ctypes.c_char_p], _status),
    "cf_search_close": ([_ptr], None),
    "cf_fact_free": ([ctypes.POINTER(CFact)], None),
}

for _name, (_argtypes, _restype) in _PROTOTYPES.items():
    _function = getattr(lib, _name)
    _function.argtypes = _argtypes
    _function.restype = _restype


# CPython's PyUnicode_FromString, through a prototype of our own (setting argtypes on
# ``ctypes.pythonapi.PyUnicode_FromString`` would change it for every user in the process):
# the text decoded from the library's block in one copy, the ``str``, where ``string_at``
# and ``decode`` made two. Answers run to some 200 kB (a page of 1000 breeds as JSON).
_decode_utf8: Optional[Any] = None
if hasattr(ctypes, "pythonapi"):
    _decode_utf8 = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p)(("PyUnicode_FromString", ctypes.pythonapi))


def take_string(pointer: ctypes.c_void_p) -> str:
    """Decodes a string the library handed out (UTF-8; invalid bytes raise
    ``UnicodeDecodeError``) and frees it, whatever the decoding did."""
    address = pointer.value
    if not address:
        return ""
    try:
        if _decode_utf8 is not None:
            text: str = _decode_utf8(address)
            return text
        return ctypes.string_at(address).decode("utf-8")
    finally:
        lib.cf_free(address)
        pointer.value = None


def breeds_text(array: CBreedArray) -> bytes:
    """The text of a ``cf_breed_array`` (five NUL-terminated strings per breed), copied in
    one piece; the caller frees the block it lies in."""
    if not array.count:
        return b""
    return ctypes.string_at(array.text, array.text_size)


def facts_text(array: CFactArray) -> "tuple[bytes, List[int]]":
    """The texts of a ``cf_fact_array`` (NUL-terminated, in one piece) and the facts'
    lengths, read from the items array as raw int64s (``cf_fact`` is a pointer, then the
    length): two copies, no field access per fact. The caller frees the block."""
    if not array.count:
        return b"", []
    words = memoryview(ctypes.string_at(array.items, ctypes.sizeof(CFact) * array.count)).cast("q")
    stride, at = ctypes.sizeof(CFact) // 8, CFact.length.offset // 8
    return ctypes.string_at(array.text, array.text_size), words[at::stride].tolist()
