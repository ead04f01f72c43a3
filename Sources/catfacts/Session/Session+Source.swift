import CatFactsKit

extension Session {
    /// The server, its state, where the last result came from, and the cache with its warnings.
    func printSource() {
        let reached = network.lastRequestReached
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
        let last = lastSource.map(Self.describe) ?? "nothing fetched yet"
        let cacheState = cacheDescription
        let warnings = client.cacheWarnings
        switch output {
        case .json:
            console.print(JSONOutput.string(SourceReport(
                server: server.url, origin: server.origin.rawValue, online: !server.offline && reached == true,
                offlineMode: server.offline, fallback: server.fallback, lastSource: lastSource, cache: cacheState,
                cacheWarnings: warnings)))
        case .csv:
            console.printRecords([["name", "value"], ["server", server.url], ["state", state], ["fallback", fallback],
                                  ["last", last], ["cache", cacheState]] + warnings.map { ["cache_warning", $0] })
        case .plain:
            console.print(["server\t\(server.url)", "state\t\(state)", "fallback\t\(fallback)",
                           "last\t\(last)", "cache\t\(cacheState)"] + warnings.map { "cache_warning\t" + BreedRows.tabSafe($0) })
        case .table:
            let rows = [("Server", "\(server.url) (\(server.origin.rawValue))"), ("State", state),
                        ("Fallback", fallback), ("Last", last), ("Cache", cacheState)]
            let valueWidth = max(Table.minimumWidth, width - 10)
            console.print(rows.map { name, value in
                console.style.bold(DisplayWidth.pad(name, to: 8)) + "  " + DisplayWidth.truncate(value, to: valueWidth)
            })
            // Wrapped, not truncated: the end of a warning names the file moved aside.
            for warning in warnings {
                let wrapped = TextWrap.lines(warning, width: valueWidth)
                console.print(wrapped.enumerated().map { index, line in
                    (index == 0 ? console.style.bold(DisplayWidth.pad("Warning", to: 8)) : String(repeating: " ", count: 8))
                        + "  " + line
                })
            }
        }
    }

    /// The cache choice in words, unless the library could not use the file chosen: then
    /// the memory cache it fell back to (a warning says why).
    private var cacheDescription: String {
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
