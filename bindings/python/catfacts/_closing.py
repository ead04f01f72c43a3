"""What every closable object of the package shares: ``with`` closes it, and its repr says
whether it is open."""
from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["Closing"]

_S = TypeVar("_S", bound="Closing")


class Closing:
    """A base for objects with ``close()`` and ``closed``: ``with obj:`` closes it on the way out."""

    __slots__ = ()

    def close(self) -> None:
        raise NotImplementedError

    @property
    def closed(self) -> bool:
        raise NotImplementedError

    def __enter__(self: _S) -> _S:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _state(self) -> str:
        """"closed" or "open", for the repr."""
        return "closed" if self.closed else "open"
