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
        // The data under lower-case names, as JSON and CSV name them; for people, capitalised,
        // the server with how it was chosen, and each warning wrapped, not cut: its end names
        // the file moved aside.
        let facts = [("server", server.url), ("state", state), ("fallback", fallback), ("last", last), ("cache", cacheState)]
            + warnings.map { ("cache_warning", $0) }
        let view = [("Server", "\(server.url) (\(server.origin.rawValue))"), ("State", state), ("Fallback", fallback),
                    ("Last", last), ("Cache", cacheState)].map { Record.Field($0.0.lowercased(), label: $0.0, value: $0.1) }
            + warnings.map { Record.Field("cache_warning", label: "Warning", value: $0, wraps: true) }
        output.show(Report(
            documents: [JSONDocument(SourceReport(
                server: server.url, origin: server.origin.rawValue, online: !server.offline && reached == true,
                offlineMode: server.offline, fallback: server.fallback, lastSource: session.lastSource, cache: cacheState,
                cacheWarnings: warnings))],
            data: .rows(Rows(columns: [Rows.Column("name"), Rows.Column("value")], records: facts.map { [$0.0, $0.1] })),
            view: [.fields(view)]))
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
