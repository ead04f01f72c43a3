/// Reads `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date.
enum RetryAfter {
    /// Seconds to wait from `now`; `nil` when absent or unreadable. A date in the past is 0.
    static func seconds(_ value: String?, now: Timestamp = .now) -> Double? {
        guard let value = value?.trimmed(), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return seconds >= 0 ? Double(seconds) : nil }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
