/// Query answers as the C face and the shell's `--json` write them: `{"items":[...]}` or
/// `{"groups":[{"items":[...],"key":"Egypt"}]}`, through ``JSONWriter`` or ``JSONTreeEncoder``
/// (the same bytes).
extension BreedQueryResult: Encodable {
    enum CodingKeys: String, CodingKey { case items, groups }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .items(let items): try c.encode(items, forKey: .items)
        case .groups(let groups): try c.encode(groups, forKey: .groups)
        }
    }
}

extension BreedGroup: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.object { object in
            object.member("items") { $0.array(items) }
            object.member("key", key)
        }
    }
}

extension BreedQueryResult: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.object { object in
            switch self {
            case .items(let items): object.member("items") { $0.array(items) }
            case .groups(let groups): object.member("groups") { $0.array(groups) }
            }
        }
    }
}
