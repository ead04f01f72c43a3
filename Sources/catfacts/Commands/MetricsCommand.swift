import CatFactsKit

extension Command {
    /// `metrics [--json|--prom|--watch]`.
    static let metrics = Command(
        name: "metrics", synopsis: "metrics [--json|--prom|--watch]", summary: "per-endpoint times, device, OS, memory",
        details: """
            Per endpoint: requests sent, errors, retries, and the average, p50, p95, p99 and
            last response times in milliseconds; then the device's make and model, the OS,
            the memory in use and at peak, whether the server is reached, and the cache: its
            file, pages, bytes of its cap, hits, failed writes, evictions, and what went wrong
            with it (a damaged file moved aside, a full disk, a read-only folder).
            --json prints the library's metrics JSON, --prom the Prometheus text format.
            --watch redraws the table in place every second, and as requests happen, until a
            key or Ctrl-C (on a terminal).
            """,
        completion: .positions([["--json", "--prom", "--watch"]])
    ) { session, arguments throws(ShellError) in
        let (positional, flags) = try arguments.options(flags: ["--json", "--prom", "--watch"])
        guard positional.isEmpty else { throw arguments.usage("unexpected '\(positional[0])'") }
        guard flags.count <= 1 else { throw arguments.usage("choose one of --json, --prom, --watch") }
        if flags["--watch"] != nil {
            try await session.watchMetrics()
        } else if flags["--prom"] != nil {
            var text = session.client.metrics.snapshot().prometheus()
            while text.hasSuffix("\n") { text.removeLast() }
            session.console.print(text)
        } else if flags["--json"] != nil {
            session.console.print(session.client.metrics.snapshot().json())
        } else {
            session.printMetrics()
        }
    }
}
