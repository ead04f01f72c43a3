// The standard library's own canonical decomposition (the data String comparison uses):
// Foundation's `decomposedStringWithCanonicalMapping` is not in FoundationEssentials, and
// the rest of Foundation would bring ICU into the shipped library.
@_spi(_Unicode) import Swift

/// Text as queries compare it: case- and diacritic-insensitive, the same in every locale
/// ("Ébène" and "ebene" are one key).
enum TextFolding {
    static func fold(_ text: String) -> String {
        // Fast path: plain ASCII needs lowercasing only.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var scalars = String.UnicodeScalarView()
        for scalar in text._nfd
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars).lowercased()
    }
}
