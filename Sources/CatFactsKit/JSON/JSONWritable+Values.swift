// The values the C face and `--json` hand out, written by JSONWriter. Keys in sorted order,
// fields as each type's `encode(to:)` writes them (absent ones left out): the tests check
// the two give the same bytes.

extension Breed: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.object { object in
            object.member("breed", breed)
            object.member("coat", coat)
            object.member("country", country)
            object.member("origin", origin)
            object.member("pattern", pattern)
        }
    }
}

extension Fact: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.object { object in
            object.member("fact", text)
            object.member("length", length)
        }
    }
}

extension Page: JSONWritable where Item: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        let fetched = fetchedAt.formatted(.iso8601)
        writer.reserve(160 + items.count * 128)
        writer.object { object in
            object.member("fetched_at", fetched)
            object.member("items") { $0.array(items) }
            object.member("last_page", lastPage)
            object.member("page", number)
            object.member("per_page", perPage)
            object.member("source", source.rawValue)
            object.member("total", total)
        }
    }
}
