/// The 64-bit FNV-1a hash: cheap and stable across processes and machines. The catalog
/// fingerprint of the prefix deny-list (``CatalogFingerprint``) and the mock's `ETag`s use it.
package struct FNV1a {
    /// The hash so far.
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// Mixes in one byte.
    package mutating func add(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01B3
    }

    /// Mixes in every byte of `bytes`.
    package mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte) }
    }

    /// The hash of `bytes`.
    package static func hash64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = FNV1a()
        hash.add(bytes)
        return hash.value
    }

    /// The hash in 16 lowercase hex digits.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A strong `ETag` value for `bytes`: the hash in 16 hex digits, quoted.
    package static func etag(_ bytes: [UInt8]) -> String {
        "\"" + hex(hash64(bytes)) + "\""
    }
}
