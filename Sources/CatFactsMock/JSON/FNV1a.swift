/// The 64-bit FNV-1a hash: a cheap, stable fingerprint of a response body for its `ETag`.
enum FNV1a {
    /// The hash of `bytes`.
    static func hash64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// A strong `ETag` value for `bytes`: the hash in 16 hex digits, quoted.
    static func etag(_ bytes: [UInt8]) -> String {
        let hex = String(hash64(bytes), radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}
