/// What the cache counts of its faults (failed reads and writes, evictions), and the
/// warning lines that summarize them: one line per kind, rewritten with the running count,
/// so a fault that recurs on every call stays one line (``StoreWarnings/summarize(_:as:)``).
struct StoreTallies: Sendable {
    /// Writes that failed, of every kind.
    private(set) var writesFailed = 0
    /// Pages evicted for the cap, and the bytes they took.
    private(set) var evictedEntries = 0
    private(set) var evictedBytes = 0
    /// Failures by ``failureSlot(_:writing:)``.
    private var failures: [String: Int] = [:]

    /// Counts a failed read or write; how many of its kind so far.
    mutating func recordFailure(_ error: SQLiteError, writing: Bool) -> Int {
        if writing { writesFailed += 1 }
        let slot = Self.failureSlot(error, writing: writing)
        failures[slot, default: 0] += 1
        return failures[slot, default: 0]
    }

    /// Counts pages evicted; the totals so far.
    mutating func recordEviction(entries: Int, bytes: Int) -> (entries: Int, bytes: Int) {
        evictedEntries += entries
        evictedBytes += bytes
        return (evictedEntries, evictedBytes)
    }

    /// The warning line of reads or writes failing as `error` did: by its kind, else its
    /// primary result code.
    static func failureSlot(_ error: SQLiteError, writing: Bool) -> String {
        "\(writing ? "write" : "read"): \(error.kind ?? "code \(error.primaryCode)")"
    }

    /// The warning line of evictions.
    static let evictionSlot = "eviction"

    /// `failure` (the last one, in full) after its kind, and how many there were when more than one.
    static func failureWarning(_ failure: String, kind: String?, writing: Bool, count: Int) -> String {
        let prefix = kind.map { "\($0): " } ?? ""
        guard count > 1 else { return prefix + failure }
        return "\(prefix)\(count) cache \(writing ? "writes" : "reads") failed; the last: \(failure)"
    }

    /// The eviction line: totals since the cache opened, and the cap that made them.
    static func evictionWarning(entries: Int, bytes: Int, maxBytes: Int) -> String {
        "evicted \(entries) cached page\(entries == 1 ? "" : "s") (\(bytes) bytes) so far, least recently used first, "
            + "to keep the cache within cache_max_bytes (\(maxBytes) bytes); they load again when asked"
    }
}
