import CatFactsKit
// FoundationEssentials, not Foundation: a program linking this module would otherwise carry
// Foundation's ICU data, tens of MB (BENCHMARKS.md, Footprint).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ``PageDecoder`` over Foundation's `JSONDecoder`: any `Decodable` item type, at about a
/// tenth of ``ScanningPageDecoder``'s speed on breeds (BENCHMARKS.md, "Decode throughput").
/// The tests and the fuzzer hold the scanning decoder to its answers.
public struct FoundationPageDecoder: PageDecoder {
    public init() {}

    public func decodePage<Item: Decodable & Sendable>(_ type: Item.Type, from body: [UInt8]) throws(DecodeFailure) -> PageBody<Item> {
        let paginator = try decodeObject(Paginator<Item>.self, from: body)
        return PageBody(currentPage: paginator.currentPage, lastPage: paginator.lastPage,
                        perPage: paginator.perPage, total: paginator.total, items: paginator.data)
    }

    public func decodeObject<Value: Decodable>(_ type: Value.Type, from body: [UInt8]) throws(DecodeFailure) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(body))
        } catch let error as DecodingError {
            throw DecodeFailure(Self.explain(error, bodySize: body.count))
        } catch {
            throw DecodeFailure("\(error) (\(body.count) bytes)")
        }
    }

    /// Turns a `DecodingError` into "what, at which key path".
    @_optimize(size)  // once per error
    static func explain(_ error: DecodingError, bodySize: Int) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            let text = keys.reduce(into: "") { out, key in
                if let index = key.intValue { out += "[\(index)]" } else { out += out.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text.isEmpty ? "the top level" : "'\(text)'"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "missing \(type) value at \(path(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let cause = context.underlyingError.map { "\($0)" }
                return "the body is not valid JSON (\(bodySize) bytes\(cause.map { ": \($0)" } ?? ""))"
            }
            return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }
}
