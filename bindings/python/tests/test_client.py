"""Client: the one-shot calls, their typed results, arguments and lifetime."""
from __future__ import annotations

import datetime
import pickle
from typing import Callable, Dict, List

import pytest

import catfacts
from catfacts import Breed, Fact, Page

from conftest import MakeMock

ABYSSINIAN = Breed("Abyssinian", "Ethiopia", "Natural/Standard", "Short", "Ticked")
AEGEAN = Breed("Aegean", "Greece", "Natural/Standard", "Semi-long", "Bicolor")


def test_first_page_holds_the_first_two_bundled_breeds(client: catfacts.Client) -> None:
    page = client.breeds_page(1, limit=2)
    assert isinstance(page, Page)
    assert page.items == (ABYSSINIAN, AEGEAN)
    assert (page.page, page.last_page, page.per_page, page.total) == (1, 49, 2, 98)
    assert page.source == "network"
    assert isinstance(page.fetched_at, datetime.datetime) and page.fetched_at.tzinfo is not None


def test_page_two_of_five_is_breeds_six_to_ten(client: catfacts.Client, all_breeds: List[catfacts.Breed]) -> None:
    page = client.breeds_page(2, limit=5)
    assert list(page.items) == all_breeds[5:10]
    assert page.page == 2 and page.per_page == 5 and page.last_page == 20


def test_defaults_are_page_one_of_twenty_five(client: catfacts.Client, all_breeds: List[catfacts.Breed]) -> None:
    page = client.breeds_page()
    assert list(page.items) == all_breeds[:25] and page.per_page == 25


def test_a_page_past_the_end_is_empty_not_an_error(client: catfacts.Client) -> None:
    page = client.breeds_page(100, limit=5)
    assert page.items == () and page.total == 98 and not page.has_next


def test_absent_breed_fields_are_none(all_breeds: List[catfacts.Breed]) -> None:
    arabian_mau = next(breed for breed in all_breeds if breed.breed == "Arabian Mau")
    assert arabian_mau.pattern is None
    assert arabian_mau.to_json() == {"breed": "Arabian Mau", "country": "United Arab Emirates",
                                     "origin": "Natural", "coat": "Short"}


def test_page_is_a_sequence_of_its_items_with_a_readable_repr(client: catfacts.Client) -> None:
    page = client.breeds_page(1, limit=5)
    assert len(page) == 5 and page[0] == ABYSSINIAN and list(page)[1] == AEGEAN and page[:2] == (ABYSSINIAN, AEGEAN)
    text = repr(page)
    assert text.startswith("Page(page=1, last_page=20, per_page=5, total=98, source='network'")
    assert "Breed(breed='Abyssinian'" in text and "(2 more)" in text


def test_results_are_immutable_named_records(client: catfacts.Client) -> None:
    breed = client.breeds_page(1, limit=1).items[0]
    with pytest.raises(AttributeError):
        breed.breed = "Tiger"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        breed.breed = "Tiger"  # type: ignore[misc]
    assert hash(breed) == hash(ABYSSINIAN)
    assert repr(breed) == ("Breed(breed='Abyssinian', country='Ethiopia', origin='Natural/Standard', "
                           "coat='Short', pattern='Ticked')")


def test_breed_is_the_field_name_and_the_only_one() -> None:
    made = Breed("Siamese", "Thailand", "Natural", "Short", "Colorpoint")
    assert Breed._fields == ("breed", "country", "origin", "coat", "pattern")
    assert made.breed == made[0] == "Siamese"
    assert not hasattr(made, "name")
    assert Breed(breed="Siamese", country="Thailand", origin="Natural", coat="Short", pattern="Colorpoint") == made
    assert made._replace(breed="Thai") == ("Thai", "Thailand", "Natural", "Short", "Colorpoint")
    breed, country, *rest = made  # unpacking keeps its order
    assert (breed, country, rest) == ("Siamese", "Thailand", ["Natural", "Short", "Colorpoint"])
    assert made._asdict() == made.to_json() == {"breed": "Siamese", "country": "Thailand", "origin": "Natural",
                                                "coat": "Short", "pattern": "Colorpoint"}
    assert pickle.loads(pickle.dumps(made)) == made and type(pickle.loads(pickle.dumps(made))) is Breed
    with pytest.raises(TypeError):
        Breed(name="Siamese")  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        made._replace(name="Thai")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"Breed\(breed=\.\.\.\)"):
        Breed()


def test_page_items_behave_like_constructed_values(client: catfacts.Client) -> None:
    # Pages build their items straight from the parsed JSON (no __init__): nothing may tell.
    aegean = next(b for b in client.breeds_page(1, limit=10).items if b.breed == "Aegean")
    made = Breed("Aegean", "Greece", "Natural/Standard", "Semi-long", "Bicolor")
    assert aegean == made and hash(aegean) == hash(made)
    assert aegean._asdict() == made._asdict() == {"breed": "Aegean", "country": "Greece", "origin": "Natural/Standard",
                                                  "coat": "Semi-long", "pattern": "Bicolor"}
    assert aegean._replace(coat=None) == Breed("Aegean", "Greece", "Natural/Standard", None, "Bicolor")
    assert pickle.loads(pickle.dumps(aegean)) == made
    fact = client.facts_page(1, limit=1).items[0]
    assert fact == Fact(fact.text, fact.length) and fact._asdict() == {"text": fact.text, "length": fact.length}
    with pytest.raises(AttributeError):
        fact.text = "x"  # type: ignore[misc]


def test_breed_is_found_ignoring_case_and_blanks(client: catfacts.Client) -> None:
    assert client.breed("  aBYSSINIAN ") == ABYSSINIAN
    assert client.breed("Aegean") == AEGEAN


def test_an_unknown_breed_raises_not_found(client: catfacts.Client) -> None:
    with pytest.raises(catfacts.NotFoundError) as caught:
        client.breed("Sabre-toothed Tiger")
    assert isinstance(caught.value, LookupError)
    assert caught.value.status == catfacts.Status.ERR_NOT_FOUND
    assert "Sabre-toothed Tiger" in caught.value.message


def test_an_empty_breed_name_is_an_argument_error(client: catfacts.Client) -> None:
    with pytest.raises(catfacts.ArgumentError):
        client.breed("   ")


def test_a_breed_name_must_be_text(client: catfacts.Client) -> None:
    with pytest.raises(TypeError):
        client.breed(b"Aegean")  # type: ignore[arg-type]


def test_fact_is_a_fact_within_max_length(client: catfacts.Client) -> None:
    fact = client.fact()
    assert isinstance(fact, Fact) and fact.text and fact.length == len(fact.text)
    short = client.fact(max_length=50)
    assert short.length <= 50 and str(short) == short.text


def test_fact_shorter_than_any_is_http_404(client: catfacts.Client) -> None:
    with pytest.raises(catfacts.HTTPError) as caught:
        client.fact(max_length=1)
    assert caught.value.http_status == 404


def test_facts_page_honours_limit_and_max_length(client: catfacts.Client) -> None:
    page = client.facts_page(1, limit=10)
    assert len(page.items) == 10 and page.total == 160 and all(isinstance(f, Fact) for f in page.items)
    assert page.items[0] == Fact("Cats sleep for around 12 to 16 hours a day.", 43)
    short = client.facts_page(2, limit=3, max_length=60)
    assert short.page == 2 and len(short.items) == 3 and all(f.length <= 60 for f in short.items)
    assert short.total < 160


@pytest.mark.parametrize("call", [
    lambda c: c.breeds_page(0),
    lambda c: c.breeds_page(1, limit=0),
    lambda c: c.facts_page(-1),
    lambda c: c.facts_page(1, max_length=-1),
])
def test_bad_page_arguments_are_argument_errors(client: catfacts.Client,
                                                call: Callable[[catfacts.Client], object]) -> None:
    with pytest.raises(catfacts.ArgumentError) as caught:
        call(client)
    assert isinstance(caught.value, ValueError) and caught.value.message


def test_arguments_out_of_64_bits_are_argument_errors(client: catfacts.Client) -> None:
    with pytest.raises(catfacts.ArgumentError):
        client.breeds_page(2 ** 64)
    with pytest.raises(TypeError):
        client.breeds_page("1")  # type: ignore[arg-type]


@pytest.mark.parametrize("base_url", ["ftp://example.com", "not a url"])
def test_a_base_url_that_is_not_http_is_an_argument_error(base_url: str) -> None:
    with pytest.raises(catfacts.ArgumentError):
        catfacts.Client(base_url)


@pytest.mark.parametrize("name, seconds, says", [
    ("timeout", 0, "invalid argument: timeout=0: must be more than 0 seconds, at most 86400"),
    ("connect_timeout", -1.5, "invalid argument: connect_timeout=-1.5: must be more than 0 seconds, at most 86400"),
    ("attempt_timeout", float("nan"), "invalid argument: attempt_timeout=nan: must be more than 0 seconds, at most 86400"),
    ("timeout", 86401, "invalid argument: timeout=86401: must be more than 0 seconds, at most 86400"),
    ("cache_ttl", -1, "invalid argument: cache_ttl=-1: must be 0 or more seconds, at most 31536000"),
])
def test_a_time_out_of_range_is_an_argument_error_in_python_words(mock_url: str, name: str, seconds: float,
                                                                  says: str) -> None:
    with pytest.raises(catfacts.ArgumentError) as caught:
        catfacts.Client(mock_url, **{name: seconds})  # type: ignore[arg-type]
    assert str(caught.value) == says


def test_a_time_must_be_a_number(mock_url: str) -> None:
    with pytest.raises(TypeError) as caught:
        catfacts.Client(mock_url, timeout="5")  # type: ignore[arg-type]
    assert str(caught.value) == "timeout='5': must be a number of seconds, not str"


@pytest.mark.parametrize("options, says", [
    ({"retries": -1}, "invalid argument: retries=-1: must be in 0..100"),
    ({"retries": 101}, "invalid argument: retries=101: must be in 0..100"),
    ({"read_ahead": 17}, "invalid argument: read_ahead=17: must be in 0..16"),
    ({"cache_max_bytes": -1}, "invalid argument: cache_max_bytes=-1: must be in 0..1099511627776"),
])
def test_an_option_out_of_the_librarys_range_is_named_as_its_keyword(mock_url: str, options: Dict[str, int],
                                                                      says: str) -> None:
    # The library checks these ranges and names the option by its C key; the message is in Python's words.
    with pytest.raises(catfacts.ArgumentError) as caught:
        catfacts.Client(mock_url, **options)  # type: ignore[arg-type]
    assert str(caught.value) == says


def test_an_option_of_the_wrong_type_is_named_as_its_keyword(mock_url: str) -> None:
    with pytest.raises(TypeError) as caught:
        catfacts.Client(mock_url, retries="3")  # type: ignore[arg-type]
    assert str(caught.value) == "retries='3': must be an integer, not str"


def test_options_are_accepted(mock_url: str) -> None:
    with catfacts.Client(mock_url, timeout=2.5, retries=5, user_agent="catfacts-tests/1.0",
                         offline_fallback=True, connect_timeout=0.5, attempt_timeout=1.001) as opened:
        assert opened.breeds_page(1, limit=1).items[0] == ABYSSINIAN


def test_offline_fallback_serves_the_bundled_catalog_when_the_server_is_gone(make_mock: MakeMock) -> None:
    mock = make_mock()
    mock.stop()
    with catfacts.Client(mock.url, retries=0, offline_fallback=True) as opened:
        page = opened.breeds_page(1, limit=2)
    assert page.source == "offline-catalog" and page.items == (ABYSSINIAN, AEGEAN)


def test_context_manager_closes_and_close_is_idempotent(mock_url: str) -> None:
    with catfacts.Client(mock_url) as opened:
        assert not opened.closed and "open" in repr(opened)
    assert opened.closed and "closed" in repr(opened)
    opened.close()
    opened.close()


def test_a_closed_client_refuses_calls(mock_url: str) -> None:
    opened = catfacts.Client(mock_url)
    opened.close()
    with pytest.raises(catfacts.CancelledError, match="closed"):
        opened.breeds_page()
    with pytest.raises(catfacts.CancelledError):
        opened.metrics()


def test_version_and_status_strings() -> None:
    assert catfacts.library_version() == "0.2.0" == catfacts.__version__
    assert catfacts.status_string(catfacts.Status.ERR_TIMEOUT).startswith("CF_ERR_TIMEOUT")
    assert catfacts.status_string(99) == "unknown status"
    assert catfacts.library_path.endswith(("libCatFacts.so", "libCatFacts.so.0", "libCatFacts.dylib",
                                           "libCatFacts.0.dylib"))
