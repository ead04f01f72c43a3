/// A live search's answer as the C face hands it to `cf_search_listener`, keys sorted:
/// `{"items":[...],"source":"network","text":"ab"}`, or `{"error":"...","source":...,"text":...}`.
extension SearchAnswer: JSONWritable {
    @_optimize(size)  // once per answer
    func writeJSON(to writer: inout JSONWriter) {
        writer.object { object in
            switch result {
            case .success(let items): object.member("items") { $0.array(items) }
            case .failure(let error): object.member("error", error.description)
            }
            object.member("source", source.rawValue)
            object.member("text", text)
        }
    }

    /// The answer as JSON (above).
    public var json: String {
        var writer = JSONWriter()
        writeJSON(to: &writer)
        return writer.text
    }
}
