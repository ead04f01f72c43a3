import CatFactsKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings the C face hands out as `const char *` that the caller never frees.
enum StaticCStrings {
    /// `cf_version()`. Made once and never freed, so the pointer stays valid for the process.
    nonisolated(unsafe) static let version: UnsafePointer<CChar> = permanent(LibraryVersion.string)

    /// `cf_status_string()` for each status, indexed by raw value; made once, never freed.
    nonisolated(unsafe) static let statuses: [UnsafePointer<CChar>] = Status.allCases.map {
        permanent("\($0.constantName): \($0.phrase)")
    }

    /// For a value that is no status.
    nonisolated(unsafe) static let unknownStatus: UnsafePointer<CChar> = permanent("unknown status")

    /// The empty string `cf_last_error()` returns when there was no error.
    nonisolated(unsafe) static let empty: UnsafePointer<CChar> = permanent("")

    /// `cf_breed_page.source`: a page's ``Source`` as its name, made once, never freed.
    nonisolated(unsafe) private static let sources: [Source: UnsafePointer<CChar>] = Dictionary(
        uniqueKeysWithValues: Source.allCases.map { ($0, permanent($0.rawValue)) })

    static func source(_ source: Source) -> UnsafePointer<CChar> {
        sources[source] ?? empty
    }

    private static func permanent(_ text: String) -> UnsafePointer<CChar> {
        // strdup fails only when memory is exhausted; there is nothing sensible to hand out then.
        guard let copy = strdup(text) else { fatalError("out of memory making a static string") }
        return UnsafePointer(copy)
    }
}

/// A copy of `text` the caller owns and frees with `cf_free`; `nil` only when memory is exhausted.
func ownedCString(_ text: String) -> UnsafeMutablePointer<CChar>? {
    strdup(text)
}
