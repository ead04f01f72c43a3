/// Parses a query value as Laravel's `integer` rule does (PHP's `FILTER_VALIDATE_INT` after
/// Laravel's `TrimStrings`): surrounding whitespace ignored, an optional sign, no leading zeros,
/// within 64 bits.
enum LaravelInteger {
    /// The value, or `nil` when Laravel would answer "must be an integer".
    static func parse(_ text: Substring) -> Int? {
        let trimmed = text.trimmingSpaces
        var digits = trimmed
        if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
        guard let first = digits.first, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        guard first != "0" || digits.count == 1 else { return nil }
        return Int(String(trimmed))
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
