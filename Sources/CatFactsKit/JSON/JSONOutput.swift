#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON the library hands out (C face, `--json`): UTF-8, keys sorted, slashes unescaped.
public enum JSONOutput {
    /// `value` as JSON text: the library's own values through ``JSONWriter``, anything else
    /// through `JSONEncoder` (the same bytes either way).
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

    /// `value` through `JSONEncoder`.
    static func encoded<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The library's output types hold only strings, numbers and booleans: encoding cannot fail.
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
