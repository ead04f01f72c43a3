"""Arguments as the library takes them: checked, converted, and refused with an error that
names the parameter. A leaf: it imports only the errors and the models."""
from __future__ import annotations

import math
import numbers
import os
import operator
from typing import Any, Dict, Iterable, List, Mapping, Optional

from .errors import ArgumentError
from .models import Breed

__all__ = ["DAY_S", "int64", "flag", "milliseconds", "encode", "readable_file", "search_fields", "query_json",
           "list_options"]

_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1

#: The library's ceiling for its timeouts (86400000 ms), in seconds.
DAY_S = 86400.0


def _shown(name: str, value: Any) -> str:
    """``name=value`` as a message names an argument (a long value cut short)."""
    text = repr(value)
    return f"{name}={text if len(text) <= 40 else text[:39] + '…'}"


def int64(value: Any, name: str) -> int:
    """``value`` as a C int64_t, or TypeError / ArgumentError saying which argument. A bool is
    not a number here, as in the library's options JSON (``retries=True`` is a mistake)."""
    if isinstance(value, bool):
        raise TypeError(f"{_shown(name, value)}: must be an integer, not bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{_shown(name, value)}: must be an integer, not {type(value).__name__}") from None
    if not _INT64_MIN <= number <= _INT64_MAX:
        raise ArgumentError(f"invalid argument: {name}={number}: does not fit in 64 bits")
    return number


def flag(value: Any, name: str) -> bool:
    """``value`` as the library's true or false, or TypeError: a number or a string is not a
    flag (``offline_fallback=1`` or ``'yes'`` is a mistake the library's options refuse too)."""
    if not isinstance(value, bool):
        raise TypeError(f"{_shown(name, value)}: must be True or False, not {type(value).__name__}")
    return value


def milliseconds(seconds: Any, name: str, *, zero: bool, highest: float) -> int:
    """Seconds as the library's whole milliseconds, or ArgumentError naming the parameter and
    its range in seconds. The library counts in milliseconds: a finer time (0.0005) is refused
    rather than rounded into another one; a bool is not a time."""
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise TypeError(f"{_shown(name, seconds)}: must be a number of seconds, not {type(seconds).__name__}")
    value = float(seconds)
    lowest = "0 or more" if zero else "more than 0"
    if not (math.isfinite(value) and (value >= 0 if zero else value > 0) and value <= highest):
        raise ArgumentError(f"invalid argument: {_shown(name, seconds)}: must be {lowest} seconds, at most {highest:.15g}")
    whole = round(value * 1000)
    if abs(value * 1000 - whole) > 1e-6 or whole == 0 and not zero:
        raise ArgumentError(f"invalid argument: {_shown(name, seconds)}: must be {lowest} seconds, at most {highest:.15g}, "
                            "in steps of 0.001 (the library counts milliseconds)")
    return whole


def encode(text: Any, name: str) -> bytes:
    """``text`` as the NUL-terminated UTF-8 the library reads, or TypeError / ArgumentError
    naming the parameter (a NUL inside would cut the text short; lone surrogates do not encode)."""
    if not isinstance(text, str):
        raise TypeError(f"{_shown(name, text)}: must be a str, not {type(text).__name__}")
    if "\0" in text:
        raise ArgumentError(f"invalid argument: {_shown(name, text)}: contains a NUL character")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ArgumentError(f"invalid argument: {_shown(name, text)}: is not valid Unicode ({error.reason})") from None


def readable_file(path: Any, name: str, what: str) -> str:
    """``path`` (a ``str`` or ``os.PathLike``) when it names a file this process can read, or
    TypeError / ArgumentError naming the parameter and saying ``what`` it should name."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{_shown(name, path)}: must be a str or a path, not {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise TypeError(f"{_shown(name, path)}: must be a str or a path, not {type(text).__name__}")
    encode(text, name)
    shown = f"{name}={text!r}"  # whole: a path cut short would not say which file
    if os.path.isdir(text):
        raise ArgumentError(f"invalid argument: {shown}: is a folder; name {what}")
    if not os.path.isfile(text) or not os.access(text, os.R_OK):
        raise ArgumentError(f"invalid argument: {shown}: cannot be read (no such file, or not readable); name {what}")
    return text


def search_fields(fields: Optional[Iterable[str]]) -> Optional[List[str]]:
    """``fields`` of ``search_session()`` as the library's option, or None for all."""
    if fields is None:
        return None
    if isinstance(fields, (str, bytes)):
        raise TypeError(f"{_shown('fields', fields)}: must be a sequence of field names, such as ('breed',), "
                        f"not {type(fields).__name__}")
    names = list(fields)
    for name in names:
        if name not in Breed._fields:
            raise ArgumentError(f"invalid argument: fields: unknown field {name!r}; "
                                f"known: {', '.join(Breed._fields)}")
    return names


def query_json(search: Optional[str], group_by: Optional[str], sort_by: Optional[str], descending: bool,
               where: Optional[Mapping[str, str]], present: Optional[Iterable[str]],
               limit: Optional[int]) -> Dict[str, Any]:
    """The query object of ``cf_breeds_query``, with only the keys given."""
    query: Dict[str, Any] = {}
    if search is not None:
        query["search"] = search
    if group_by is not None:
        query["group_by"] = group_by
    if sort_by is not None:
        query["sort_by"] = sort_by
    if descending:
        query["descending"] = True
    if where:
        query["where"] = dict(where)
    if present is not None:
        query["present"] = list(present)
    if limit is not None:
        query["limit"] = int64(limit, "limit")
    return query


def list_options(page_size: int, prefetch_distance: Optional[int],
                 max_cached_items: Optional[int]) -> Dict[str, Any]:
    """The options of ``cf_list_open`` shared by both collections; ``max_cached_items``
    defaults to 500, or more if the prefetch window needs it."""
    options: Dict[str, Any] = {"page_size": int64(page_size, "page_size")}
    if prefetch_distance is not None:
        options["prefetch_distance"] = int64(prefetch_distance, "prefetch_distance")
    if max_cached_items is None:
        distance = options.get("prefetch_distance", 2 * options["page_size"])
        max_cached_items = max(500, options["page_size"] + 2 * distance)
    options["max_cached_items"] = int64(max_cached_items, "max_cached_items")
    return options
