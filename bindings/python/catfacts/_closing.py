"""What every closable object of the package shares: ``with`` closes it, and its repr says
whether it is open."""
from __future__ import annotations

from abc import abstractmethod
from typing import Any, TypeVar

__all__ = ["Closing"]

_S = TypeVar("_S", bound="Closing")


class Closing:
    """A base for objects with ``close()`` and ``closed``: ``with obj:`` closes it on the way out."""

    __slots__ = ()

    @abstractmethod
    def close(self) -> None:
        """Releases what the object holds; calling it again does nothing."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""

    def __enter__(self: _S) -> _S:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def _state(self) -> str:
        """"closed" or "open", for the repr."""
        return "closed" if self.closed else "open"
