"""The values catfacts returns: breeds and facts as named tuples, pages and search answers as
frozen dataclasses that are also sequences of their records."""
from __future__ import annotations

import enum
import json
from abc import abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from itertools import repeat
from typing import (Any, Callable, Dict, Generic, Iterator, List, Mapping, NamedTuple, Optional, Tuple, TypeVar,
                    Union, overload)

from .errors import CatFactsError, error_for, python_message

__all__ = ["Breed", "Fact", "Page", "SearchResults", "ListEvent"]

# A record is a tuple subclass: ``tuple.__new__(Breed, fields)`` makes one in C, with no
# Python-level __init__ per record (a page holds thousands, so their cost is the loop's).
_new_record = tuple.__new__


class _BreedFields(NamedTuple):
    """The five fields of a :class:`Breed`, named as the C struct and the JSON name them."""

    breed: str
    country: Optional[str] = None
    origin: Optional[str] = None
    coat: Optional[str] = None
    pattern: Optional[str] = None


class Breed(_BreedFields):
    """A cat breed. Fields the API leaves out are None (never "").

    Its fields are named as in every other front (the C struct ``cf_breed``, the JSON,
    queries, search sessions, the shell's columns): ``breed``, ``country``, ``origin``,
    ``coat``, ``pattern``.

    A named tuple: immutable, hashable, compact (no per-breed ``__dict__``), read by
    attribute (``b.breed``); ``_replace(...)`` and ``_asdict()`` make changed copies
    and dicts. Being a tuple, it also unpacks (``breed, country, *_ = b``) and
    compares equal to a tuple of the same five values.
    """

    __slots__ = ()

    def __new__(cls, breed: Optional[str] = None, country: Optional[str] = None, origin: Optional[str] = None,
                coat: Optional[str] = None, pattern: Optional[str] = None) -> "Breed":
        if breed is None:
            raise TypeError("Breed() needs the breed's name: Breed(breed=...)")
        return _new_record(cls, (breed, country, origin, coat, pattern))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Breed":
        """A breed from the library's JSON object (keys as the fields)."""
        get = obj.get
        return _new_record(cls, (obj["breed"], get("country"), get("origin"), get("coat"), get("pattern")))

    @staticmethod
    def _from_text(text: bytes, count: int) -> List["Breed"]:
        """The ``count`` breeds of a ``cf_breed_array``'s text: five NUL-terminated UTF-8
        strings per breed (breed, country, origin, coat, pattern), an absent field empty.
        One decode and one split for the whole batch, then every record made in C
        (``map``/``zip`` over the strings, ``tuple.__new__`` per breed)."""
        strings = text.decode("utf-8", "replace").split("\0")
        if len(strings) != 5 * count + 1:
            raise ValueError(f"a batch of {count} breeds holds {len(strings) - 1} strings, not {5 * count}")
        strings.pop()  # after the last NUL
        # An absent field is "" in the text, None here (a list comprehension: dict.get would
        # hash every string, measured a quarter slower).
        fields = iter([string or None for string in strings])
        return list(map(_new_record, repeat(Breed, count), zip(fields, fields, fields, fields, fields)))

    def to_json(self) -> Dict[str, str]:
        """The breed as the library's JSON object, absent fields left out."""
        return {key: value for key, value in zip(self._fields, self) if value is not None}


class Fact(NamedTuple):
    """A cat fact and its length in characters, as the API counts it (a named tuple, as
    :class:`Breed`; ``str(fact)`` is its text)."""

    text: str
    length: int

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Fact":
        """A fact from the library's JSON object (``{"fact": ..., "length": ...}``)."""
        return _new_record(cls, (obj["fact"], obj["length"]))

    @staticmethod
    def _from_text(text: bytes, lengths: List[int]) -> List["Fact"]:
        """The facts of a ``cf_fact_array``: its text (one NUL-terminated UTF-8 string per
        fact) and the facts' lengths. One decode and one split for the whole batch."""
        strings = text.decode("utf-8", "replace").split("\0")
        if len(strings) != len(lengths) + 1:
            raise ValueError(f"a batch of {len(lengths)} facts holds {len(strings) - 1} texts")
        return list(map(_new_record, repeat(Fact, len(lengths)), zip(strings, lengths)))

    def __str__(self) -> str:
        return self.text


T = TypeVar("T", Breed, Fact)


def parse_time(text: Optional[str]) -> Optional[datetime]:
    if not text:
        return None
    if text.endswith("Z"):  # fromisoformat accepts "Z" only from Python 3.11
        text = text[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


class _Records(Generic[T]):
    """A value that carries a tuple of records and is a sequence of them: ``len(x)``,
    ``x[0]``, ``x[1:3]``, ``for record in x``."""

    __slots__ = ()

    @property
    @abstractmethod
    def _records(self) -> Tuple[T, ...]:
        """The records, in order."""

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[T]:
        return iter(self._records)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Tuple[T, ...]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[T, Tuple[T, ...]]:
        return self._records[index]

    def _shown(self, label: Callable[[T], str]) -> str:
        """The first three records as ``label`` names them, and how many more there are."""
        records = self._records
        shown = ", ".join(label(record) for record in records[:3])
        if len(records) > 3:
            shown += f", ... ({len(records) - 3} more)"
        return shown


@dataclass(frozen=True)
class Page(_Records[T]):
    """One page of breeds or facts.

    Attributes:
        items: the page's breeds or facts (empty past the last page).
        page: its number, from 1.
        last_page: the number of the last page.
        per_page: the page size the server applied (it may cap the limit asked for).
        total: the number of items in the whole collection.
        source: where the answer came from: "network", "cache" or "offline-catalog".
        fetched_at: when it was fetched (UTC), if the library said.

    A page is also a sequence of its items: ``len(page)``, ``page[0]``, ``for x in page``.
    """

    items: Tuple[T, ...]
    page: int
    last_page: int
    per_page: int
    total: int
    source: str
    fetched_at: Optional[datetime] = field(default=None, compare=False)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], item: "type[T]") -> "Page[T]":
        """A page from the library's JSON object; ``item`` is Breed or Fact."""
        make = item.from_json
        return cls(tuple([make(entry) for entry in obj.get("items", ())]), obj["page"], obj["last_page"],
                   obj["per_page"], obj["total"], obj.get("source", "network"), parse_time(obj.get("fetched_at")))

    @property
    def has_next(self) -> bool:
        """Whether a later page exists."""
        return self.page < self.last_page

    @property
    def _records(self) -> Tuple[T, ...]:
        return self.items

    def __repr__(self) -> str:
        shown = self._shown(repr)
        when = self.fetched_at.isoformat() if self.fetched_at else None
        return (f"Page(page={self.page}, last_page={self.last_page}, per_page={self.per_page}, "
                f"total={self.total}, source={self.source!r}, fetched_at={when!r}, items=[{shown}])")


class ListEvent(enum.IntEnum):
    """What happened to a range of a list's indices (``CF_EVENT_*``), as ``on_change`` reports it."""

    LOADED = 1
    """The items are loaded."""
    FAILED = 2
    """Their page failed to load; ``retry()`` loads it again."""
    DROPPED = 3
    """Dropped to stay within ``max_cached_items``; they load again when read."""


@dataclass(frozen=True)
class SearchResults(_Records[Breed]):
    """One answer of a search session: the breeds whose name starts with ``text``.

    Attributes:
        generation: which ``set()`` call it answers, counting from 1 (``session.generation``
            is the latest).
        text: the text searched.
        breeds: the matching breeds in name order, at most the session's ``limit``; empty
            when the search failed.
        source: where the breeds searched came from: "network", "cache" or
            "offline-catalog" (the bundled catalog, with ``offline_fallback``).
        error: why the breeds could not be loaded (a :class:`CatFactsError` such as
            :class:`NetworkError`), or None. The session goes on: the next ``set()`` tries
            to load them again. :meth:`raise_for_error` raises it.

    It is also a sequence of its breeds: ``len(results)``, ``results[0]``, ``for b in results``.
    """

    generation: int
    text: str
    breeds: Tuple[Breed, ...]
    source: str
    error: Optional[CatFactsError] = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        """Whether the search succeeded (``error`` is None)."""
        return self.error is None

    def raise_for_error(self) -> None:
        """Raises :attr:`error`, if the search failed."""
        if self.error is not None:
            raise self.error

    @classmethod
    def _from_library(cls, generation: int, status: int, results_json: bytes) -> "SearchResults":
        """The answer the C listener was given (``status`` and its JSON, see cf_search_listener)."""
        answer = json.loads(results_json.decode("utf-8", "replace"))
        text, source = answer.get("text", ""), answer.get("source", "network")
        if status == 0:
            breeds = tuple([Breed.from_json(item) for item in answer.get("items", ())])
            return cls(generation, text, breeds, source)
        error = error_for(status, python_message(answer.get("error", "")))
        return cls(generation, text, (), source, error)

    @property
    def _records(self) -> Tuple[Breed, ...]:
        return self.breeds

    def __repr__(self) -> str:
        outcome = f"error={self.error!r}" if self.error is not None else f"breeds=[{self._shown(_name)}]"
        return f"SearchResults(generation={self.generation}, text={self.text!r}, source={self.source!r}, {outcome})"


def _name(breed: Breed) -> str:
    return breed.breed
