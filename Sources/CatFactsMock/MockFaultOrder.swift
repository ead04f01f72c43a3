/// How the mock picks the fault for a request it has chosen to fail.
///
/// The raw values are the names `catfacts-mock --fault-order` takes.
public enum MockFaultOrder: String, CaseIterable, Sendable {
    /// The listed faults in turn (round robin): a test that lists two faults knows which
    /// request gets which, even without a seed.
    case turn
    /// A fault drawn from the list for each failing request, so kinds interleave as they
    /// would in the wild (two 429s in a row, a reset right after a 503); ``MockConfiguration/seed``
    /// repeats the draws.
    case random
}
