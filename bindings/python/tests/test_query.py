"""Client.query: the same questions, and the same answers, as the Swift and C suites."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import catfacts

THAILAND_DESCENDING = ["Thai Lilac", "Thai", "Suphalak", "Siamese", "Sam Sawet", "Korn Ja", "Korat", "Khao Manee"]


def test_groups_ascend_by_key_and_sort_inside(client: catfacts.Client) -> None:
    groups = client.query(group_by="country", where={"country": "thailand"}, sort_by="breed", descending=True)
    assert isinstance(groups, dict)
    assert list(groups) == ["Thailand"]
    assert [breed.name for breed in groups["Thailand"]] == THAILAND_DESCENDING


def test_grouping_by_origin_leaves_out_breeds_without_one(client: catfacts.Client) -> None:
    groups = client.query(group_by="origin")
    assert isinstance(groups, dict)
    assert list(groups) == ["Crossbreed", "Hybrid", "Mutation", "Natural", "Natural/Standard"]
    assert [len(items) for items in groups.values()] == [30, 4, 17, 39, 2]


def test_prefix_search_ignores_case_and_honours_the_limit(client: catfacts.Client) -> None:
    found = client.query(search="SI", limit=10)
    assert [breed.name for breed in found] == ["Siamese", "Siberian", "Singapura"]
    assert client.query(search="si", limit=1) == found[:1]
    assert client.query(search="xq") == []


def test_filters_keep_contained_values_and_present_fields(client: catfacts.Client) -> None:
    found = client.query(where={"coat": "LONG"}, present=["pattern"], limit=5)
    assert [breed.name for breed in found] == ["Aegean", "American Bobtail", "American Curl", "Balinese", "Birman"]


def test_only_the_first_query_fetches_the_breeds(client: catfacts.Client) -> None:
    client.query(search="a")
    requests = client.metrics()["endpoints"][0]["requests"]
    client.query(group_by="coat")
    assert client.metrics()["endpoints"][0]["requests"] == requests


def test_a_denied_prefix_is_saved_in_the_cache_file(tmp_path: Path, mock_url: str) -> None:
    path = tmp_path / "cache.sqlite"
    with catfacts.Client(mock_url, cache_path=path, retries=0) as client:
        assert client.query(search="ZZ") == []
        assert client.query(search="zzz") == []  # covered by "zz": nothing new is saved
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT catalog, prefix FROM denied_prefix").fetchall()
    # 98 names in the mock's catalog, then their 64-bit fingerprint.
    assert [(catalog.split("-")[0], len(catalog), prefix) for catalog, prefix in rows] == [("98", 19, "zz")]


@pytest.mark.parametrize("arguments, named", [
    ({"group_by": "colour"}, "colour"),
    ({"sort_by": "size"}, "size"),
    ({"where": {"fur": "x"}}, "fur"),
    ({"present": ["tail"]}, "tail"),
    ({"limit": -1}, "limit"),
])
def test_bad_queries_are_argument_errors_naming_what(client: catfacts.Client, arguments: dict, named: str) -> None:
    with pytest.raises(catfacts.ArgumentError) as raised:
        client.query(**arguments)
    assert named in str(raised.value)
