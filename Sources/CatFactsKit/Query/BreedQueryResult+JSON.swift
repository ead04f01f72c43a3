/// Query answers as the C face and the shell's `--json` write them.
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
