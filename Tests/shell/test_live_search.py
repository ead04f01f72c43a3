"""Live search (`search` alone, or Ctrl-S at the prompt) at a real terminal: the matches
follow the keys, debounced; only the latest text is answered; Up/Down and Enter show a breed;
Esc gives the prompt back; offline answers say so. Off a terminal `search` needs a prefix."""
import io
import json
import time

import pexpect

from conftest import run_shell
from test_terminal import PROMPT, finish, home, spawn  # noqa: F401 (home is a fixture)

DOWN = "\x1b[B"
UP = "\x1b[A"
ESC = "\x1b"
CTRL_S = "\x13"


def live(shell):
    """Enters live search with `search` and records what the terminal is sent from there."""
    seen = io.StringIO()
    shell.logfile_read = seen
    shell.sendline("search")
    shell.expect_exact("search: ")
    shell.expect_exact("type the start of a breed's name")
    return seen


def breeds_requests(shell):
    shell.sendline("metrics --json")
    shell.expect(r'\{"[^\r\n]*"endpoints"[^\r\n]*\}')
    metrics = json.loads(shell.match.group(0))
    shell.expect_exact(PROMPT)
    return [e["requests"] for e in metrics["endpoints"] if e["endpoint"] == "/breeds"]


def test_typing_fast_sends_one_search_and_shows_only_its_answer(home):
    shell = spawn(home, "--mock")
    seen = live(shell)
    # Both keys in one write, as a fast typist's reach the shell: read together, "a" never
    # stands for the debounce, however slow the machine.
    shell.send("ab")
    shell.expect_exact("1 breed starting with 'ab'")
    shell.expect_exact("> Abyssinian")
    shell.send(ESC)
    shell.expect_exact(PROMPT)
    # The answer to "a" was never drawn: "a" was never searched on its own.
    assert "starting with 'a'" not in seen.getvalue()
    # One walk of the breed list (one page of up to 1000 at the mock's 98), for both keys.
    assert breeds_requests(shell) == [1]
    finish(shell)


def test_with_the_breeds_already_known_keys_typed_fast_are_still_searched_once(home):
    shell = spawn(home, "--mock")
    # The breed list is fetched once and kept: a search answers at once from here on, so
    # only the debounce stands between each key and an answer drawn for it.
    shell.sendline("search zz")
    shell.expect_exact("Breeds starting with 'zz' — none")
    shell.expect_exact(PROMPT)
    seen = live(shell)
    shell.send("ab")  # in one write: see above
    shell.expect_exact("1 breed starting with 'ab'")
    shell.send(ESC)
    shell.expect_exact(PROMPT)
    assert "starting with 'a'" not in seen.getvalue()
    assert breeds_requests(shell) == [1]
    finish(shell)


def test_a_slow_answer_to_older_text_never_overwrites_the_latest(home, mock_server):
    # The breeds load from entering live search; 5 s is far longer than any machine needs to
    # take the two keys.
    mock = mock_server("--latency-ms", "5000")
    shell = spawn(home, "--base-url", mock.url)
    seen = live(shell)
    shell.send("a")
    # Most likely past the debounce, so that "a" is being searched when "b" comes; had it not
    # started, it never will. Its answer is seconds away either way.
    time.sleep(0.5)
    shell.send("b")
    shell.expect_exact("1 breed starting with 'ab'")
    # Both searches waited for the same load: a late answer to "a" would come with this one.
    # Watch a while, then a key that redraws the view.
    time.sleep(1)
    shell.send(DOWN)
    shell.expect_exact("> Abyssinian")
    shell.expect_exact("Esc leaves")
    text = seen.getvalue()
    assert "starting with 'a'" not in text
    assert "starting with 'ab'" in text.split("searching 'ab'…")[-1]
    shell.send(ESC)
    shell.expect_exact(PROMPT)
    finish(shell)


def test_up_down_and_enter_show_the_selected_breed_as_show_does(home):
    shell = spawn(home, "--mock")
    live(shell)
    shell.send("am")
    shell.expect_exact("4 breeds starting with 'am'")
    shell.expect_exact("> American Bobtail")
    shell.send(DOWN + DOWN + DOWN + UP)
    shell.expect_exact("> American Shorthair")
    shell.send("\r")
    shell.expect(r"Breed\s+American Shorthair\r\nCountry\s+United States\r\nOrigin\s+Natural")
    shell.expect_exact(PROMPT)
    # The matches are numbered as a listing is, for show N.
    shell.sendline("show 4")
    shell.expect(r"Breed\s+American Wirehair")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_backspace_edits_the_text_and_the_matches_follow(home):
    shell = spawn(home, "--mock")
    live(shell)
    shell.send("abx")
    shell.expect_exact("no breed starts with 'abx'")
    shell.send("\x7f")
    shell.expect_exact("1 breed starting with 'ab'")
    shell.send(ESC)
    shell.expect_exact(PROMPT)
    finish(shell)


def test_esc_leaves_and_the_prompt_takes_commands_again(home):
    shell = spawn(home, "--mock")
    live(shell)
    shell.send("ab")
    shell.expect_exact("1 breed starting with 'ab'")
    shell.send(ESC)
    shell.expect_exact(PROMPT)
    # The view is erased and nothing typed in it is left on the line.
    shell.sendline("source")
    shell.expect(r"Server\s+http://127\.0\.0\.1:\d+")
    assert "unknown command" not in shell.before
    shell.expect_exact(PROMPT)
    finish(shell)


def test_ctrl_s_enters_live_search_and_esc_restores_the_line_typed(home):
    shell = spawn(home, "--mock")
    shell.send("breeds 2")
    shell.expect_exact("breeds 2")
    shell.send(CTRL_S)
    shell.expect_exact("search: ")
    shell.send("tu")
    shell.expect_exact("starting with 'tu'")
    shell.send(ESC)
    shell.expect_exact(PROMPT + "breeds 2")
    shell.send("\r")
    shell.expect_exact("Breeds — page 2 of 10")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_offline_the_matches_say_they_come_from_the_bundled_catalog(home):
    shell = spawn(home, "--offline")
    live(shell)
    shell.send("ab")
    shell.expect_exact("1 breed starting with 'ab' (offline catalog)")
    shell.expect_exact("> Abyssinian")
    shell.send("\r")
    shell.expect(r"Breed\s+Abyssinian \(offline catalog\)")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_ctrl_c_leaves_live_search_and_the_shell_goes_on(home):
    shell = spawn(home, "--mock")
    live(shell)
    shell.send("ab")
    shell.expect_exact("1 breed starting with 'ab'")
    shell.sendintr()
    shell.expect_exact("catfacts: search: cancelled")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_in_a_script_search_alone_is_a_usage_error_not_a_wait():
    run = run_shell("--mock", "-c", "search; search ab")
    assert run.status == 1
    assert run.error_lines == ["catfacts: search: the prefix is missing (search alone, live search, needs a "
                               "terminal); usage: search [PREFIX [--page N|--all]]"]
    assert "Breeds starting with 'ab' (1 breed)" in run.stdout


def test_help_and_the_manual_describe_live_search():
    help_text = " ".join(run_shell("-c", "help search").stdout.split())
    assert "search alone, at a terminal, or Ctrl-S at the prompt, is live search" in help_text
    assert "Esc (or Ctrl-D) leaves" in help_text
    page = " ".join(run_shell("--manual-page").stdout.split())
    assert "search alone, at a terminal, or Ctrl\\-S at the prompt, is live search" in page
    assert "Up recalls history; Ctrl\\-S searches live (search alone)" in page
