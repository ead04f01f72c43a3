/// Writes a Laravel `LengthAwarePaginator` page as JSON, keys in Laravel's order:
/// `current_page, data, first_page_url, from, last_page, last_page_url, links, next_page_url,
/// path, per_page, prev_page_url, to, total`.
struct LaravelPageWriter {
    /// The list's URL without a query, e.g. `http://127.0.0.1:8106/breeds`; page URLs add
    /// `?page=N` (and nothing else, like the real service).
    let path: String
    let paginator: LaravelPaginator
    let perPage: PerPage

    /// The page JSON; `writeItem` writes the item at each 0-based position of the page.
    func body(itemCapacity: Int = 160, writeItem: (inout PHPJSONWriter, Int) -> Void) -> [UInt8] {
        let range = paginator.itemRange
        var json = PHPJSONWriter(capacity: 1_500 + range.count * itemCapacity)
        json.raw("{\"current_page\":")
        json.int(paginator.currentPage)
        json.raw(",\"data\":[")
        for position in range {
            if position != range.lowerBound { json.raw(",") }
            writeItem(&json, position)
        }
        json.raw("],\"first_page_url\":")
        json.string(url(1))
        json.raw(",\"from\":")
        json.int(paginator.from)
        json.raw(",\"last_page\":")
        json.int(paginator.lastPage)
        json.raw(",\"last_page_url\":")
        json.string(url(paginator.lastPage))
        json.raw(",\"links\":")
        writeLinks(&json)
        json.raw(",\"next_page_url\":")
        json.string(paginator.nextPage.map(url))
        json.raw(",\"path\":")
        json.string(path)
        json.raw(",\"per_page\":")
        switch perPage {
        case .number(let size): json.int(size)
        case .string(let size): json.string(String(size))
        }
        json.raw(",\"prev_page_url\":")
        json.string(paginator.previousPage.map(url))
        json.raw(",\"to\":")
        json.int(paginator.to)
        json.raw(",\"total\":")
        json.int(paginator.total)
        json.raw("}")
        return json.bytes
    }

    private func url(_ page: Int) -> String {
        path + "?page=" + String(page)
    }

    /// Laravel's `linkCollection()`: Previous, the page window, Next.
    private func writeLinks(_ json: inout PHPJSONWriter) {
        json.raw("[{\"url\":")
        json.string(paginator.previousPage.map(url))
        json.raw(",\"label\":\"&laquo; Previous\",\"active\":false}")
        for link in LaravelLink.window(currentPage: paginator.currentPage, lastPage: paginator.lastPage) {
            switch link {
            case .page(let page):
                json.raw(",{\"url\":")
                json.string(url(page))
                json.raw(",\"label\":")
                json.string(String(page))
                json.raw(",\"active\":")
                json.bool(page == paginator.currentPage)
                json.raw("}")
            case .gap:
                json.raw(",{\"url\":null,\"label\":\"...\",\"active\":false}")
            }
        }
        json.raw(",{\"url\":")
        json.string(paginator.nextPage.map(url))
        json.raw(",\"label\":\"Next &raquo;\",\"active\":false}]")
    }
}
