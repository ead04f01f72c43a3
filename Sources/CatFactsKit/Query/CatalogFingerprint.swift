/// A name for one catalog's set of breed names, stable across processes and machines
/// (FNV-1a, 64 bits, over the folded names in the server's order): denied prefixes saved in
/// the cache are filed under it, so a catalog whose names changed starts a new deny-list.
enum CatalogFingerprint {
    static func of(_ index: PrefixIndex) -> String {
        var hash = FNV1a()
        index.forEachFoldedName { name in
            hash.add(name)
            hash.add(0) // No name holds NUL, so "ab"+"c" and "a"+"bc" differ.
        }
        return "\(index.count)-" + FNV1a.hex(hash.value)
    }
}
