import CatFactsKit
/// The header of a page block (`cf_breed_page`, `cf_fact_page`): the page's numbers, where
/// it came from and when, then its items. The header's own memberwise initializer makes it,
/// so a field the header adds, drops or renames fails the build here.
enum CPage {
    static func header<Item, Items, Header>(
        _ page: Page<Item>, items: Items,
        _ make: (Int64, Int64, Int64, Int64, UnsafePointer<CChar>?, Int64, Items) -> Header
    ) -> Header {
        make(Int64(page.number), Int64(page.lastPage), Int64(page.perPage), Int64(page.total),
             StaticCStrings.source(page.source), milliseconds(since1970: page.fetchedAt), items)
    }

    /// `date` in whole milliseconds since 1970-01-01 UTC; 0 for a date no `int64_t` holds.
    private static func milliseconds(since1970 date: Timestamp) -> Int64 {
        Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) ?? 0
    }
}
