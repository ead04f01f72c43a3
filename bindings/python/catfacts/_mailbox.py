"""Where a search session's answers wait for their reader, for both fronts: the newest-text
rule (an answer is handed out only while its text is still the latest one set) and the
reader's deadline. :class:`SearchSession` uses a mailbox under its lock from library
threads; :class:`AsyncSearchSession` uses one on its event loop only."""
from __future__ import annotations

import time
from typing import Callable, Optional

from .errors import CancelledError
from .models import SearchResults

__all__ = ["Mailbox", "Deadline"]


class Mailbox:
    """The latest text's generation, and the answer to it that was not read yet.

    Not locked by itself: its user either holds a lock around every use or stays on one
    thread. ``wake()`` is called when an answer arrives or the mailbox closes, to wake a
    waiting reader.
    """

    __slots__ = ("generation", "closed", "unread", "_wake")

    def __init__(self, wake: Callable[[], None]) -> None:
        self.generation = 0  # of the latest set(); the library numbers them the same way
        self.closed = False
        self.unread: Optional[SearchResults] = None
        self._wake = wake

    def wants(self, generation: int) -> bool:
        """Whether an answer to ``generation`` may still be handed out: its text is the latest."""
        return not self.closed and generation >= self.generation

    def typed(self) -> None:
        """A new text was set: an unread answer to an earlier one is dropped."""
        self.generation += 1
        self.unread = None

    def put(self, results: SearchResults) -> None:
        """Keeps ``results`` for the reader, if its text is still the latest."""
        if self.wants(results.generation):
            self.unread = results
            self._wake()

    def take(self) -> Optional[SearchResults]:
        """The unread answer, now read; None if there is none.

        Raises:
            CancelledError: the mailbox is closed (so is its session).
        """
        if self.closed:
            raise CancelledError("the search session is closed")
        results, self.unread = self.unread, None
        return results

    def close(self) -> bool:
        """Drops the unread answer and wakes the readers, who then raise; whether it was open."""
        if self.closed:
            return False
        self.closed = True
        self.unread = None
        self._wake()
        return True


class Deadline:
    """The end of a reader's wait of ``timeout`` seconds (None: no end)."""

    __slots__ = ("_at",)

    def __init__(self, timeout: Optional[float]) -> None:
        self._at = None if timeout is None else time.monotonic() + float(timeout)

    def left(self) -> Optional[float]:
        """Seconds left (0 or less once it passed); None if the wait has no end."""
        return None if self._at is None else self._at - time.monotonic()
