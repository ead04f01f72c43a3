import CatFactsKit
// FoundationEssentials, not Foundation: a program linking this module would otherwise carry
// Foundation's ICU data, tens of MB (BENCHMARKS.md, Footprint).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// CatFactsKit's own value types as Foundation's, for programs that use Foundation (the shell,
// Apple apps). CatFactsKit itself does not import Foundation, so that libCatFacts.so does not
// carry it (see BENCHMARKS.md, "Footprint").

extension Date {
    /// The moment `timestamp` names.
    public init(_ timestamp: Timestamp) {
        self.init(timeIntervalSince1970: timestamp.timeIntervalSince1970)
    }
}

extension Timestamp {
    /// The moment `date` names.
    public init(_ date: Date) {
        self.init(timeIntervalSince1970: date.timeIntervalSince1970)
    }
}

extension URL {
    /// The URL `address` names (its text, which Foundation parses again).
    public init?(_ address: WebAddress) {
        self.init(string: address.absoluteString)
    }
}

extension WebAddress {
    /// The address of `url`; `nil` for a URL this type refuses.
    public init?(_ url: URL) {
        self.init(string: url.absoluteString)
    }
}

/// `localizedDescription` says what ``CatFactsError/description`` says.
extension CatFactsError: LocalizedError {}
