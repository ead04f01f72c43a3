import Foundation

/// The JSON the library hands out (C face, `--json`): UTF-8, keys sorted, slashes unescaped.
public enum JSONOutput {
    /// `value` as JSON text: the library's own values through ``JSONWriter``, anything else
    /// through `JSONEncoder` (the same bytes either way).
    public static func string<Value: Encodable>(_ value: Value) -> String {
        if let writable = value as? any JSONWritable {
            var writer = JSONWriter()
            writable.writeJSON(to: &writer)
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        return encoded(value)
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
