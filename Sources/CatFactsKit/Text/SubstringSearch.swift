#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension String {
    /// Whether `part` occurs in this text, byte for byte in UTF-8.
    ///
    /// The library's one substring test. Its answer is Unicode scalar by scalar (UTF-8 never
    /// matches inside a scalar), which is what folded text (``TextFolding``) and libcurl's and
    /// the options' ASCII need; the standard library's `contains(_:)` compares characters
    /// instead and brings the regex engine (`_StringProcessing`, `_RegexParser`: about 0.9 MB)
    /// into the shipped library for it.
    package func holds(_ part: String) -> Bool {
        guard !part.isEmpty else { return true }
        var text = self, part = part
        return text.withUTF8 { text in
            part.withUTF8 { part in
                // glibc's memmem is a GNU extension the Glibc module does not export; the texts
                // searched are short (a field, an error message), so each start is tried in turn.
                guard let base = text.baseAddress, let wanted = part.baseAddress, text.count >= part.count else {
                    return false
                }
                let first = wanted.pointee
                for start in 0...(text.count - part.count)
                where base[start] == first && memcmp(base + start, wanted, part.count) == 0 {
                    return true
                }
                return false
            }
        }
    }
}
