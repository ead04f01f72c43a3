/// An option of ``ClientOptions`` that an error's message tells the caller to change, by its
/// name in the C API (its key in `cf_client_open`'s options). Each front names it in its own
/// words (`timeout=` in Python, `--timeout` in the shell) with
/// ``CatFactsError/description(naming:)``.
public enum ClientOption: String, Sendable, CaseIterable {
    /// One attempt's timeout (``TransportLimits/totalTimeout``).
    case attemptTimeout = "timeout_ms"
    /// The whole call's deadline (``ClientOptions/deadline``).
    case deadline = "deadline_ms"
}
