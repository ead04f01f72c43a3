/// Where a client's requests go: an endpoint's path under the base URL (keeping a base path
/// prefix such as `/v1`), with the query a call asked for.
struct EndpointAddress: Sendable {
    /// The base URL, validated (``ClientOptions/validatedBaseURL()``).
    let baseURL: WebAddress

    /// The URL of `endpoint` with `query`.
    func url(_ endpoint: Endpoint, query: [QueryItem] = []) -> WebAddress {
        baseURL.appending(path: endpoint.path, query: query)
    }

    /// The query of a page or fact request, refusing numbers no server takes before any
    /// request is sent.
    static func query(page: Int?, limit: Int?, maxLength: Int?) throws(CatFactsError) -> [QueryItem] {
        var items: [QueryItem] = []
        if let page {
            guard page >= 1 else { throw .argument("page \(page): pages are numbered from 1") }
            items.append(QueryItem(name: "page", value: String(page)))
        }
        if let limit {
            guard limit >= 1 else { throw .argument("limit \(limit): a page holds at least 1 item") }
            items.append(QueryItem(name: "limit", value: String(limit)))
        }
        if let maxLength {
            guard maxLength >= 0 else { throw .argument("max_length \(maxLength) is negative (0 means no limit)") }
            if maxLength > 0 { items.append(QueryItem(name: "max_length", value: String(maxLength))) }
        }
        return items
    }
}
