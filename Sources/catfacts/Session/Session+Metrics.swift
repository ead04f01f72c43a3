import CatFactsKit

extension Session {
    /// The metrics in the session's output mode.
    func printMetrics() {
        let snapshot = client.metrics.snapshot()
        switch output {
        case .json: console.print(snapshot.json())
        case .plain: console.print(MetricsView.plain(snapshot, online: !server.offline && network.lastRequestReached == true))
        case .table: console.print(metricsLines(snapshot))
        case .csv: console.printRecords(MetricsView.csv(snapshot))
        }
    }

    /// Redraws the metrics table in place every second, and when a request is recorded or
    /// the terminal resized, until a key or Ctrl-C.
    func watchMetrics() async throws(ShellError) {
        guard isInteractive else {
            throw ShellError("--watch needs a terminal", advice: "metrics prints the table once, metrics --json the JSON")
        }
        try await Keyboard.withKeys { () async throws(ShellError) in
            console.write(Self.hideCursor)
            defer { console.write(Self.showCursor) }
            var drawn = 0
            while true {
                let lines = metricsLines(client.metrics.snapshot())
                    + [console.style.dim("Watching: any key or Ctrl-C stops.")]
                // Back to the top of the last drawing, and clear from there down.
                if drawn > 0 { console.write("\u{1B}[\(drawn)A\r\u{1B}[J") }
                console.print(lines)
                drawn = lines.count
                let recorded = network.recordedCount
                let resized = ResizeSignal.current
                let outcome = await Keyboard.next(timeout: .seconds(1)) { [network] in
                    network.recordedCount != recorded || ResizeSignal.current != resized
                }
                switch outcome {
                case .timeout: continue
                case .key, .cancelled, .closed: return
                }
            }
        }
    }

    private func metricsLines(_ snapshot: MetricsSnapshot) -> [String] {
        let online: String
        switch (server.offline, network.lastRequestReached) {
        case (true, _): online = "no (--offline: nothing is sent)"
        case (false, nil): online = "not known yet (no request sent)"
        case (false, true?): online = "yes"
        case (false, false?): online = server.fallback ? "no (answering from the bundled offline catalog)" : "no"
        }
        return MetricsView.lines(snapshot, online: online, width: width, style: console.style)
    }

    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
}
