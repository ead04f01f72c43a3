import Foundation

/// Text as queries compare it: case- and diacritic-insensitive, the same in every locale
/// ("Ébène" and "ebene" are one key).
enum TextFolding {
    static func fold(_ text: String) -> String {
        // Fast path: plain ASCII needs lowercasing only.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars).lowercased()
    }
}
