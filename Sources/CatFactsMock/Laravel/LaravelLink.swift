/// One entry of the page window Laravel's `UrlWindow` renders into `links`.
enum LaravelLink: Equatable {
    /// A link to this page number.
    case page(Int)
    /// The `"..."` separator between the window's parts.
    case gap

    /// Laravel's `UrlWindow` with `onEachSide` 3: every page while there are fewer than 14,
    /// else the first pages, a slider around the current one and the last pages, joined by gaps.
    /// At most 15 entries, whatever `lastPage` is.
    static func window(currentPage: Int, lastPage: Int, onEachSide: Int = 3) -> [LaravelLink] {
        let pages = { (range: ClosedRange<Int>) in range.map(LaravelLink.page) }
        if lastPage < onEachSide * 2 + 8 {
            return pages(1...max(1, lastPage))
        }
        let window = onEachSide + 4
        let finish = pages((lastPage - 1)...lastPage)
        if currentPage <= window {
            return pages(1...(window + onEachSide)) + [.gap] + finish
        }
        if currentPage > lastPage - window {
            return pages(1...2) + [.gap] + pages((lastPage - (window + onEachSide - 1))...lastPage)
        }
        return pages(1...2) + [.gap]
            + pages((currentPage - onEachSide)...(currentPage + onEachSide))
            + [.gap] + finish
    }
}
