"""Client.query and Client.group: the same questions, and the same answers, as the Swift and C suites."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Callable

import pytest

import catfacts

THAILAND_DESCENDING = ["Thai Lilac", "Thai", "Suphalak", "Siamese", "Sam Sawet", "Korn Ja", "Korat", "Khao Manee"]


def test_groups_ascend_by_key_and_sort_inside(client: catfacts.Client) -> None:
    groups = client.group("country", where={"country": "thailand"}, sort_by="breed", descending=True)
    assert list(groups) == ["Thailand"]
    assert [breed.breed for breed in groups["Thailand"]] == THAILAND_DESCENDING


def test_grouping_by_origin_leaves_out_breeds_without_one(client: catfacts.Client) -> None:
    groups = client.group("origin")
    assert list(groups) == ["Crossbreed", "Hybrid", "Mutation", "Natural", "Natural/Standard"]
    assert [len(items) for items in groups.values()] == [30, 4, 17, 39, 2]


def test_group_limit_counts_breeds_over_all_groups(client: catfacts.Client) -> None:
    groups = client.group("origin", search="b", limit=3)
    assert sum(len(items) for items in groups.values()) == 3


def test_query_and_group_give_the_same_breeds(client: catfacts.Client) -> None:
    grouped = client.group("coat", search="s")
    flat = client.query(search="s", present=["coat"])
    assert sorted(breed.breed for items in grouped.values() for breed in items) == sorted(b.breed for b in flat)


def test_prefix_search_ignores_case_and_honours_the_limit(client: catfacts.Client) -> None:
    found = client.query(search="SI", limit=10)
    assert [breed.breed for breed in found] == ["Siamese", "Siberian", "Singapura"]
    assert client.query(search="si", limit=1) == found[:1]
    assert client.query(search="xq") == []


def test_filters_keep_contained_values_and_present_fields(client: catfacts.Client) -> None:
    found = client.query(where={"coat": "LONG"}, present=["pattern"], limit=5)
    assert [breed.breed for breed in found] == ["Aegean", "American Bobtail", "American Curl", "Balinese", "Birman"]


def test_only_the_first_query_fetches_the_breeds(client: catfacts.Client) -> None:
    client.query(search="a")
    requests = client.metrics().endpoints[0].requests
    client.group("coat")
    assert client.metrics().endpoints[0].requests == requests


def test_a_denied_prefix_is_saved_in_the_cache_file(tmp_path: Path, mock_url: str) -> None:
    path = tmp_path / "cache.sqlite"
    with catfacts.Client(mock_url, cache_path=path, retries=0) as client:
        assert client.query(search="ZZ") == []
        assert client.query(search="zzz") == []  # covered by "zz": nothing new is saved
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT catalog, prefix FROM denied_prefix").fetchall()
    # 98 names in the mock's catalog, then their 64-bit fingerprint.
    assert [(catalog.split("-")[0], len(catalog), prefix) for catalog, prefix in rows] == [("98", 19, "zz")]


def test_breed_names_the_field_as_breed_does(client: catfacts.Client) -> None:
    # "breed" is the field's name in Breed, search sessions and the C library.
    field = "breed"
    found = client.query(search="si", sort_by=field, descending=True)
    assert [breed.breed for breed in found] == ["Singapura", "Siberian", "Siamese"]
    assert [b.breed for b in client.query(where={field: "siberian"}, present=[field])] == ["Siberian"]
    assert {key: [b.breed for b in items] for key, items in client.group(field, search="sib").items()} == {
        "Siberian": ["Siberian"]}


@pytest.mark.parametrize("ask, named", [
    (lambda c: c.group("colour"), "colour"),
    (lambda c: c.query(sort_by="size"), "size"),
    (lambda c: c.query(where={"fur": "x"}), "fur"),
    (lambda c: c.group("coat", present=["tail"]), "tail"),
    (lambda c: c.query(limit=-1), "limit"),
    (lambda c: c.query(sort_by="nmae"), "nmae"),
])
def test_bad_queries_are_argument_errors_naming_what(client: catfacts.Client, ask: Callable[[catfacts.Client], object],
                                                     named: str) -> None:
    with pytest.raises(catfacts.ArgumentError) as raised:
        ask(client)
    assert named in str(raised.value)
