/// A decoded value the cache may keep in memory, with what it takes there.
package protocol KeptDecoded: Sendable {
    /// The bytes it holds (its buffers), for the cap.
    var keptBytes: Int { get }
}

extension ArenaPage: KeptDecoded {
    package var keptBytes: Int { arena.bufferBytes + 128 }
}

/// The pages the cache holds decoded, in memory, in front of its store: a hit within the TTL
/// is a dictionary lookup, with no read of the store, no decode and no write (the use is
/// noted, ``ResponseStore/noteUse(_:)``). Capped in bytes like the store (least recently used
/// out first); what it drops stays in the store, decoded again if asked.
final class DecodedPages: Sendable {
    struct Entry {
        var value: any KeptDecoded
        var fetchedAt: Timestamp
        var bytes: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Locked(State())
    let maxBytes: Int

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// The value kept under `key` and when it was fetched, if it is a `Value`.
    func lookup<Value>(_ key: String, as type: Value.Type) -> (Value, Timestamp)? {
        state.withLock { state in
            guard var entry = state.entries[key], let value = entry.value as? Value else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            return (value, entry.fetchedAt)
        }
    }

    /// Keeps `value` under `key` (replacing what was there), when it is one that can be kept
    /// and fits the cap; drops the least recently used until the cap holds.
    func keep<Value>(_ value: Value, under key: String, fetchedAt: Timestamp) {
        guard let kept = value as? any KeptDecoded else { return }
        let bytes = kept.keptBytes + key.utf8.count
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.bytes }
            guard bytes <= maxBytes else { return }
            state.clock += 1
            state.entries[key] = Entry(value: kept, fetchedAt: fetchedAt, bytes: bytes, lastUse: state.clock)
            state.bytes += bytes
            while state.bytes > maxBytes, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries.removeValue(forKey: oldest.key)
                state.bytes -= oldest.value.bytes
            }
        }
    }

    /// Forgets what is kept under `key`.
    func remove(_ key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.bytes }
        }
    }
}

/// A decoded value the file cache can store beside its body and read back with one copy.
package protocol ArchivedDecoded: KeptDecoded {
    /// The stored layout's version (stored beside it: a row in another layout is decoded from
    /// its body).
    static var format: Int { get }
    /// The value in the stored layout.
    var archived: [UInt8] { get }
    /// The value stored as `archived`, or `nil` for bytes that are not one.
    init?(archived: UnsafeRawBufferPointer)
}


extension ArenaPage: ArchivedDecoded where Arena: ArchivableArena {}

/// `type`'s value from `bytes` (a generic helper, so an existential metatype can call it).
func restore<T: ArchivedDecoded>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) -> T? {
    T(archived: bytes)
}
