import CatFactsKit

/// One page of a query's answer (`group`, `sort`, `filter`, `search`), cut from the whole
/// answer as `breeds` pages are cut from the list: numbered across the whole answer, so
/// that page 2 at 10 a page starts at 11, and a group split by a page edge keeps its key.
struct QueryPage: Sendable, Encodable {
    /// A breed on the page: its number in the whole answer and its group's key, if grouped.
    struct Row: Sendable {
        var number: Int
        var breed: Breed
        var group: String?
    }

    /// The page, from 1.
    var number: Int
    /// The last page (1 for an empty answer, or with `--all`).
    var lastPage: Int
    /// Breeds in the whole answer.
    var total: Int
    /// Groups in the whole answer (`nil` when not grouped).
    var groupCount: Int?
    /// The breeds of every group in the whole answer, by key, for the headings.
    var groupSizes: [String: Int]
    var rows: [Row]

    /// Page `number` of `result` at `size` a page (`nil`: everything, on one page).
    init(_ result: BreedQueryResult, page number: Int, size: Int?) {
        var all: [Row] = []
        switch result {
        case .items(let items):
            all = items.enumerated().map { Row(number: $0.offset + 1, breed: $0.element) }
            groupCount = nil
            groupSizes = [:]
        case .groups(let groups):
            for group in groups {
                for breed in group.items { all.append(Row(number: all.count + 1, breed: breed, group: group.key)) }
            }
            groupCount = groups.count
            groupSizes = Dictionary(groups.map { ($0.key, $0.items.count) }, uniquingKeysWith: +)
        }
        total = all.count
        guard let size else {
            self.number = 1
            lastPage = 1
            rows = all
            return
        }
        self.number = number
        lastPage = max(1, (all.count + size - 1) / size)
        let start = min(all.count, (number - 1) * size)
        rows = Array(all[start..<min(all.count, start + size)])
    }

    private enum CodingKeys: String, CodingKey {
        case page, lastPage = "last_page", total, items, groups
    }

    /// `{"page","last_page","total"}` and the page's breeds as the library's query JSON
    /// has them: `items`, or `groups` of `{"key","items"}`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .page)
        try container.encode(lastPage, forKey: .lastPage)
        try container.encode(total, forKey: .total)
        if groupCount == nil {
            try container.encode(rows.map(\.breed), forKey: .items)
        } else {
            var groups: [BreedGroup] = []
            for row in rows {
                if let key = row.group, groups.last?.key == key {
                    groups[groups.count - 1].items.append(row.breed)
                } else {
                    groups.append(BreedGroup(key: row.group ?? "", items: [row.breed]))
                }
            }
            try container.encode(groups, forKey: .groups)
        }
    }
}
