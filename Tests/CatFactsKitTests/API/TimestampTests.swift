import CatFactsFoundation
@testable import CatFactsKit
import Foundation
import Testing

@Suite("Timestamp: Date's arithmetic and ISO 8601 text, without Foundation")
struct TimestampTests {
    /// Moments across the calendar: the epoch, before it, leap days, ends of years and
    /// centuries (2000 is a leap year, 2100 is not), a fraction of a second, far ahead.
    /// From 1583 on: before the Gregorian reform (1582-10-15) Foundation's calendar is the
    /// Julian one, and ISO 8601 (and this type) stays Gregorian.
    static let moments: [Double] = [
        0, -1, -86_400, -12_212_553_600, 951_782_400, 951_868_799.999, 1_709_164_800, 4_107_542_399,
        4_107_542_400, 1_790_000_000.25, 1_000_000_000, 253_402_300_799, 2_147_483_647, 2_147_483_648,
    ]

    @Test(arguments: moments)
    func iso8601IsWhatFoundationWrites(seconds: Double) {
        let timestamp = Timestamp(timeIntervalSince1970: seconds)
        #expect(timestamp.iso8601 == Date(timeIntervalSince1970: seconds).formatted(.iso8601))
    }

    @Test func iso8601AgreesWithFoundationOverTenThousandRandomMoments() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let seconds = Double(Int64.random(in: -12_212_553_600...253_402_300_799, using: &generator))
            #expect(Timestamp(timeIntervalSince1970: seconds).iso8601 == Date(timeIntervalSince1970: seconds).formatted(.iso8601))
        }
    }

    @Test func theBasicFormNamesFiles() {
        #expect(Timestamp(timeIntervalSince1970: 1_790_000_000.75).iso8601Basic == "20260921T141320")
        #expect(Timestamp(timeIntervalSince1970: 0).iso8601Basic == "19700101T000000")
    }

    @Test func beforeTheReformTheCalendarStaysGregorian() {
        #expect(Timestamp(timeIntervalSince1970: -62_135_596_800).iso8601 == "0001-01-01T00:00:00Z")
        #expect(Timestamp(timeIntervalSince1970: -12_219_292_800).iso8601 == "1582-10-15T00:00:00Z")
        #expect(Timestamp(timeIntervalSince1970: -12_219_292_801).iso8601 == "1582-10-14T23:59:59Z")
    }

    @Test func timesNoTextCanHoldAreClampedNotTrapped() {
        #expect(Timestamp(timeIntervalSince1970: .infinity).iso8601 == "9999-12-31T23:59:59Z")
        #expect(Timestamp(timeIntervalSince1970: -.infinity).iso8601 == "0000-01-01T00:00:00Z")
        #expect(Timestamp(timeIntervalSince1970: .nan).iso8601 == "1970-01-01T00:00:00Z")
        #expect(Timestamp(timeIntervalSince1970: 1e300).iso8601 == "9999-12-31T23:59:59Z")
    }

    @Test func nowIsTheSystemClock() {
        let before = Date().timeIntervalSince1970
        let now = Timestamp.now.timeIntervalSince1970
        let after = Date().timeIntervalSince1970
        #expect(before <= now && now <= after)
    }

    @Test func orderAndIntervalsAreDates() {
        let a = Timestamp(timeIntervalSince1970: 10), b = Timestamp(timeIntervalSince1970: 12.5)
        #expect(a < b && !(b < a) && a != b)
        #expect(b.timeIntervalSince(a) == 2.5 && a.timeIntervalSince(b) == -2.5)
        #expect(Date(b) == Date(timeIntervalSince1970: 12.5) && Timestamp(Date(b)) == b)
    }

    @Test(arguments: [(1970, 1, 1), (2000, 2, 29), (1969, 12, 31), (2100, 3, 1), (1, 1, 1), (9999, 12, 31)])
    func daysAndCivilDatesAreInverses(year: Int, month: Int, day: Int) {
        let days = Timestamp.days(year: year, month: month, day: day)
        #expect(Timestamp.civil(fromDays: days) == (year, month, day))
    }
}
