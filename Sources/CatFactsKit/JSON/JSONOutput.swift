/// The JSON the library hands out (C face, `--json`, OTLP/HTTP JSON): UTF-8, keys sorted,
/// slashes unescaped.
public enum JSONOutput {
    /// `value` as JSON text: the library's own values through ``JSONWriter``, anything else
    /// through ``JSONTreeEncoder`` (the same bytes either way).
    public static func string<Value: Encodable>(_ value: Value) -> String {
        // The pages C asks for most, by their concrete types, so the writer runs specialized
        // (through the protocol, every item costs generic metadata lookups).
        if let page = value as? Page<Breed> { return written(page) }
        if let page = value as? Page<Fact> { return written(page) }
        if let writable = value as? any JSONWritable { return written(writable) }
        return encoded(value)
    }

    private static func written(_ value: some JSONWritable) -> String {
        var writer = JSONWriter()
        value.writeJSON(to: &writer)
        return writer.text
    }

    /// `value` through ``JSONTreeEncoder``.
    static func encoded<Value: Encodable>(_ value: Value) -> String {
        // The library's output types hold only strings, integers, finite numbers and
        // booleans: encoding cannot fail.
        (try? JSONTreeEncoder.text(value)) ?? "{}"
    }
}
