"""The values catfacts returns: breeds, facts and pages, as frozen dataclasses."""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Dict, Generic, Iterator, List, Mapping, Optional, Tuple, TypeVar, Union, overload

__all__ = ["Breed", "Fact", "Page", "ListEvent"]

# Frozen dataclasses refuse setattr; records are filled through object.__setattr__ instead.
_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True, init=False)
class Breed:
    """A cat breed. Fields the API leaves out are None (never "").

    A frozen dataclass with ``__slots__``: no per-breed ``__dict__``, so a page of
    thousands of breeds is made quickly and held compactly.
    """

    __slots__ = ("name", "country", "origin", "coat", "pattern")

    name: str
    country: Optional[str]
    origin: Optional[str]
    coat: Optional[str]
    pattern: Optional[str]

    def __init__(self, name: str, country: Optional[str] = None, origin: Optional[str] = None,
                 coat: Optional[str] = None, pattern: Optional[str] = None) -> None:
        _set(self, "name", name)
        _set(self, "country", country)
        _set(self, "origin", origin)
        _set(self, "coat", coat)
        _set(self, "pattern", pattern)

    def __reduce__(self) -> Tuple[Any, ...]:
        # Frozen slots refuse pickle's default restore (setattr); rebuild through __init__.
        return (Breed, (self.name, self.country, self.origin, self.coat, self.pattern))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Breed":
        """A breed from the library's JSON object (its name is under ``"breed"``)."""
        get = obj.get
        return cls(obj["breed"], get("country"), get("origin"), get("coat"), get("pattern"))

    @classmethod
    def _adopt(cls, obj: Dict[str, Any]) -> "Breed":
        """``from_json`` for a dict fresh from json.loads, without ``__init__``."""
        get = obj.get
        breed = _new(Breed)
        _SET_NAME(breed, obj["breed"])
        _SET_COUNTRY(breed, get("country"))
        _SET_ORIGIN(breed, get("origin"))
        _SET_COAT(breed, get("coat"))
        _SET_PATTERN(breed, get("pattern"))
        return breed

    @staticmethod
    def _from_text(text: bytes, count: int) -> List["Breed"]:
        """The ``count`` breeds of a ``cf_breed_array``'s text: five NUL-terminated UTF-8
        strings per breed (breed, country, origin, coat, pattern), an absent field empty.
        One decode and one split for the whole batch, then a record per breed without
        ``__init__`` (about half the cost of calling it)."""
        strings = text.decode("utf-8", "replace").split("\0")
        if len(strings) != 5 * count + 1:
            raise ValueError(f"a batch of {count} breeds holds {len(strings) - 1} strings, not {5 * count}")
        fields = iter(strings)
        new, name, country, origin, coat, pattern = (
            _new, _SET_NAME, _SET_COUNTRY, _SET_ORIGIN, _SET_COAT, _SET_PATTERN)
        breeds: List[Breed] = []
        append = breeds.append
        for n, c, o, co, p in zip(fields, fields, fields, fields, fields):
            breed = new(Breed)
            name(breed, n)
            country(breed, c or None)
            origin(breed, o or None)
            coat(breed, co or None)
            pattern(breed, p or None)
            append(breed)
        return breeds

    def to_json(self) -> Dict[str, str]:
        """The breed as the library's JSON object, absent fields left out."""
        out = {"breed": self.name, "country": self.country, "origin": self.origin,
               "coat": self.coat, "pattern": self.pattern}
        return {key: value for key, value in out.items() if value is not None}


# The slots' own setters: they fill a new Breed without passing its frozen __setattr__.
_SET_NAME: Callable[[Breed, str], None] = vars(Breed)["name"].__set__
_SET_COUNTRY: Callable[[Breed, Optional[str]], None] = vars(Breed)["country"].__set__
_SET_ORIGIN: Callable[[Breed, Optional[str]], None] = vars(Breed)["origin"].__set__
_SET_COAT: Callable[[Breed, Optional[str]], None] = vars(Breed)["coat"].__set__
_SET_PATTERN: Callable[[Breed, Optional[str]], None] = vars(Breed)["pattern"].__set__


@dataclass(frozen=True, init=False)
class Fact:
    """A cat fact and its length in characters, as the API counts it (a frozen dataclass
    with ``__slots__``, as :class:`Breed`)."""

    __slots__ = ("text", "length")

    text: str
    length: int

    def __init__(self, text: str, length: int) -> None:
        _set(self, "text", text)
        _set(self, "length", length)

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Fact, (self.text, self.length))

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> "Fact":
        """A fact from the library's JSON object (``{"fact": ..., "length": ...}``)."""
        return cls(obj["fact"], obj["length"])

    @classmethod
    def _adopt(cls, obj: Dict[str, Any]) -> "Fact":
        """``from_json`` for a dict fresh from json.loads, without ``__init__``."""
        fact = _new(Fact)
        _SET_TEXT(fact, obj["fact"])
        _SET_LENGTH(fact, obj["length"])
        return fact

    @staticmethod
    def _from_text(text: bytes, lengths: List[int]) -> List["Fact"]:
        """The facts of a ``cf_fact_array``: its text (one NUL-terminated UTF-8 string per
        fact) and the facts' lengths. One decode and one split for the whole batch."""
        strings = text.decode("utf-8", "replace").split("\0")
        if len(strings) != len(lengths) + 1:
            raise ValueError(f"a batch of {len(lengths)} facts holds {len(strings) - 1} texts")
        facts: List[Fact] = []
        append, new, set_text, set_length = facts.append, _new, _SET_TEXT, _SET_LENGTH
        for fact_text, length in zip(strings, lengths):
            fact = new(Fact)
            set_text(fact, fact_text)
            set_length(fact, length)
            append(fact)
        return facts

    def __str__(self) -> str:
        return self.text


_SET_TEXT: Callable[[Fact, str], None] = vars(Fact)["text"].__set__
_SET_LENGTH: Callable[[Fact, int], None] = vars(Fact)["length"].__set__


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
        """``from_json`` for an object fresh from json.loads (the items made without
        ``__init__``: pages hold thousands of items, so their cost counts)."""
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
