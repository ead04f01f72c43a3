"""Pages and lists handed over a batch at a time (cf_breeds_page_items, cf_list_breeds): the
breeds must be exactly what the server sent, across page boundaries, with Unicode and absent
fields, whatever the batch sizes."""
from __future__ import annotations

import http.server
import json
import pickle
import threading
import urllib.request
from datetime import timezone
from typing import Any, Dict, Iterator, List, Optional

import pytest

import catfacts
from catfacts import Breed, Fact

from conftest import HANG_S, MakeMock, Mock

FIELDS = ("country", "origin", "coat", "pattern")


def served(url: str, limit: int = 1000, page: int = 1) -> Dict[str, Any]:
    """The server's own answer for a page, read without the library."""
    with urllib.request.urlopen(f"{url}/breeds?page={page}&limit={limit}", timeout=HANG_S) as response:
        answer: Dict[str, Any] = json.load(response)
    return answer


def as_breeds(data: List[Dict[str, str]]) -> List[Breed]:
    """The API's breeds as the package must give them: empty fields are None."""
    def field(item: Dict[str, str], key: str) -> Optional[str]:
        return item.get(key) or None
    return [Breed(item["breed"], *(field(item, key) for key in FIELDS)) for item in data]


@pytest.fixture(scope="module")
def synthetic() -> Iterator[Mock]:
    """A mock of 300 synthetic breeds: accented names (UTF-8 of more than one byte), absent fields."""
    mock = Mock("--breeds", "300")
    try:
        yield mock
    finally:
        mock.stop()


def test_a_page_holds_exactly_what_the_server_sent(synthetic: Mock) -> None:
    expected = as_breeds(served(synthetic.url)["data"])
    assert any(not breed.breed.isascii() for breed in expected)
    assert any(getattr(breed, key) is None for breed in expected for key in FIELDS)
    with catfacts.Client(synthetic.url, retries=0) as client:
        page = client.breeds_page(1, limit=300)
    assert list(page.items) == expected
    assert (page.page, page.last_page, page.per_page, page.total, page.source) == (1, 1, 300, 300, "network")
    assert page.fetched_at is not None and page.fetched_at.tzinfo == timezone.utc


def test_pages_meet_at_their_boundaries(synthetic: Mock) -> None:
    expected = as_breeds(served(synthetic.url)["data"])
    with catfacts.Client(synthetic.url, retries=0) as client:
        walked = [breed for number in range(1, 45) for breed in client.breeds_page(number, limit=7).items]
        last = client.breeds_page(43, limit=7)
    assert walked == expected
    assert (len(last.items), last.last_page, last.has_next) == (6, 43, False)  # 300 = 42 x 7 + 6


def test_a_page_past_the_end_is_empty(client: catfacts.Client) -> None:
    page = client.breeds_page(1000, limit=10)
    assert (page.items, page.page, page.total) == ((), 1000, 98)


@pytest.mark.parametrize("page_size", [1, 7, 10, 64, 300, 1000])
def test_iterating_a_list_gives_every_breed_once_in_order(synthetic: Mock, page_size: int) -> None:
    expected = as_breeds(served(synthetic.url)["data"])
    with catfacts.Client(synthetic.url, retries=0) as client, client.breeds(page_size=page_size) as breeds:
        assert list(breeds) == expected


def test_iterating_while_pages_are_dropped_keeps_every_breed(synthetic: Mock) -> None:
    expected = as_breeds(served(synthetic.url)["data"])
    with catfacts.Client(synthetic.url, retries=0) as client, \
            client.breeds(page_size=10, prefetch_distance=0, max_cached_items=10) as breeds:
        assert list(breeds) == expected


def test_an_iteration_started_mid_way_through_a_page_reads_on_from_there(synthetic: Mock) -> None:
    expected = as_breeds(served(synthetic.url)["data"])
    with catfacts.Client(synthetic.url, retries=0) as client, client.breeds(page_size=10) as breeds:
        assert breeds[13] == expected[13]  # page 2 loaded, then read from index 0 on
        walk = iter(breeds)
        assert [next(walk) for _ in range(25)] == expected[:25]
        assert list(walk) == expected[25:]


def test_a_batch_text_becomes_breeds_with_absent_fields_none() -> None:
    text = "Ébène\0Côte d’Ivoire\0\0Short\0\0Zed\0\0\0\0Ticked\0".encode()
    assert Breed._from_text(text, 2) == [Breed("Ébène", "Côte d’Ivoire", None, "Short", None),
                                         Breed("Zed", None, None, None, "Ticked")]
    assert Breed._from_text(b"", 0) == []


def test_a_batch_text_with_the_wrong_number_of_strings_is_refused() -> None:
    with pytest.raises(ValueError, match="holds 4 strings, not 5"):
        Breed._from_text(b"a\0b\0c\0d\0", 1)


def test_records_are_named_tuples_and_stay_frozen(client: catfacts.Client) -> None:
    breed = client.breeds_page(1, limit=1).items[0]
    assert not hasattr(breed, "__dict__") and type(breed) is Breed and isinstance(breed, tuple)
    name, country, *_ = breed
    assert (name, country) == ("Abyssinian", "Ethiopia") and breed._fields == ("breed", "country", "origin", "coat", "pattern")
    with pytest.raises(AttributeError):
        breed.breed = "Tabby"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(breed)) == breed
    assert hash(breed) == hash(Breed(breed.breed, breed.country, breed.origin, breed.coat, breed.pattern))
    fact = client.facts_page(1, limit=1).items[0]
    assert not hasattr(fact, "__dict__") and pickle.loads(pickle.dumps(fact)) == fact


def test_a_failed_page_in_an_iteration_raises_its_error(make_mock: MakeMock) -> None:
    mock = make_mock("--fail-rate", "1", "--faults", "500")
    with catfacts.Client(mock.url, retries=0) as client, client.breeds(page_size=10) as breeds:
        with pytest.raises(catfacts.HTTPError):
            list(breeds)


class _NulPage(http.server.BaseHTTPRequestHandler):
    """One page of /breeds whose strings hold NULs (JSON's \\u0000), as no real server sends."""

    BODY = json.dumps({
        "current_page": 1, "data": [
            {"breed": "Nul\u0000Cat", "country": "\u0000Atlantis", "origin": "Natural", "coat": "Short\u0000", "pattern": ""},
            {"breed": "Plain", "country": "Egypt", "origin": "", "coat": "", "pattern": "Ticked"},
        ],
        "first_page_url": "/breeds?page=1", "from": 1, "last_page": 1, "last_page_url": "/breeds?page=1", "links": [],
        "next_page_url": None, "path": "/breeds", "per_page": 2, "prev_page_url": None, "to": 2, "total": 2,
    }).encode()

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.BODY)))
        self.end_headers()
        self.wfile.write(self.BODY)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_strings_holding_a_nul_are_cut_there_and_keep_the_batch_aligned() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _NulPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with catfacts.Client(f"http://127.0.0.1:{server.server_address[1]}", retries=0) as client:
            page = client.breeds_page(1, limit=2)
    finally:
        server.shutdown()
        server.server_close()
    # As a C string reads them: the name up to its NUL, a field cut to nothing absent.
    assert list(page.items) == [Breed("Nul", None, "Natural", "Short", None),
                                Breed("Plain", "Egypt", None, None, "Ticked")]


def served_facts(url: str) -> List[Fact]:
    """The server's facts, read without the library."""
    with urllib.request.urlopen(f"{url}/facts?page=1&limit=1000", timeout=HANG_S) as response:
        data: List[Dict[str, Any]] = json.load(response)["data"]
    return [Fact(item["fact"], item["length"]) for item in data]


@pytest.mark.parametrize("page_size", [1, 7, 25, 1000])
def test_iterating_facts_gives_every_fact_once_in_order(mock_url: str, page_size: int) -> None:
    expected = served_facts(mock_url)
    assert len(expected) == 160 and any(not fact.text.isascii() for fact in expected)
    with catfacts.Client(mock_url, retries=0) as client, client.facts(page_size=page_size) as facts:
        assert list(facts) == expected


def test_a_facts_batch_text_becomes_facts_with_their_lengths() -> None:
    assert Fact._from_text("Cats nap.\0“Purr” ends\0".encode(), [9, 11]) == [Fact("Cats nap.", 9), Fact("“Purr” ends", 11)]
    with pytest.raises(ValueError, match="a batch of 1 facts holds 2 texts"):
        Fact._from_text(b"a\0b\0", [1])
