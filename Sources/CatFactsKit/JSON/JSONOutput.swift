#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON the library hands out (C face, `--json`, OTLP/HTTP JSON): UTF-8, keys sorted,
/// slashes unescaped.
public enum JSONOutput {
    /// `value` as JSON text: the library's own values through ``JSONWriter``, anything else
    /// through ``JSONTreeEncoder`` (the same bytes either way).
    public static func string<Value: Encodable>(_ value: Value) -> String {
        var writer = JSONWriter()
        write(value, to: &writer)
        return writer.text
    }

    /// `value` as ``string(_:)`` writes it, NUL-terminated, in a block of malloc's that the
    /// caller releases with free(3): the C face's answers (a page of 1000 breeds is some
    /// 200 kB), written once into the block handed out rather than copied from a `String`.
    public static func cString<Value: Encodable>(_ value: Value) -> UnsafeMutablePointer<CChar> {
        var writer = JSONWriter()
        write(value, to: &writer)
        return writer.cString()
    }

    private static func write<Value: Encodable>(_ value: Value, to writer: inout JSONWriter) {
        // The pages C asks for most, by their concrete types, so the writer runs specialized
        // (through the protocol, every item costs generic metadata lookups).
        if let page = value as? Page<Breed> { return page.writeJSON(to: &writer) }
        if let page = value as? Page<Fact> { return page.writeJSON(to: &writer) }
        if let writable = value as? any JSONWritable { return writable.writeJSON(to: &writer) }
        // The library's output types hold only strings, integers, finite numbers and
        // booleans: encoding cannot fail (and a failure leaves the writer untouched).
        do { try JSONTreeEncoder.write(value, to: &writer) } catch { writer.raw("{}") }
    }

    /// `value` through ``JSONTreeEncoder``.
    static func encoded<Value: Encodable>(_ value: Value) -> String {
        (try? JSONTreeEncoder.text(value)) ?? "{}"
    }
}
