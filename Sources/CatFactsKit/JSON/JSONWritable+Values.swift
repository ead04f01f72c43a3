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

/// A decoded page's breeds, written from its text without making a `Breed` (the keys sorted as
/// ``Breed``'s writer sorts them: breed, coat, country, origin, pattern).
extension BreedArena: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.reserve(textSize + count * 64 + 2)
        writer.array(count: count) { writer, index in
            writer.object { object in
                object.member("breed", utf8: field(index, 0))
                object.member("coat", utf8: field(index, 3))
                object.member("country", utf8: field(index, 1))
                object.member("origin", utf8: field(index, 2))
                object.member("pattern", utf8: field(index, 4))
            }
        }
    }
}

/// A decoded page's facts, written from its text without making a `Fact`.
extension FactArena: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.reserve(textSize + count * 32 + 2)
        writer.array(count: count) { writer, index in
            writer.object { object in
                object.member("fact") { $0.string(utf8: text(at: index)) }
                object.member("length", lengths[index])
            }
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
        let fetched = fetchedAt.iso8601
        writer.reserve(160 + (arena == nil && factArena == nil ? items.count * 128 : 0))
        writer.object { object in
            object.member("fetched_at", fetched)
            // A page decoded into an arena is written from it: its items are never made.
            object.member("items") { writer in
                if let arena {
                    arena.writeJSON(to: &writer)
                } else if let factArena {
                    factArena.writeJSON(to: &writer)
                } else {
                    writer.array(items)
                }
            }
            object.member("last_page", lastPage)
            object.member("page", number)
            object.member("per_page", perPage)
            object.member("source", source.rawValue)
            object.member("total", total)
        }
    }
}
