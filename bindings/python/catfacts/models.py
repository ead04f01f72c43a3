"""The values catfacts returns: breeds, facts and pages, as frozen dataclasses."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Dict, Generic, Iterator, Mapping, Optional, Tuple, TypeVar, Union, overload

__all__ = ["Breed", "Fact", "Page", "ListEvent"]

# Frozen dataclasses refuse setattr; these make one from a dict without it (see Breed._adopt).
_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True)
class Breed:
    """A cat breed. Fields the API leaves out are None (never "")."""

    name: str
    country: Optional[str] = None
    origin: Optional[str] = None
    coat: Optional[str] = None
    pattern: Optional[str] = None

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Breed":
        """A breed from the library's JSON object (its name is under ``"breed"``)."""
        get = obj.get
        return cls(obj["breed"], get("country"), get("origin"), get("coat"), get("pattern"))

    @classmethod
    def _adopt(cls, obj: Dict[str, Any]) -> "Breed":
        """``from_json`` for a dict fresh from json.loads, which becomes the breed's own
        attribute dict (``breed`` renamed ``name``; absent fields fall back to the class
        defaults, None): no __init__, no per-field setattr, about half the cost."""
        breed = _new(cls)
        obj["name"] = obj.pop("breed")
        _set(breed, "__dict__", obj)
        return breed

    def to_json(self) -> Dict[str, str]:
        """The breed as the library's JSON object, absent fields left out."""
        out = {"breed": self.name, "country": self.country, "origin": self.origin,
               "coat": self.coat, "pattern": self.pattern}
        return {key: value for key, value in out.items() if value is not None}


@dataclass(frozen=True)
class Fact:
    """A cat fact and its length in characters, as the API counts it."""

    text: str
    length: int

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Fact":
        """A fact from the library's JSON object (``{"fact": ..., "length": ...}``)."""
        return cls(obj["fact"], obj["length"])

    @classmethod
    def _adopt(cls, obj: Dict[str, Any]) -> "Fact":
        """``from_json`` for a dict fresh from json.loads (see ``Breed._adopt``)."""
        fact = _new(cls)
        obj["text"] = obj.pop("fact")
        _set(fact, "__dict__", obj)
        return fact

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


@dataclass(frozen=True)
class Page(Generic[T]):
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
        return cls._made(obj, item.from_json)

    @classmethod
    def _adopt(cls, obj: Dict[str, Any], item: "type[T]") -> "Page[T]":
        """``from_json`` for an object fresh from json.loads, whose item dicts the items
        take over (the library's pages: thousands of items, so their cost counts)."""
        return cls._made(obj, item._adopt)

    @classmethod
    def _made(cls, obj: Mapping[str, Any], make: Callable[[Any], T]) -> "Page[T]":
        return cls(tuple([make(entry) for entry in obj.get("items", ())]), obj["page"], obj["last_page"],
                   obj["per_page"], obj["total"], obj.get("source", "network"), parse_time(obj.get("fetched_at")))

    @property
    def has_next(self) -> bool:
        """Whether a later page exists."""
        return self.page < self.last_page

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Tuple[T, ...]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[T, Tuple[T, ...]]:
        return self.items[index]

    def __repr__(self) -> str:
        shown = ", ".join(repr(item) for item in self.items[:3])
        if len(self.items) > 3:
            shown += f", ... ({len(self.items) - 3} more)"
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
