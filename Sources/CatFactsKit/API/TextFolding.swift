// The standard library's own canonical decomposition (the data String comparison uses):
// Foundation's `decomposedStringWithCanonicalMapping` is not in FoundationEssentials, and
// the rest of Foundation would bring ICU into the shipped library.
@_spi(_Unicode) import Swift

/// The one rule by which the library and its fronts compare text: case- and
/// diacritic-insensitive, the same in every locale ("Ébène" and "ebene" are one key;
/// "Ragdoll", "RagDoll" and "Ragdóll" are one breed). Breed lookup, queries, search and the
/// shell's completion all use it.
package enum TextFolding {
    /// `text` folded: lowercased, with its combining marks removed.
    package static func fold(_ text: String) -> String {
        // Fast path: plain ASCII needs lowercasing only.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var scalars = String.UnicodeScalarView()
        for scalar in text._nfd
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars).lowercased()
    }

    /// Appends the UTF-8 of `text` folded to `bytes`, without making a `String` when `text`
    /// is ASCII (a prefix index of a million names folds them all).
    package static func appendFolded(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        let ascii: Bool = text.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            for byte in utf8 { bytes.append(byte &- 0x41 < 26 ? byte | 0x20 : byte) }
            return true
        }
        if !ascii { bytes.append(contentsOf: fold(text).utf8) }
    }

    /// The key a breed name is matched by: trimmed, then folded; `""` for a blank name.
    package static func nameKey(_ name: String) -> String {
        fold(Breed.presence(name) ?? "")
    }
}
