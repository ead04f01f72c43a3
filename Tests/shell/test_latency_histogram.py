"""`metrics --bars`: each endpoint's latency distribution from the library's HdrHistogram,
as bars, and with --json as buckets whose counts add up to the requests timed. The mock's
--latency-ms puts a floor under every request's time: nothing may be counted below it (how far
above it a loaded machine puts a request is its own business)."""
import json

from conftest import run_shell, stable_env

BOUNDS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, None]


def test_histogram_json_gives_each_endpoints_buckets_with_exact_counts(mock_server):
    mock = mock_server("--latency-ms", "150")  # every request in (100, 250] ms, with room for a slow machine
    run = run_shell("--base-url", mock.url, "--no-cache", "-c", "fact; fact; breeds; metrics --bars --json")
    assert run.status == 0, run.stderr
    document = json.loads(run.stdout.splitlines()[-1])
    endpoints = {entry["endpoint"]: entry for entry in document["endpoints"]}
    assert sorted(endpoints) == ["/breeds", "/fact"]
    fact = endpoints["/fact"]
    assert fact["timed"] == 2 and [bucket["le_ms"] for bucket in fact["buckets"]] == BOUNDS_MS
    counts = [bucket["count"] for bucket in fact["buckets"]]
    assert counts[:5] == [0] * 5 and sum(counts) == 2, counts  # none under the mock's 150 ms
    assert sum(bucket["count"] for bucket in endpoints["/breeds"]["buckets"]) == endpoints["/breeds"]["timed"] == 1


def test_histogram_draws_a_bar_per_bucket_and_refuses_other_flags(mock_server):
    mock = mock_server("--latency-ms", "150")
    run = run_shell("--base-url", mock.url, "--no-cache", "-c", "fact; fact; metrics --bars")
    assert run.status == 0, run.stderr
    lines = run.stdout.splitlines()
    start = lines.index("/fact · 2 timed")
    bars = lines[start + 1:start + 13]
    assert [line.split("ms")[0].strip() for line in bars] == [f"≤ {bound:>5}" for bound in BOUNDS_MS[:-1]] + ["> 10000"]
    counts = [int(line.rsplit(" ", 1)[1]) for line in bars]
    assert counts[:5] == [0] * 5 and sum(counts) == 2, counts
    assert all(("█" in line) == (count > 0) for line, count in zip(bars, counts))
    # Not a terminal and no COLUMNS: the bars keep a width of their own.
    unlimited = {name: value for name, value in stable_env().items() if name != "COLUMNS"}
    wide = run_shell("--base-url", mock.url, "--no-cache", "-c", "fact; metrics --bars", env=unlimited)
    assert wide.status == 0, wide.stderr
    # The bars only: the fact printed first is the mock's, any length, and may hold "ms".
    wide_lines = wide.stdout.splitlines()
    wide_bars = wide_lines[wide_lines.index("/fact · 1 timed") + 1:][:len(BOUNDS_MS)]
    assert len(wide_bars) == len(BOUNDS_MS) and max(len(line) for line in wide_bars) < 100, wide_bars
    refused = run_shell("--mock", "-c", "metrics --bars --prom")
    assert refused.status != 0 and "--bars takes --json" in refused.stderr
