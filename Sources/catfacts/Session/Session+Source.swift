import CatFactsKit

extension Session {
    /// The server, its state, where the last result came from, and the cache.
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
        let cacheState = cache.description
        switch output {
        case .json:
            console.print(JSONOutput.string(SourceReport(
                server: server.url, origin: server.origin.rawValue, online: !server.offline && reached == true,
                offlineMode: server.offline, fallback: server.fallback, lastSource: lastSource, cache: cacheState)))
        case .csv:
            console.printRecords([["name", "value"], ["server", server.url], ["state", state], ["fallback", fallback],
                                  ["last", last], ["cache", cacheState]])
        case .plain:
            console.print(["server\t\(server.url)", "state\t\(state)", "fallback\t\(fallback)",
                           "last\t\(last)", "cache\t\(cacheState)"])
        case .table:
            let rows = [("Server", "\(server.url) (\(server.origin.rawValue))"), ("State", state),
                        ("Fallback", fallback), ("Last", last), ("Cache", cacheState)]
            console.print(rows.map { name, value in
                console.style.bold(DisplayWidth.pad(name, to: 8)) + "  " + DisplayWidth.truncate(value, to: max(Table.minimumWidth, width - 10))
            })
        }
    }

    private static func describe(_ source: Source) -> String {
        switch source {
        case .network: "the server (live)"
        case .cache: "the cache"
        case .offlineCatalog: "the bundled offline catalog"
        }
    }
}
