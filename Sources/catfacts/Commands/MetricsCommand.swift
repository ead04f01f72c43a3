import CatFactsKit

extension Command {
    /// `metrics [--json|--prom|--watch|--bars]` (`--bars --json` too).
    static let metrics = Command(
        name: "metrics", synopsis: "metrics [--json|--prom|--watch|--bars]",
        summary: "per-endpoint times, device, OS, memory",
        details: """
            Per endpoint: requests sent, errors, retries, and the average, p50, p95, p99 and
            last response times in milliseconds; then the device's make and model, the OS,
            the memory in use and at peak, whether the server is reached, and the cache: its
            file, pages, bytes of its cap, hits, failed writes, evictions, and what went wrong
            with it (a damaged file moved aside, a full disk, a read-only folder).
            --json prints the library's metrics JSON, --prom the Prometheus text format.
            --watch redraws the table in place every second, and as requests happen, until a
            key or Ctrl-C (on a terminal). --bars draws each endpoint's latency distribution (the
            library's HdrHistogram, in buckets up to 10 s) as text bars; --bars --json gives
            the buckets as JSON ({"endpoints":[{"endpoint","timed","buckets":[{"le_ms","count"}]}]}).
            """,
        completion: .positions([["--json", "--prom", "--watch", "--bars"]])
    ) { session, arguments throws(ShellError) in
        let (positional, flags) = try arguments.options(flags: ["--json", "--prom", "--watch", "--bars"])
        guard positional.isEmpty else { throw arguments.usage("unexpected '\(positional[0])'") }
        let histogram = flags["--bars"] != nil
        guard flags.count <= 1 || (histogram && flags.count == 2 && flags["--json"] != nil) else {
            throw arguments.usage("choose one of --json, --prom, --watch, --bars (--bars takes --json)")
        }
        let output = session.output
        // A flag naming a format (--json, --prom) gives that text in every output mode: the
        // report's lines, with nothing else to choose from.
        if histogram {
            let snapshot = session.client.metrics.snapshot()
            let json = LatencyHistogram.json(snapshot)
            output.show(flags["--json"] != nil ? Report(lines: [json])
                        : Report(documents: [JSONDocument { json }], lines: LatencyHistogram.lines(snapshot, width: output.width)))
        } else if flags["--watch"] != nil {
            try await watchMetrics(session)
        } else if flags["--prom"] != nil {
            var text = session.client.metrics.snapshot().prometheus()
            while text.hasSuffix("\n") { text.removeLast() }
            output.show(Report(lines: [text]))
        } else if flags["--json"] != nil {
            output.show(Report(lines: [session.client.metrics.snapshot().json()]))
        } else {
            output.show(MetricsView.report(session.client.metrics.snapshot(), server: session.server,
                                           lastRequestReached: session.network.lastRequestReached))
        }
    }

    /// Redraws the metrics table in place every second, and when a request is recorded or
    /// the terminal resized, until a key or Ctrl-C.
    private static func watchMetrics(_ session: isolated Session) async throws(ShellError) {
        let output = session.output
        guard output.isInteractive else {
            throw ShellError("--watch needs a terminal", advice: "metrics prints the table once, metrics --json the JSON")
        }
        let network = session.network
        try await Keyboard.withKeys { () async throws(ShellError) in
            output.write(TerminalCodes.hideCursor)
            defer { output.write(TerminalCodes.showCursor) }
            var drawing = RedrawnLines()
            try await RedrawLoop.run(every: .seconds(1), changes: { network.recordedCount }) { () throws(ShellError) -> Void? in
                let lines = metricsTable(session.client.metrics.snapshot(), session)
                    + [output.style.dim("Watching: any key or Ctrl-C stops.")]
                output.write(drawing.replace(with: lines, cursor: .below))
                return nil
            } react: { _ throws(ShellError) -> Void? in
                // Any key, Ctrl-C or the end of input stops watching (Ctrl-C is no failure here).
                ()
            }
        }
    }

    /// The metrics as people read them, at the terminal's width: a screen redrawn in place
    /// draws the table in every output mode.
    private static func metricsTable(_ snapshot: MetricsSnapshot, _ session: isolated Session) -> [String] {
        let online = MetricsView.online(server: session.server, lastRequestReached: session.network.lastRequestReached)
        let output = session.output
        let view = MetricsView.view(snapshot, rows: MetricsView.endpointRows(snapshot), online: online)
        return TableRenderer(width: output.width, style: output.style).lines(view)
    }
}
