#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a client's requests go: an endpoint's path under the base URL (keeping a base path
/// prefix such as `/v1`), with the query a call asked for.
struct EndpointAddress: Sendable {
    /// The base URL, validated (``ClientOptions/validatedBaseURL()``).
    let baseURL: URL

    /// The URL of `endpoint` with `query`.
    func url(_ endpoint: Endpoint, query: [URLQueryItem] = []) -> URL {
        let url = baseURL.appendingPathComponent(String(endpoint.path.dropFirst()))
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.queryItems = query
        return components.url ?? url
    }

    /// The query of a page or fact request, refusing numbers no server takes before any
    /// request is sent.
    static func query(page: Int?, limit: Int?, maxLength: Int?) throws(CatFactsError) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let page {
            guard page >= 1 else { throw .argument("page \(page): pages are numbered from 1") }
            items.append(URLQueryItem(name: "page", value: String(page)))
        }
        if let limit {
            guard limit >= 1 else { throw .argument("limit \(limit): a page holds at least 1 item") }
            items.append(URLQueryItem(name: "limit", value: String(limit)))
        }
        if let maxLength {
            guard maxLength >= 0 else { throw .argument("max_length \(maxLength) is negative (0 means no limit)") }
            if maxLength > 0 { items.append(URLQueryItem(name: "max_length", value: String(maxLength))) }
        }
        return items
    }
}
