"""The shell at a real terminal (a pty driven by pexpect, 30 rows × 100 columns): Tab
completion, history across runs, the spinner while a request is out, Ctrl-C cancelling a
request and clearing a line, the pager and the metrics watch."""
import os
import re
import time

import pexpect
import pytest

from conftest import HANG_S, SHELL

PROMPT = "catfacts> "
SPINNER = re.compile(r"[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] GET /breeds\?page=1&limit=10 …")


@pytest.fixture
def home(tmp_path):
    return tmp_path


def spawn(home, *args, colour=False):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update(TERM="xterm", HOME=str(home), XDG_STATE_HOME=str(home / "state"), INPUTRC="/dev/null",
               LC_ALL="C.UTF-8")
    if not colour:
        env["NO_COLOR"] = "1"
    shell = pexpect.spawn(SHELL, list(args), env=env, dimensions=(30, 100), encoding="utf-8", timeout=HANG_S)
    shell.expect_exact(PROMPT)
    return shell


def finish(shell):
    shell.sendline("quit")
    shell.expect(pexpect.EOF)
    shell.close()
    assert shell.exitstatus == 0


def test_tab_completes_a_command(home):
    shell = spawn(home, "--mock")
    shell.send("sea\t")
    shell.expect_exact("search ")
    shell.send("am\r")
    shell.expect_exact("American Wirehair")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_tab_completes_a_breed_name_the_shell_has_seen(home):
    shell = spawn(home, "--mock")
    shell.sendline("breeds")
    shell.expect_exact("Australian Mist")
    shell.expect_exact(PROMPT)
    shell.send("show Aby\t")
    shell.expect_exact("Abyssinian ")
    shell.send("\r")
    shell.expect(r"Pattern\s+Ticked")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_tab_completion_and_show_fold_case_and_accents_as_the_library_does(home):
    shell = spawn(home, "--mock")
    shell.sendline("search rag")
    shell.expect_exact("Ragdoll")
    shell.expect_exact(PROMPT)
    # "ragdó" is not a prefix of "Ragdoll" byte for byte; folded (case, accents) it is.
    shell.send("show ragdó\t")
    shell.expect_exact("Ragdoll ")
    shell.send("\r")
    shell.expect(r"Pattern\s+Colorpoint")
    shell.expect_exact(PROMPT)
    shell.sendline("show RAGDÓLL")
    shell.expect(r"Pattern\s+Colorpoint")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_tab_completes_names_with_spaces_word_by_word(home):
    shell = spawn(home, "--mock")
    shell.sendline("search turk")
    shell.expect_exact("Turkish Van")
    shell.expect_exact(PROMPT)
    shell.send("show Turkish V\t")
    shell.expect_exact("Van ")
    shell.send("\r")
    shell.expect(r"Pattern\s+Van")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_tab_completes_field_names_after_group(home):
    shell = spawn(home, "--mock")
    shell.send("group cou\t")
    shell.expect_exact("country ")
    shell.send("\r")
    shell.expect_exact("Breeds by country")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_tab_completes_a_field_then_its_values_after_filter(home):
    shell = spawn(home, "--mock")
    shell.sendline("breeds")  # page 1 holds Asian, from the United Kingdom
    shell.expect_exact("Australian Mist")
    shell.expect_exact(PROMPT)
    shell.send("filter coun\t")
    shell.expect_exact("country ")
    # "United " is shared by three countries; the last word tells them apart.
    shell.send("United K\t")
    shell.expect_exact("Kingdom ")
    shell.send("\r")
    shell.expect_exact("Breeds whose country holds 'United Kingdom'")
    shell.expect_exact("Asian")
    shell.expect_exact(PROMPT)
    shell.send("filter coat Partly\t")
    # Partly hairless is on no page seen yet, so Tab added nothing: the value stays "Partly".
    shell.send("\r")
    shell.expect_exact("Breeds whose coat holds 'Partly'")
    shell.expect_exact(PROMPT)
    shell.send("filter COAT partly h\t")
    shell.expect_exact("hairless ")
    shell.send("\r")
    shell.expect_exact("Breeds whose coat holds 'partly hairless' (1 breed)")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_up_recalls_history_from_the_last_run(home):
    first = spawn(home, "--mock")
    first.sendline("breeds 7")
    first.expect_exact("page 7 of 10")
    first.expect_exact(PROMPT)
    finish(first)
    assert (home / "state" / "catfacts" / "history").read_text().splitlines() == ["breeds 7", "quit"]

    second = spawn(home, "--mock")
    second.send("\x1b[A\x1b[A")
    second.expect_exact("breeds 7")
    second.send("\r")
    second.expect_exact("page 7 of 10")
    second.expect_exact(PROMPT)
    finish(second)


def test_the_spinner_names_the_request_in_flight(home, mock_server):
    # The spinner shows after 120 ms; the answer takes seconds more than any machine needs.
    mock = mock_server("--latency-ms", "4000")
    shell = spawn(home, "--base-url", mock.url)
    shell.sendline("breeds")
    shell.expect(SPINNER)
    shell.expect_exact("Breeds — page 1 of 10")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_ctrl_c_cancels_a_slow_request_and_the_shell_goes_on(home, mock_server):
    latency_s = 6
    mock = mock_server("--latency-ms", str(latency_s * 1000))
    shell = spawn(home, "--base-url", mock.url)
    started = time.monotonic()
    shell.sendline("breeds")
    shell.expect(SPINNER)
    shell.sendintr()
    shell.expect_exact("catfacts: breeds: cancelled")
    shell.expect_exact(PROMPT)
    assert time.monotonic() - started < latency_s  # sooner than the answer could have come
    shell.sendline("help sort")
    shell.expect_exact("usage: sort FIELD [desc]")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_ctrl_c_at_the_prompt_clears_the_line_in_place_without_drawing_ctrl_c(home):
    shell = spawn(home, "--mock")
    shell.send("breeds 5")
    shell.expect_exact("breeds 5")
    shell.sendintr()
    # What was typed is gone: the next line runs on its own, not as "breeds 5source".
    shell.sendline("source")
    shell.expect(r"Server\s+http://127\.0\.0\.1:\d+")
    # The line was erased where it stood: no "^C" drawn, no new prompt line before the command.
    assert "^C" not in shell.before, repr(shell.before)
    assert shell.before.count(PROMPT) == 0 and "unknown command" not in shell.before, repr(shell.before)
    shell.expect_exact(PROMPT)
    finish(shell)


def test_colour_on_a_terminal_unless_no_color(home):
    coloured = spawn(home, "--mock", colour=True)
    coloured.sendline("breeds")
    coloured.expect_exact("\x1b[1mBreeds — page 1 of 10")
    coloured.expect_exact(PROMPT)
    finish(coloured)
    plain = spawn(home, "--mock")
    plain.sendline("breeds")
    plain.expect_exact("Breeds — page 1 of 10")
    plain.expect_exact(PROMPT)
    assert "\x1b[1m" not in plain.before
    finish(plain)


def test_scroll_shows_loading_rows_then_pages_by_screenful(home, mock_server):
    mock = mock_server("--latency-ms", "300")
    shell = spawn(home, "--base-url", mock.url)
    shell.sendline("scroll")
    shell.expect_exact("…loading…")
    shell.expect_exact("Abyssinian")
    shell.expect_exact("-- 1–28 of 98: any key for more, q to stop --")
    shell.send(" ")
    shell.expect_exact("-- 29–56 of 98: any key for more, q to stop --")
    shell.send("q")
    shell.expect_exact(PROMPT)
    shell.sendline("show 30")
    shell.expect(r"Breed\s+Devon Rex")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_metrics_watch_redraws_until_a_key(home):
    shell = spawn(home, "--mock")
    shell.sendline("breeds")
    shell.expect_exact(PROMPT)
    shell.sendline("metrics --watch")
    shell.expect_exact("Watching: any key or Ctrl-C stops.")
    # Redrawn in place: the cursor goes back up over the last drawing.
    shell.expect(r"\x1b\[\d+A\r\x1b\[J")
    shell.expect_exact("Watching: any key or Ctrl-C stops.")
    shell.send("x")
    shell.expect_exact(PROMPT)
    finish(shell)


def test_ctrl_d_leaves_the_shell(home):
    shell = spawn(home, "--mock")
    shell.sendeof()
    shell.expect(pexpect.EOF)
    shell.close()
    assert shell.exitstatus == 0


def test_listings_refit_after_the_terminal_is_resized(home):
    shell = spawn(home, "--mock")
    shell.sendline("breeds")
    shell.expect_exact(PROMPT)
    wide = [line for line in shell.before.splitlines() if "Arabian Mau" in line]
    assert wide and "United Arab Emirates" in wide[0]
    shell.setwinsize(30, 50)
    shell.sendline("breeds")
    shell.expect_exact("Breeds — page 1 of 10")
    shell.expect_exact(PROMPT)
    lines = [line.rstrip("\r") for line in shell.before.splitlines()[1:]]
    narrow = [line for line in lines if "Arabian Mau" in line]
    assert narrow and "United Arab Emirates" not in narrow[0] and "…" in narrow[0]
    assert all(len(line) <= 50 for line in lines)
    finish(shell)


def test_escape_sequences_from_the_server_never_reach_the_terminal(home):
    import io
    import threading
    from http.server import ThreadingHTTPServer
    from test_escapes import HostileHandler

    server = ThreadingHTTPServer(("127.0.0.1", 0), HostileHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        shell = spawn(home, "--base-url", f"http://127.0.0.1:{server.server_address[1]}")
        seen = io.StringIO()
        shell.logfile_read = seen
        shell.sendline("breeds")
        shell.expect_exact("Evil\\e]0;owned\\x07Cat")
        shell.expect_exact(PROMPT)
        shell.sendline("show 1")
        shell.expect(r"Country\s+\\e\[2JClear")
        shell.expect_exact(PROMPT)
        text = seen.getvalue()
        assert "\x1b]0;" not in text and "\x1b[2J" not in text and "\x07" not in text and "\x9b" not in text
        finish(shell)
    finally:
        server.shutdown()


def test_json_at_the_prompt_prints_no_banner_and_errors_as_json(home):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update(TERM="xterm", HOME=str(home), XDG_STATE_HOME=str(home / "state"), INPUTRC="/dev/null",
               LC_ALL="C.UTF-8", NO_COLOR="1")
    shell = pexpect.spawn(SHELL, ["--mock", "--json"], env=env, dimensions=(30, 100), encoding="utf-8", timeout=HANG_S)
    shell.expect_exact(PROMPT)
    assert "help lists the commands" not in shell.before
    shell.sendline("bogus")
    shell.expect_exact('{"advice":"help lists the commands","command":"bogus","error":"unknown command"}')
    shell.expect_exact(PROMPT)
    finish(shell)


def thread_names(pid):
    names = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/comm") as comm:
                names.append(comm.read().strip())
        except FileNotFoundError:
            pass  # a thread that ended while the folder was read
    return names


def test_the_shell_starts_no_interrupt_watcher(home):
    # The C face's interrupt watcher (a thread named cf-interrupt) is for blocking C calls;
    # the shell's client is a Swift one and must not start it.
    shell = spawn(home, "--mock")
    shell.sendline("breeds")
    shell.expect_exact("Australian Mist")
    shell.expect_exact(PROMPT)
    assert "cf-interrupt" not in thread_names(shell.pid)
    finish(shell)
