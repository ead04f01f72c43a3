"""The shell's OpenTelemetry export: `--otlp URL` (or the OTEL_* variables) sends a span per
call and the metrics to the collector (the test collector, Tests/otlp/collector.py, which
decodes every payload with the OpenTelemetry protobuf definitions) before the shell exits, and
`metrics` says whether export is on and what was sent, dropped and failed.

OTEL_BSP_SCHEDULE_DELAY and OTEL_METRIC_EXPORT_INTERVAL are a day in these runs, so nothing
is sent before the shell exits (unless a batch fills) and the figures `metrics` shows are
exact; the exit's flush sends everything.
"""
import json
import re
import socket
import sys

import pytest

from conftest import ROOT, run_shell, stable_env

sys.path.insert(0, str(ROOT / "Tests" / "otlp"))
from collector import Collector  # noqa: E402

A_DAY_MS = "86400000"


def otel_env(**variables):
    """The stable environment with only the OTEL_* variables given (the runner's left out)."""
    env = {name: value for name, value in stable_env().items() if not name.startswith("OTEL_")}
    env.update(OTEL_BSP_SCHEDULE_DELAY=A_DAY_MS, OTEL_METRIC_EXPORT_INTERVAL=A_DAY_MS, **variables)
    return env


def export_line(run):
    lines = [line for line in run.stdout.splitlines() if line.startswith("Export  ")]
    assert len(lines) == 1, run.stdout
    return lines[0][len("Export  "):]


@pytest.fixture
def collector():
    with Collector() as running:
        yield running


def test_otlp_sends_a_span_per_call_and_the_metrics_before_the_shell_exits(mock_server, collector):
    mock = mock_server()
    run = run_shell("--base-url", mock.url, "--no-cache", "--otlp", collector.url, "-c", "breeds; fact; metrics",
                    env=otel_env(OTEL_SERVICE_NAME="shell-test"))
    assert run.status == 0, run.stderr
    assert export_line(run) == f"on → {collector.url}, sent 0, dropped 0, failures 0"
    assert collector.errors() == []
    calls = [span for span in collector.spans() if not span.parent_span_id]
    assert [(span.name, span.kind, span.status.code) for span in calls] == [("GET /breeds", 3, 0), ("GET /fact", 3, 0)]
    attempts = [span for span in collector.spans() if span.parent_span_id]
    assert [span.parent_span_id for span in attempts] == [span.span_id for span in calls]
    (request,) = collector.metric_requests()
    resource = {attribute.key: attribute.value.string_value for attribute in request.resource_metrics[0].resource.attributes}
    assert resource["service.name"] == "shell-test" and resource["telemetry.sdk.name"] == "catfacts"
    requests = {metric.name: metric for metric in request.resource_metrics[0].scope_metrics[0].metrics}
    counted = {next(attribute.value.string_value for attribute in point.attributes if attribute.key == "catfacts.endpoint"):
               point.as_int for point in requests["catfacts.client.requests"].sum.data_points}
    assert counted == {"/breeds": 1, "/fact": 1}


def test_the_environment_turns_export_on_and_an_empty_otlp_turns_it_off(mock_server, collector):
    mock = mock_server()
    env = otel_env(OTEL_EXPORTER_OTLP_ENDPOINT=collector.url)
    on = run_shell("--base-url", mock.url, "--no-cache", "-c", "fact; metrics", env=env)
    assert on.status == 0 and export_line(on) == f"on → {collector.url}, sent 0, dropped 0, failures 0"
    assert len(collector.spans()) == 2
    off = run_shell("--base-url", mock.url, "--no-cache", "--otlp", "", "-c", "fact; metrics", env=env)
    assert off.status == 0 and export_line(off) == "off"
    assert len(collector.spans()) == 2 and len(collector.metric_requests()) == 1
    assert json.loads(run_shell("--mock", "--json", "-c", "metrics", env=otel_env()).stdout)["export"] is None


def test_metrics_counts_the_spans_dropped_while_the_collector_is_down(mock_server):
    """Queue bound 2; three calls of one request each make 6 spans, none delivered: 4 dropped.
    (The batch size follows the bound down, so each call fills a batch and the exporter tries at
    once: how many tries failed by the time `metrics` runs is the machine's timing.)"""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    mock = mock_server()
    run = run_shell("--base-url", mock.url, "--no-cache", "--otlp", dead, "-c", "fact; fact; fact; metrics; metrics --json",
                    env=otel_env(OTEL_BSP_MAX_QUEUE_SIZE="2"))
    assert run.status == 0, run.stderr
    assert re.fullmatch(rf"on → {re.escape(dead)}, sent 0, dropped 4, failures \d+", export_line(run)), run.stdout
    export = json.loads(run.stdout.splitlines()[-1])["export"]
    assert export == {"endpoint": dead, "sent": 0, "dropped": 4, "failures": export["failures"], "queued": 2,
                      "warnings": [], "traces_endpoint": f"{dead}/v1/traces", "metrics_endpoint": f"{dead}/v1/metrics"}


def test_a_bad_otlp_url_is_refused_naming_the_flag(mock_server):
    run = run_shell("--base-url", mock_server().url, "--otlp", "ftp://127.0.0.1:4318", "-c", "fact", env=otel_env())
    assert run.status == 2
    assert run.error_lines == ["catfacts: invalid argument: --otlp 'ftp://127.0.0.1:4318': uses scheme "
                               "'ftp'; only http and https are accepted"]


def test_a_bad_otel_variable_is_a_warning_under_metrics(mock_server, collector):
    run = run_shell("--base-url", mock_server().url, "--otlp", collector.url, "-c", "metrics",
                    env=otel_env(OTEL_BSP_MAX_QUEUE_SIZE="lots"))
    assert run.status == 0, run.stderr
    warnings = [line.strip() for line in run.stdout.splitlines() if "OTEL_BSP_MAX_QUEUE_SIZE" in line]
    assert warnings and warnings[0].startswith("warning: OTEL_BSP_MAX_QUEUE_SIZE 'lots' ignored"), run.stdout


def test_the_shell_joins_the_trace_in_traceparent_and_tracestate(mock_server, collector):
    """TRACEPARENT/TRACESTATE in the environment: every call is a child of that span, in that
    trace, and carries the tracestate; a malformed TRACEPARENT is ignored with a warning."""
    trace, parent = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
    mock = mock_server()
    env = otel_env(TRACEPARENT=f"00-{trace}-{parent}-01", TRACESTATE="congo=t61rcWkgMzE")
    run = run_shell("--base-url", mock.url, "--no-cache", "--otlp", collector.url, "-c", "fact; fact", env=env)
    assert run.status == 0, run.stderr
    calls = [span for span in collector.spans() if span.parent_span_id.hex() == parent]
    assert len(calls) == 2 and {span.trace_id.hex() for span in collector.spans()} == {trace}
    assert {span.trace_state for span in collector.spans()} == {"congo=t61rcWkgMzE"}
    bad = run_shell("--base-url", mock.url, "--no-cache", "--otlp", "", "-c", "fact",
                    env=otel_env(TRACEPARENT="00-nope"))
    assert bad.status == 0 and "TRACEPARENT/TRACESTATE ignored" in bad.stderr and "traceparent '00-nope'" in bad.stderr
