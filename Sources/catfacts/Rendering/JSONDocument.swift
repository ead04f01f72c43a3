import CatFactsKit

/// One JSON document of a ``Report``, written only when the JSON renderer asks for it.
struct JSONDocument: Sendable {
    private let write: @Sendable () -> String

    /// `value` as ``JSONOutput`` writes it: the library's own JSON for its values.
    init<Value: Encodable & Sendable>(_ value: Value) {
        write = { JSONOutput.string(value) }
    }

    /// A document some other code writes (the metrics' JSON).
    init(writtenBy write: @escaping @Sendable () -> String) {
        self.write = write
    }

    /// The document's text, on one line.
    var text: String { write() }
}
