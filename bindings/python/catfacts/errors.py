"""The exceptions of catfacts: one root, one class per ``cf_status`` error.

Each class also derives from the built-in exception it resembles, so plain
``except ConnectionError`` / ``except TimeoutError`` / ``except LookupError`` /
``except ValueError`` clauses catch what they should.
"""
from __future__ import annotations

import builtins
import enum
import re
from typing import Dict, Optional, Type

from ._native import lib

__all__ = [
    "Status", "CatFactsError", "ArgumentError", "NetworkError", "TimeoutError", "Timeout", "HTTPError",
    "RateLimitedError", "DecodeError", "NotFoundError", "OfflineError", "CancelledError",
    "InternalError", "error_for", "last_error", "error_of", "check",
]


class Status(enum.IntEnum):
    """The ``cf_status`` codes of include/catfacts.h."""

    OK = 0
    PENDING = 1
    ERR_ARGUMENT = 2
    ERR_NETWORK = 3
    ERR_TIMEOUT = 4
    ERR_HTTP = 5
    ERR_RATE_LIMITED = 6
    ERR_DECODE = 7
    ERR_NOT_FOUND = 8
    ERR_OFFLINE = 9
    ERR_CANCELLED = 10
    ERR_INTERNAL = 11

    def __str__(self) -> str:
        return f"CF_{self.name}"


class CatFactsError(Exception):
    """Root of every catfacts error.

    Attributes:
        status: the :class:`Status` the C call returned.
        message: the library's explanation (``cf_last_error()``): what failed, why,
            and where (the URL, key, page or name).
        status_code: the HTTP status the server answered (404, 429, 503, ...), when the
            failure was one; else None.
        retry_after: seconds the server asked to wait (``Retry-After``, with a 429 or a
            503), when it sent one; else None.
        attempts: requests the failed call sent (1 plus its retries); 0 when it sent none.
    These come from the library's error fields (``cf_last_error_http_status`` and the
    others), never from the message's text.
    """

    status: Status = Status.ERR_INTERNAL

    def __init__(self, message: str, *, status_code: Optional[int] = None, retry_after: Optional[float] = None,
                 attempts: int = 0) -> None:
        # One positional argument only: the OSError-derived subclasses read two as (errno, strerror).
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.retry_after = retry_after
        self.attempts = attempts

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class ArgumentError(CatFactsError, ValueError):
    """A bad argument or option (``CF_ERR_ARGUMENT``); the message names it."""

    status = Status.ERR_ARGUMENT


class NetworkError(CatFactsError, builtins.ConnectionError):
    """The server could not be reached, or the connection broke (``CF_ERR_NETWORK``)."""

    status = Status.ERR_NETWORK


class TimeoutError(CatFactsError, builtins.TimeoutError):
    """No complete answer in time (``CF_ERR_TIMEOUT``): the call's ``timeout`` passed, or
    one attempt's ``attempt_timeout``, or the ``connect_timeout``. Also ``catfacts.Timeout``."""

    status = Status.ERR_TIMEOUT


#: The name ``requests`` users know; the same class.
Timeout = TimeoutError


class HTTPError(CatFactsError):
    """The server answered an error status (``CF_ERR_HTTP``).

    Attributes:
        http_status: the HTTP status code (the same as ``status_code``).
    """

    status = Status.ERR_HTTP

    @property
    def http_status(self) -> Optional[int]:
        return self.status_code


class RateLimitedError(HTTPError):
    """The server answered 429 after every retry (``CF_ERR_RATE_LIMITED``).

    ``status_code`` is 429; ``retry_after`` the seconds the server asked to wait, when given.
    """

    status = Status.ERR_RATE_LIMITED


class DecodeError(CatFactsError, ValueError):
    """The body was not what the API sends, or too large (``CF_ERR_DECODE``)."""

    status = Status.ERR_DECODE


class NotFoundError(CatFactsError, LookupError):
    """No such breed (``CF_ERR_NOT_FOUND``)."""

    status = Status.ERR_NOT_FOUND


class OfflineError(CatFactsError, builtins.ConnectionError):
    """Offline, and nothing cached or bundled can answer (``CF_ERR_OFFLINE``).

    A ``ConnectionError``, as :class:`NetworkError` is: ``except ConnectionError`` catches both.
    """

    status = Status.ERR_OFFLINE


class CancelledError(CatFactsError):
    """The call was cancelled (``CF_ERR_CANCELLED``): its client or list was closed, or
    another thread's Ctrl-C interrupted the calls on the same client."""

    status = Status.ERR_CANCELLED


class InternalError(CatFactsError):
    """A bug in libCatFacts (``CF_ERR_INTERNAL``); please report the message."""

    status = Status.ERR_INTERNAL


_BY_STATUS: Dict[int, Type[CatFactsError]] = {
    cls.status: cls
    for cls in (ArgumentError, NetworkError, TimeoutError, HTTPError, RateLimitedError, DecodeError,
                NotFoundError, OfflineError, CancelledError, InternalError)
}


def error_for(status: int, message: str, *, status_code: Optional[int] = None,
              retry_after: Optional[float] = None, attempts: int = 0) -> CatFactsError:
    """The exception for a failed call's status, message and fields.

    A status this version does not know (or CF_OK/CF_PENDING where an error was expected)
    gives an :class:`InternalError` naming it.
    """
    cls = _BY_STATUS.get(status)
    if cls is None:
        return InternalError(f"unexpected status {status} from libCatFacts: {message}".rstrip(": "))
    return cls(message or str(Status(status)), status_code=status_code, retry_after=retry_after, attempts=attempts)


# The library's messages name an option by its key in the C API, in a slot of one of a few
# templates: a key of an options object ("'retries' in client options must be in 0..100;
# got -1"), or the option to raise after a timeout ("raise deadline_ms to wait longer", the
# library's ClientOption). A Python caller set a keyword argument instead: each key as the
# keyword that sets it (the keys not listed are spelled as their keywords).
_KEYWORD = {"deadline_ms": "timeout", "connect_timeout_ms": "connect_timeout", "timeout_ms": "attempt_timeout",
            "cache_ttl_ms": "cache_ttl", "debounce_ms": "debounce", "group_by": "by"}
_OPTIONS = r"'(\w+)' in (?:client options|list options|search options|the query)"
_OUT_OF_RANGE = re.compile(_OPTIONS + r" must be in (-?\d+\.\.-?\d+); got (-?\d+)")
_OPTION_SAYS = re.compile(_OPTIONS + " ")
_RAISE = re.compile(r"\braise (\w+) to wait longer\b")
_C_OPTION = re.compile(r"\b(deadline_ms|connect_timeout_ms|timeout_ms|cache_ttl_ms)\b")
_DEADLINE = re.compile(r"\bdeadline of (\d+) ms\b")


def _keyword(key: str) -> str:
    return _KEYWORD.get(key, key)


def python_message(message: str) -> str:
    """The library's message in the Python keywords' words: ``'retries' in client options
    must be in 0..100; got -1`` is ``retries=-1: must be in 0..100``, ``raise deadline_ms``
    is ``raise timeout=`` (the deadline in seconds), ``timeout_ms`` is ``attempt_timeout``."""
    message = _OUT_OF_RANGE.sub(lambda found: f"{_keyword(found[1])}={found[3]}: must be in {found[2]}", message)
    message = _OPTION_SAYS.sub(lambda found: f"{_keyword(found[1])}: ", message)
    message = _RAISE.sub(lambda found: f"raise {_keyword(found[1])}= to wait longer", message)
    message = _DEADLINE.sub(lambda found: f"timeout of {int(found[1]) / 1000:g} s", message)
    return _C_OPTION.sub(lambda found: _KEYWORD[found[1]], message)


def last_error(status: int) -> CatFactsError:
    """The exception for ``status``, with this thread's ``cf_last_error()`` message and
    error fields (HTTP status, Retry-After, attempts).

    Call it right after the failed call, on the same thread, before any other ``cf_`` call.
    """
    message = python_message((lib.cf_last_error() or b"").decode("utf-8", "replace"))
    http_status = int(lib.cf_last_error_http_status())
    retry_after_ms = int(lib.cf_last_error_retry_after_ms())
    return error_for(status, message, status_code=http_status or None,
                     retry_after=retry_after_ms / 1000 if retry_after_ms >= 0 else None,
                     attempts=int(lib.cf_last_error_attempts()))


def error_of(status: int) -> Optional[CatFactsError]:
    """The error a call's ``status`` stands for, ``None`` for ``CF_OK``: :func:`last_error`
    when it failed. The same rule as there: right after the call, on its thread."""
    return last_error(status) if status else None


def check(status: int) -> None:
    """Raises the error a call's ``status`` stands for (:func:`error_of`); nothing for ``CF_OK``."""
    error = error_of(status)
    if error is not None:
        raise error
