/// A name for one catalog's set of breed names, stable across processes and machines
/// (FNV-1a, 64 bits, over the folded names in the server's order): denied prefixes saved in
/// the cache are filed under it, so a catalog whose names changed starts a new deny-list.
enum CatalogFingerprint {
    static func of(foldedNames: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        for name in foldedNames {
            name.utf8.forEach(mix)
            mix(0) // No name holds NUL, so "ab"+"c" and "a"+"bc" differ.
        }
        let hex = String(hash, radix: 16)
        return "\(foldedNames.count)-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
