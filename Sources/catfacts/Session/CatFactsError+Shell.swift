import CatFactsKit

extension CatFactsError {
    /// The description in the shell's words: an option is named by its flag (`--timeout`,
    /// `--retries 101: must be in 0..100`); an option the shell has no flag for is left to the
    /// library's default, so no advice names it and a refusal names its C key.
    var shellDescription: String {
        if case .invalidOption(let option, let value, let problem) = self, let flag = option.shellFlag {
            return "invalid argument: \(flag) \(value): \(problem)"
        }
        return description(naming: { $0.shellFlag })
    }
}
