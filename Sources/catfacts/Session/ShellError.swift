import CatFactsKit

/// Why a command failed, said as one line on stderr:
/// `catfacts: <what failed>: <why>; <what to try>`.
struct ShellError: Error, Sendable, Equatable {
    /// Why it failed.
    var why: String
    /// What to try, when there is something to say.
    var advice: String?
    /// The library error behind it, if any, for commands that know better advice.
    var cause: CatFactsError?

    init(_ why: String, advice: String? = nil) {
        self.why = why
        self.advice = advice
    }

    /// Ctrl-C stopped the command.
    static let cancelled = ShellError("cancelled")

    /// Page `page` of a listing whose last page is `lastPage` was asked for.
    static func pastLastPage(_ page: Int, _ lastPage: Int) -> ShellError {
        ShellError("page \(page) is past the last page (\(lastPage))", advice: "last shows the last page")
    }

    /// A library error: its own description in the shell's words (which often says what to
    /// try already), and advice for the statuses whose description does not.
    init(_ error: CatFactsError) {
        switch error {
        case .cancelled:
            self = .cancelled
        case .argument, .invalidOption:
            self.init(error.shellDescription, advice: "see help")
        case .http(let status, _, _, _):
            self.init(error.shellDescription, advice: status >= 500 ? "the server failed; try again later"
                : "check --base-url points at the Cat Facts API")
        case .decode:
            self.init(error.shellDescription, advice: "the server does not answer like the Cat Facts API; check --base-url")
        case .notFound:
            self.init(error.shellDescription, advice: "search PREFIX finds breeds by name, breeds lists them")
        case .offline:
            self.init(error.shellDescription)
        case .network, .timeout, .deadlinePassed, .rateLimited, .internal:
            // Their descriptions end with what to try.
            self.init(error.shellDescription)
        }
        cause = error
    }

    /// The line to print for a failure of `what` (the command as typed).
    func line(what: String) -> String {
        let advice = advice.map { "; \($0)" } ?? ""
        return "catfacts: \(what): \(why)\(advice)"
    }
}
