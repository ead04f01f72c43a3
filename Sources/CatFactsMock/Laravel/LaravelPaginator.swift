/// The arithmetic of Laravel's `LengthAwarePaginator`: which items a page holds and the
/// numbers its JSON reports. All O(1): page 40,000 of a million items costs what page 1 does.
struct LaravelPaginator {
    /// Items in the whole (filtered) list.
    let total: Int
    /// Items per page, at least 1.
    let perPage: Int
    /// The page asked for, at least 1; it may lie past ``lastPage``.
    let currentPage: Int

    init(total: Int, perPage: Int, currentPage: Int) {
        self.total = max(0, total)
        self.perPage = max(1, perPage)
        self.currentPage = max(1, currentPage)
    }

    /// `max(ceil(total / perPage), 1)`: an empty list still has one (empty) page, as in Laravel.
    var lastPage: Int {
        max(1, total / perPage + (total % perPage == 0 ? 0 : 1))
    }

    /// 0-based positions of the page's items; empty past the end.
    var itemRange: Range<Int> {
        guard currentPage <= lastPage else { return 0..<0 }
        // currentPage <= lastPage keeps the product within total + perPage: no overflow.
        let start = (currentPage - 1) * perPage
        return start..<min(total, start + perPage)
    }

    /// 1-based number of the first item on the page (`from`), `nil` when the page is empty.
    var from: Int? {
        itemRange.isEmpty ? nil : itemRange.lowerBound + 1
    }

    /// 1-based number of the last item on the page (`to`), `nil` when the page is empty.
    var to: Int? {
        itemRange.isEmpty ? nil : itemRange.upperBound
    }

    /// The page `prev_page_url` points at, if any.
    var previousPage: Int? {
        currentPage > 1 ? currentPage - 1 : nil
    }

    /// The page `next_page_url` points at, if any.
    var nextPage: Int? {
        currentPage < lastPage ? currentPage + 1 : nil
    }
}
