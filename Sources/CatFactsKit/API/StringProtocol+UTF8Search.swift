extension StringProtocol {
    /// Whether `other`'s UTF-8 bytes occur in this text's; an empty `other` does not (as with
    /// `String.contains(_:)`).
    ///
    /// Not `String.contains(_:)`, which is _StringProcessing's: that module (its Regex engine
    /// and Unicode tables, about 0.5 MB) would come into libCatFacts.so for this one use. The
    /// two differ only where a match starts or ends inside a character of several scalars (an
    /// accent's combining mark, an emoji sequence); the library searches folded text
    /// (``TextFolding``, marks removed) and ASCII messages, where they agree.
    func containsUTF8(_ other: some StringProtocol) -> Bool {
        let needle = Array(other.utf8)
        guard let first = needle.first else { return false }
        let haystack = Array(utf8)
        guard haystack.count >= needle.count else { return false }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}
