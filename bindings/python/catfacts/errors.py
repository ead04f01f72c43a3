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

__all__ = [
    "Status", "CatFactsError", "ArgumentError", "NetworkError", "TimeoutError", "HTTPError",
    "RateLimitedError", "DecodeError", "NotFoundError", "OfflineError", "CancelledError",
    "InternalError", "error_for",
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
    """

    status: Status = Status.ERR_INTERNAL

    def __init__(self, message: str) -> None:
        # One argument only: the OSError-derived subclasses read two as (errno, strerror).
        super().__init__(message)
        self.message = message

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
    """No complete answer within the timeout (``CF_ERR_TIMEOUT``)."""

    status = Status.ERR_TIMEOUT


class HTTPError(CatFactsError):
    """The server answered an error status (``CF_ERR_HTTP``).

    Attributes:
        http_status: the HTTP status code, when the message gives it (else None).
    """

    status = Status.ERR_HTTP

    @property
    def http_status(self) -> Optional[int]:
        match = re.search(r"\bHTTP (\d{3})\b", self.message)
        return int(match.group(1)) if match else None


class RateLimitedError(HTTPError):
    """The server answered 429 after every retry (``CF_ERR_RATE_LIMITED``).

    Attributes:
        retry_after: seconds the server asked to wait (``Retry-After``), when given.
    """

    status = Status.ERR_RATE_LIMITED

    @property
    def http_status(self) -> Optional[int]:
        return 429

    @property
    def retry_after(self) -> Optional[float]:
        match = re.search(r"retry after ([0-9.]+) s", self.message)
        return float(match.group(1)) if match else None


class DecodeError(CatFactsError, ValueError):
    """The body was not what the API sends, or too large (``CF_ERR_DECODE``)."""

    status = Status.ERR_DECODE


class NotFoundError(CatFactsError, LookupError):
    """No such breed (``CF_ERR_NOT_FOUND``)."""

    status = Status.ERR_NOT_FOUND


class OfflineError(CatFactsError):
    """Offline, and nothing cached or bundled can answer (``CF_ERR_OFFLINE``)."""

    status = Status.ERR_OFFLINE


class CancelledError(CatFactsError):
    """The call was cancelled: its client or list was closed (``CF_ERR_CANCELLED``)."""

    status = Status.ERR_CANCELLED


class InternalError(CatFactsError):
    """A bug in libCatFacts (``CF_ERR_INTERNAL``); please report the message."""

    status = Status.ERR_INTERNAL


_BY_STATUS: Dict[int, Type[CatFactsError]] = {
    cls.status: cls
    for cls in (ArgumentError, NetworkError, TimeoutError, HTTPError, RateLimitedError, DecodeError,
                NotFoundError, OfflineError, CancelledError, InternalError)
}


def error_for(status: int, message: str) -> CatFactsError:
    """The exception for a failed call's status and message.

    A status this version does not know (or CF_OK/CF_PENDING where an error was expected)
    gives an :class:`InternalError` naming it.
    """
    cls = _BY_STATUS.get(status)
    if cls is None:
        return InternalError(f"unexpected status {status} from libCatFacts: {message}".rstrip(": "))
    return cls(message or str(Status(status)))
