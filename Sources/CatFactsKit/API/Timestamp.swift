#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A moment in wall-clock time: seconds since 1970-01-01 00:00:00 UTC, as the system clock
/// (`CLOCK_REALTIME`) gives them. When a page was fetched, a cache entry last used, a metrics
/// snapshot taken.
///
/// The library's own type, not Foundation's `Date`: the core of the library does not link
/// Foundation (it would add 7.5 MB to libCatFacts.so; see BENCHMARKS.md, "Footprint"). The
/// names follow `Date`'s, so `Date(timeIntervalSince1970: t.timeIntervalSince1970)` is the
/// whole conversion (`CatFactsFoundation` has it as `Date(_:)`).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01 00:00:00 UTC; negative before it.
    public var timeIntervalSince1970: Double

    public init(timeIntervalSince1970: Double) {
        self.timeIntervalSince1970 = timeIntervalSince1970
    }

    /// The system clock's time now.
    public static var now: Timestamp {
        let (seconds, nanoseconds) = clock()
        return Timestamp(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// The system clock's time now in whole nanoseconds since the epoch, as OTLP's
    /// `*TimeUnixNano` carries it (a `Double` of seconds keeps only about 0.2 µs); 0 before 1970.
    package static func unixNanoseconds() -> UInt64 {
        let (seconds, nanoseconds) = clock()
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, nanoseconds))
    }

    /// `CLOCK_REALTIME`: seconds and nanoseconds.
    private static func clock() -> (Int, Int) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return (Int(spec.tv_sec), Int(spec.tv_nsec))
    }

    /// Seconds from `other` to this moment; negative when `other` is later.
    public func timeIntervalSince(_ other: Timestamp) -> Double {
        timeIntervalSince1970 - other.timeIntervalSince1970
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.timeIntervalSince1970 < b.timeIntervalSince1970 }

    /// ISO 8601 in UTC to the second, as `Date.iso8601` writes it:
    /// `2026-11-29T11:20:05Z`.
    public var iso8601: String {
        let (date, time) = civil
        return "\(date.year.digits(4))-\(date.month.digits(2))-\(date.day.digits(2))T"
            + "\(time.hour.digits(2)):\(time.minute.digits(2)):\(time.second.digits(2))Z"
    }

    /// ISO 8601's basic form in UTC, for file names: `20261129T112005`.
    public var iso8601Basic: String {
        let (date, time) = civil
        return "\(date.year.digits(4))\(date.month.digits(2))\(date.day.digits(2))T"
            + "\(time.hour.digits(2))\(time.minute.digits(2))\(time.second.digits(2))"
    }

    public var description: String { iso8601 }

    /// The UTC calendar date and time of day, whole seconds (rounded down). Times beyond
    /// the years 0 to 9999 are clamped to them, so the text keeps its shape.
    private var civil: (date: (year: Int, month: Int, day: Int), time: (hour: Int, minute: Int, second: Int)) {
        let limit = 253_402_300_799.0  // 9999-12-31T23:59:59Z
        let first = -62_167_219_200.0  // 0000-01-01T00:00:00Z
        let clamped = timeIntervalSince1970.isNaN ? 0 : min(max(timeIntervalSince1970, first), limit)
        let seconds = Int(clamped.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        return (Self.civil(fromDays: days), (inDay / 3600, inDay / 60 % 60, inDay % 60))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (the inverse of ``days(year:month:day:)``).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private extension Int {
    /// The number in decimal, zero-padded to `width` digits.
    func digits(_ width: Int) -> String {
        let text = String(self)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
