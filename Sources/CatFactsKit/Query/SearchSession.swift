
/// Search as you type: each keystroke submits the text so far; an answer comes only for a
/// query still current after the debounce interval, so a burst of typing costs one search
/// and a slow answer to a superseded query is dropped, never shown.
public final class SearchSession: Sendable {
    private let catalog: BreedCatalogView
    private let debounce: Duration
    private let limit: Int
    private let latest = Locked(0)

    /// - Parameters:
    ///   - debounce: how long the text must stay unchanged before it is searched.
    ///   - limit: most breeds per answer.
    public init(catalog: BreedCatalogView, debounce: Duration = .milliseconds(150), limit: Int = 20) {
        self.catalog = catalog
        self.debounce = debounce
        self.limit = limit
    }

    /// The breeds starting with `text`, or `nil` when a later submission superseded it
    /// (or the task was cancelled) before its answer was ready.
    public func submit(_ text: String) async -> [Breed]? {
        let generation = latest.withLock { value -> Int in
            value += 1
            return value
        }
        do {
            try await Task.sleep(for: debounce)
        } catch {
            return nil
        }
        guard latest.withLock({ $0 }) == generation else { return nil }
        let found = catalog.search(prefix: text, limit: limit)
        return latest.withLock({ $0 }) == generation ? found : nil
    }
}
