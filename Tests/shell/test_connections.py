"""--max-connections: its range, its place in --help, and that it bounds the requests under way
at once when the shell makes several (a query loads the breed catalog's pages six at a time).

The mock shows it without timing: --hold N keeps each request waiting until N are in flight
together, and GET /_mock/stats reports the most it saw at once."""
import json
import urllib.request

import pytest

from conftest import HANG_S, run_shell


def mock_stats(url):
    """The mock's counters, over a connection of the test's own."""
    with urllib.request.urlopen(f"{url}/_mock/stats", timeout=HANG_S) as response:
        return json.load(response)


@pytest.mark.parametrize("value", ["0", "257", "-3"])
def test_max_connections_out_of_range_is_a_usage_error(value):
    run = run_shell(f"--max-connections={value}", "-c", "help")
    assert run.status == 2
    assert run.error_lines[0] == f"Error: --max-connections {value}: must be in 1..256."


def test_max_connections_that_is_no_number_is_a_usage_error():
    run = run_shell("--max-connections", "many", "-c", "help")
    assert run.status == 2
    assert run.error_lines[0].startswith("Error: The value 'many' is invalid for '--max-connections <N>'")


def test_help_and_the_manual_give_max_connections_and_its_range():
    help_text = " ".join(run_shell("--help").stdout.split())
    assert "--max-connections <N> Connections open to the server at once (1..256, default 8)" in help_text
    assert "\\-\\-max\\-connections" in run_shell("--manual-page").stdout


@pytest.mark.parametrize("connections", [1, 2])
def test_a_query_loads_the_catalog_over_as_many_connections_as_asked(mock_server, connections):
    # 7 pages of 1000: page 1 alone (it says how many follow), then 6 at once, held until
    # `connections` are in flight; each then takes 100 ms while the others wait in the
    # client, so a connection more would be seen in flight beside them.
    mock = mock_server("--breeds", "7000", "--latency-ms", "100", "--hold", str(connections), "--hold-after", "1")
    run = run_shell("--base-url", mock.url, "--no-fallback", "--max-connections", str(connections),
                    "-c", "sort name --page 1")
    assert run.status == 0, run.stderr
    stats = mock_stats(mock.url)
    assert (stats["requests"], stats["peak_in_flight"], stats["hold"]) == (7, connections, "released")
