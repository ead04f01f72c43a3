import CatFactsKit

extension CatFactsError {
    /// The description in the shell's words: the deadline is `--timeout`; one attempt's
    /// timeout has no flag (it stays the library's default), so no advice names it.
    var shellDescription: String {
        description(naming: { option in
            switch option {
            case .deadline: "--timeout"
            case .attemptTimeout: nil
            }
        })
    }
}
