/// An HTTP date (RFC 9110 §5.6.7): IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), and the
/// obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37
/// 1994`) forms a recipient must still accept. Parsed by hand: the library does not link
/// Foundation (``Timestamp``), whose `DateFormatter` would bring ICU too.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun",
                                 "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names, or `nil` when it is none of the three forms.
    static func parse(_ text: String) -> Timestamp? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        switch words.count {
        case 5:
            // asctime: weekday month day time year
            return date(day: words[2], month: words[1], year: words[4], time: words[3], twoDigitYear: false)
        case 4 where words[3] == "GMT":
            // RFC 850: weekday dd-mon-yy time GMT
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3 else { return nil }
            return date(day: parts[0], month: parts[1], year: parts[2], time: words[2], twoDigitYear: true)
        case 6 where words[5] == "GMT":
            // IMF-fixdate: weekday dd mon yyyy time GMT
            return date(day: words[1], month: words[2], year: words[3], time: words[4], twoDigitYear: false)
        default:
            return nil
        }
    }

    @_optimize(size)  // once per date header
    private static func date(day: String, month: String, year: String, time: String, twoDigitYear: Bool) -> Timestamp? {
        guard let d = Int(day), (1...31).contains(d),
              let m = months.firstIndex(of: month.lowercased()).map({ $0 + 1 }),
              var y = Int(year), y >= 0, y <= 9999 else { return nil }
        if twoDigitYear {
            guard year.count == 2 else { return nil }
            // 70-99 are 1970-1999, the rest 2000-2069: the form is obsolete since 1996.
            y += y < 70 ? 2000 : 1900
        } else if year.count != 4 {
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]),
              (0...60).contains(clock[2]) else { return nil }
        let seconds = Timestamp.days(year: y, month: m, day: d) * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
        return Timestamp(timeIntervalSince1970: Double(seconds))
    }
}
