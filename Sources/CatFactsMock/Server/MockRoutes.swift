import CatFactsKit
import Hummingbird

/// The API's three routes over a catalog: `/breeds`, `/facts` and `/fact`, answering what
/// the real service answers, errors included (404 and 405 as JSON, 422 for bad parameters).
struct MockRoutes: Sendable {
    let catalog: MockCatalog
    let maxLimit: Int

    /// The routes whose reply is a function of the request alone (`/fact` draws at random):
    /// their pages may be rendered once and served again.
    static let pagePaths: Set<String> = ["/breeds", "/facts"]

    /// Default page sizes of the real service.
    static let breedsPerPage = 25
    static let factsPerPage = 10

    /// The reply to a request for `path` (already normalised), whose page URLs start with
    /// `origin` (e.g. `http://127.0.0.1:8106`). `random` picks `/fact`'s fact.
    func reply(method: HTTPRequest.Method, path: String,
               query: some Sequence<(key: Substring, value: Substring)>,
               origin: String, random: UInt64) -> MockReply {
        let accepted: [ListQuery.Parameter]
        switch path {
        case "/breeds": accepted = [.page, .limit]
        case "/facts": accepted = [.page, .limit, .maxLength]
        case "/fact": accepted = [.maxLength]
        default: return .message(.notFound, "Not Found")
        }
        guard method == .get || method == .head else {
            var reply = MockReply.message(.methodNotAllowed,
                "The \(method.rawValue) method is not supported for this route. Supported methods: GET, HEAD.")
            reply.headers[.allow] = "GET, HEAD"
            return reply
        }
        let parameters: ListQuery
        do throws(LaravelValidationError) {
            parameters = try ListQuery(query, accepting: accepted)
        } catch {
            return MockReply(status: .unprocessableContent, body: error.body)
        }
        switch path {
        case "/breeds": return breeds(parameters, path: origin + path)
        case "/facts": return facts(parameters, path: origin + path)
        default: return fact(parameters, random: random)
        }
    }

    private func breeds(_ query: ListQuery, path: String) -> MockReply {
        let perPage = query.perPage(default: Self.breedsPerPage, cap: maxLimit)
        let paginator = LaravelPaginator(total: catalog.breeds.count, perPage: perPage.value, currentPage: query.page)
        let page = catalog.breeds.breeds(in: paginator.itemRange)
        let start = paginator.itemRange.lowerBound
        let body = LaravelPageWriter(path: path, paginator: paginator, perPage: perPage).body { json, position in
            json.breed(page[position - start])
        }
        return MockReply(status: .ok, body: body)
    }

    private func facts(_ query: ListQuery, path: String) -> MockReply {
        let perPage = query.perPage(default: Self.factsPerPage, cap: maxLimit)
        let total = catalog.facts.count(maxLength: query.maxLength)
        let paginator = LaravelPaginator(total: total, perPage: perPage.value, currentPage: query.page)
        let page = catalog.facts.facts(maxLength: query.maxLength, in: paginator.itemRange)
        let start = paginator.itemRange.lowerBound
        let body = LaravelPageWriter(path: path, paginator: paginator, perPage: perPage).body(itemCapacity: 200) { json, position in
            json.fact(page[position - start])
        }
        return MockReply(status: .ok, body: body)
    }

    private func fact(_ query: ListQuery, random: UInt64) -> MockReply {
        let count = catalog.facts.count(maxLength: query.maxLength)
        guard count > 0 else {
            let limit = query.maxLength.map { " of at most \($0) characters" } ?? ""
            return .message(.notFound, "No fact\(limit) was found.")
        }
        // The high half of random × count: uniform enough, and never out of range.
        let index = Int(random.multipliedFullWidth(by: UInt64(count)).high)
        var json = PHPJSONWriter()
        for fact in catalog.facts.facts(maxLength: query.maxLength, in: index..<(index + 1)) {
            json.fact(fact)
        }
        return MockReply(status: .ok, body: json.bytes)
    }
}
