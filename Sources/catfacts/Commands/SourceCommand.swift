import CatFactsKit

extension Command {
    /// `source`.
    static let source = Command(
        name: "source", synopsis: "source", summary: "server, online or offline, cache",
        details: """
            Says where the data comes from: the server and how it was chosen, whether it is
            reached (or the shell answers from the bundled offline catalog), where the last
            result came from, and where pages are cached (the file and when it was last written),
            with what went wrong with the cache (a damaged file moved aside, a full disk, a
            read-only folder).
            """
    ) { session, arguments throws(ShellError) in
        try arguments.expectNone()
        printSource(session)
    }

    /// The server, its state, where the last result came from, and the cache with its warnings.
    private static func printSource(_ session: isolated Session) {
        let server = session.server
        let output = session.output
        let reached = session.network.lastRequestReached
        let state: String
        if server.offline {
            state = "offline (--offline): nothing is sent; answers come from the bundled catalog"
        } else if let reached {
            state = reached ? "online: the last request reached the server"
                : server.fallback ? "offline: the server cannot be reached; answers come from the bundled catalog"
                : "offline: the server cannot be reached"
        } else {
            state = "not asked yet"
        }
        let fallback = server.fallback ? "the bundled catalog, when the server cannot be reached" : "none (--no-fallback)"
        let last = session.lastSource.map(describe) ?? "nothing fetched yet"
        let cacheState = cacheDescription(session.cache, client: session.client)
        let warnings = session.client.cacheWarnings
        switch output.mode {
        case .json:
            output.print(JSONOutput.string(SourceReport(
                server: server.url, origin: server.origin.rawValue, online: !server.offline && reached == true,
                offlineMode: server.offline, fallback: server.fallback, lastSource: session.lastSource, cache: cacheState,
                cacheWarnings: warnings)))
        case .csv:
            output.printRecords([["name", "value"], ["server", server.url], ["state", state], ["fallback", fallback],
                                 ["last", last], ["cache", cacheState]] + warnings.map { ["cache_warning", $0] })
        case .plain:
            output.print(["server\t\(server.url)", "state\t\(state)", "fallback\t\(fallback)",
                          "last\t\(last)", "cache\t\(cacheState)"] + warnings.map { "cache_warning\t" + BreedRows.tabSafe($0) })
        case .table:
            let rows = [("Server", "\(server.url) (\(server.origin.rawValue))"), ("State", state),
                        ("Fallback", fallback), ("Last", last), ("Cache", cacheState)]
            let style = output.style
            let valueWidth = max(Table.minimumWidth, output.width - 10)
            output.print(rows.map { name, value in
                style.bold(DisplayWidth.pad(name, to: 8)) + "  " + DisplayWidth.truncate(value, to: valueWidth)
            })
            // Wrapped, not truncated: the end of a warning names the file moved aside.
            for warning in warnings {
                let wrapped = TextWrap.lines(warning, width: valueWidth)
                output.print(wrapped.enumerated().map { index, line in
                    (index == 0 ? style.bold(DisplayWidth.pad("Warning", to: 8)) : String(repeating: " ", count: 8))
                        + "  " + line
                })
            }
        }
    }

    /// The cache choice in words, unless the library could not use the file chosen: then
    /// the memory cache it fell back to (a warning says why).
    private static func cacheDescription(_ cache: CacheChoice, client: CatFactsClient) -> String {
        if case .file(let path) = cache, let store = client.store, store.path == nil {
            return "in memory, for this session: \(path) cannot be used (see the warning)"
        }
        return cache.description
    }

    private static func describe(_ source: Source) -> String {
        switch source {
        case .network: "the server (live)"
        case .cache: "the cache"
        case .offlineCatalog: "the bundled offline catalog"
        }
    }
}
