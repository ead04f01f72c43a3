import ArgumentParser
import CatFactsKit

extension ClientOption {
    /// Checks a flag's value against the option's range (the library's table), in the unit
    /// the flag takes: seconds, at millisecond resolution, for a time; the C unit otherwise.
    /// The message names the flag and the value as typed: `--retries 101: must be in 0..100.`
    func checkFlag(_ value: Double) throws(ValidationError) {
        guard let flag = shellFlag, let range = range else { return }
        let typed = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        if unit == .milliseconds {
            let milliseconds = value * 1000
            let allowed = range.lowerBound == 0 ? "in \(flagRangeText)" : "more than 0 and at most \(range.upperBound / 1000) seconds"
            guard milliseconds.isFinite, milliseconds >= Double(range.lowerBound), milliseconds <= Double(range.upperBound) else {
                throw ValidationError("\(flag) \(typed): must be \(allowed).")
            }
            guard abs(milliseconds - milliseconds.rounded()) < 1e-6 else {
                throw ValidationError("\(flag) \(typed): must be \(allowed), in steps of 0.001 seconds.")
            }
        } else if !(value == value.rounded() && value >= Double(range.lowerBound) && value <= Double(range.upperBound)) {
            throw ValidationError("\(flag) \(typed): must be in \(rangeText ?? "").")
        }
    }

    /// The range as the flag's help writes it: `0..100`, or seconds for a time.
    var flagRangeText: String {
        guard let range else { return "" }
        return unit == .milliseconds ? "\(range.lowerBound / 1000)..\(range.upperBound / 1000) seconds" : (rangeText ?? "")
    }
}
