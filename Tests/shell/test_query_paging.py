"""Whole answers: group, sort, filter and search page like breeds (--page N, --all, next,
prev), numbered across the whole answer so that show N takes the numbers of any page."""
import json

from conftest import run_shell


def numbers(stdout):
    """The row numbers of a table listing, in order."""
    return [int(line.split()[0]) for line in stdout.splitlines() if line.strip() and line.split()[0].isdigit()]


def test_group_sort_filter_and_search_show_a_page_and_next_goes_on():
    for command, title in [("group origin", "Breeds by origin — page 1 of 10 (92 breeds in 5 groups)"),
                           ("sort country desc", "Breeds by country, descending — page 1 of 10 (98 breeds)"),
                           ("filter coat short", "Breeds whose coat holds 'short' — page 1 of "),
                           ("search s", "Breeds starting with 's' — page 1 of 2 (14 breeds)")]:
        first = run_shell("--mock", "-c", command)
        assert first.status == 0, first.stderr
        assert first.stdout.startswith(title), first.stdout.splitlines()[0]
        assert numbers(first.stdout) == list(range(1, 11))
        second = run_shell("--mock", "-c", f"{command}; next")
        page_two = numbers(second.stdout)[10:]
        assert numbers(second.stdout)[:10] == list(range(1, 11))
        assert page_two == list(range(11, 11 + len(page_two))) and 1 <= len(page_two) <= 10
        assert "— page 2 of " in second.stdout


def test_show_n_takes_the_numbers_of_a_sorted_or_grouped_page():
    every = json.loads(run_shell("--mock", "--json", "-c", "sort country desc --all").stdout)["items"]
    run = run_shell("--mock", "--json", "-c", "sort country desc; next; show 15")
    assert json.loads(run.stdout.splitlines()[-1]) == every[14]
    grouped = json.loads(run_shell("--mock", "--json", "-c", "group coat --all").stdout)["groups"]
    flat = [breed for group in grouped for breed in group["items"]]
    run = run_shell("--mock", "--json", "-c", "group coat --page 3; show 25")
    assert json.loads(run.stdout.splitlines()[-1]) == flat[24]
    outside = run_shell("--mock", "-c", "group coat --page 3; show 5")
    assert outside.status == 1
    assert outside.error_lines == ["catfacts: show 5: no breed is numbered 5 (the last listing shows 21–30); "
                                   "breeds lists a page; show NAME works too"]


def test_all_shows_the_whole_answer_and_page_past_the_end_fails():
    run = run_shell("--mock", "-c", "sort breed --all")
    assert run.stdout.splitlines()[0] == "Breeds by breed (98 breeds)"
    assert numbers(run.stdout) == list(range(1, 99))
    past = run_shell("--mock", "-c", "sort breed --page 11")
    assert past.status == 1
    assert past.error_lines == ["catfacts: sort breed --page 11: page 11 is past the last page (10); last shows the last page"]
    both = run_shell("--mock", "-c", "group coat --page 2 --all")
    assert both.error_lines == ["catfacts: group coat --page 2 --all: give --page N or --all, not both; "
                                "usage: group FIELD [--page N|--all]"]


def test_a_group_cut_by_the_page_edge_keeps_its_heading_on_the_next_page():
    grouped = json.loads(run_shell("--mock", "--json", "-c", "group origin --all").stdout)["groups"]
    first = grouped[0]
    assert len(first["items"]) > 10
    run = run_shell("--mock", "-c", "group origin --page 2")
    lines = run.stdout.splitlines()
    assert lines[1].split()[0] == "#"
    assert lines[2] == f"{first['key']} ({len(first['items'])})"


def test_breeds_and_facts_take_page_n_as_the_queries_do_and_all_says_where_every_row_is():
    positional = run_shell("--mock", "--json", "-c", "breeds 3; facts 2 --max-length 80")
    flagged = run_shell("--mock", "--json", "-c", "breeds --page 3; facts --page=2 --max-length 80")
    assert flagged.status == 0, flagged.stderr
    def answers(stdout):
        lines = [json.loads(line) for line in stdout.splitlines()]
        return [{key: value for key, value in line.items() if key != "fetched_at"} for line in lines]
    assert answers(flagged.stdout) == answers(positional.stdout)
    assert [(line["page"], len(line["items"])) for line in answers(flagged.stdout)] == [(3, 10), (2, 10)]
    both = run_shell("--mock", "-c", "breeds 2 --page 3")
    assert (both.status, both.error_lines) == (1, ["catfacts: breeds 2 --page 3: give PAGE or --page N, not both; "
                                                   "usage: breeds [PAGE|--page N]"])
    every = run_shell("--mock", "-c", "breeds --all")
    assert (every.status, every.error_lines) == (1, ["catfacts: breeds --all: --all would print every page of the "
                                                     "server's list; scroll walks it a window at a time; "
                                                     "sort breed --all lists every breed"])


def test_breed_names_the_field_in_columns_and_queries_and_name_still_works():
    # "breed" is the field's name in every front (the C struct, the JSON, Python's Breed);
    # the shell also takes "name", what people call it.
    run = run_shell("--offline", "--csv", "-c", "search sib; sort breed desc --page 10; filter breed siberian")
    assert run.status == 0, run.stderr
    assert run.stdout.splitlines()[0] == "number,breed,country,origin,coat,pattern"
    breed_spelling = run.stdout
    named = run_shell("--offline", "--csv", "-c", "search sib; sort name desc --page 10; filter name siberian")
    assert named.status == 0 and named.stdout == breed_spelling
    groups = json.loads(run_shell("--offline", "--json", "-c", "group breed --page 1").stdout)["groups"]
    assert groups[0]["items"][0]["breed"] == groups[0]["key"] == "Abyssinian"
