// The standard library's own canonical decomposition (the data String comparison uses):
// the shipped library links no Foundation, whose `decomposedStringWithCanonicalMapping`
// would bring ICU into it.
@_spi(_Unicode) import Swift

/// The one rule by which the library and its fronts compare text: case- and
/// diacritic-insensitive, the same in every locale ("Ébène" and "ebene" are one key;
/// "Ragdoll", "RagDoll" and "Ragdóll" are one breed). Breed lookup, queries, search and the
/// shell's completion all use it.
package enum TextFolding {
    /// `text` folded: each character decomposed (NFD), its nonspacing marks removed, the
    /// rest lowercased (as `String.lowercased()` does, scalar by scalar).
    package static func fold(_ text: String) -> String {
        // Fast path: plain ASCII needs lowercasing only.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        appendFolded(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 of `text` folded to `bytes`, without making a `String` (a prefix
    /// index of a million names folds them all): ASCII is lowercased in place, and only the
    /// other scalars are decomposed (those below U+0250, Latin, through a table made once by
    /// the same rule).
    package static func appendFolded(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        let ascii: Bool = text.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 < 0x80 }) else { return false }
            let start = bytes.count
            bytes.append(contentsOf: utf8)
            bytes.withUnsafeMutableBufferPointer { buffer in
                for index in start..<buffer.count where buffer[index] &- 0x41 < 26 { buffer[index] |= 0x20 }
            }
            return true
        }
        guard !ascii else { return }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(truncatingIfNeeded: scalar.value)
                bytes.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
            } else if scalar.value < latin.count {
                bytes.append(contentsOf: latin[Int(scalar.value)])
            } else {
                appendFolded(scalar, to: &bytes)
            }
        }
    }

    /// Appends one non-ASCII scalar folded: decomposed, nonspacing marks removed, lowercased.
    private static func appendFolded(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        for part in String(scalar)._nfd where part.properties.generalCategory != .nonspacingMark {
            bytes.append(contentsOf: part.properties.lowercaseMapping.utf8)
        }
    }

    /// The folded UTF-8 of every scalar below U+0250 (ASCII, Latin-1, Latin Extended-A and
    /// -B), made by ``appendFolded(_:to:)-(Unicode.Scalar,_)`` itself.
    private static let latin: [[UInt8]] = (0..<0x250).map { value in
        var folded: [UInt8] = []
        if let scalar = Unicode.Scalar(UInt32(value)) { appendFolded(scalar, to: &folded) }
        return folded
    }

    /// The key a breed name is matched by: trimmed, then folded; `""` for a blank name.
    package static func nameKey(_ name: String) -> String {
        fold(Breed.presence(name) ?? "")
    }
}
