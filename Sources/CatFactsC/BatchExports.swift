import CatFactsKit
import CCatFactsHeader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The batches section of include/catfacts.h: many breeds (CBreedBlock) or facts (CFactBlock) in one block.

@_cdecl("cf_breeds_page_items")
public func cf_breeds_page_items(_ client: OpaquePointer?, _ page: Int64, _ limit: Int64,
                                 _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_breed_page>?>?) -> cf_status {
    out?.pointee = nil
    return Call.status { () throws(CatFactsError) in
        let client = try Call.client(client)
        guard let out else { throw .argument("out (the cf_breed_page ** to fill) is NULL") }
        let answer = try blocking(on: client) { () async throws(CatFactsError) in
            try await client.breeds(page: Call.int(page), limit: Call.int(limit))
        }.get()
        out.pointee = CBreedBlock.make(answer.items[...]) { breeds in
            cf_breed_page(page: Int64(answer.number), last_page: Int64(answer.lastPage), per_page: Int64(answer.perPage),
                          total: Int64(answer.total), source: StaticCStrings.source(answer.source),
                          fetched_at_ms: milliseconds(since1970: answer.fetchedAt), breeds: breeds)
        }
    }
}

@_cdecl("cf_list_breeds")
public func cf_list_breeds(_ list: OpaquePointer?, _ index: Int64, _ maxCount: Int64,
                           _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_breed_array>?>?) -> cf_status {
    out?.pointee = nil
    return Call.itemStatus { () throws(CatFactsError) -> Call.Pending? in
        guard case .breeds(let breeds) = try Call.list(list).items else { throw .argument("the list holds facts; use cf_list_fact") }
        guard let out else { throw .argument("out (the cf_breed_array ** to fill) is NULL") }
        return try batch(of: breeds, from: index, atMost: maxCount, into: out) { CBreedBlock.make($0) { $0 } }
    }
}

@_cdecl("cf_list_facts")
public func cf_list_facts(_ list: OpaquePointer?, _ index: Int64, _ maxCount: Int64,
                          _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_fact_array>?>?) -> cf_status {
    out?.pointee = nil
    return Call.itemStatus { () throws(CatFactsError) -> Call.Pending? in
        guard case .facts(let facts) = try Call.list(list).items else { throw .argument("the list holds breeds; use cf_list_breed") }
        guard let out else { throw .argument("out (the cf_fact_array ** to fill) is NULL") }
        return try batch(of: facts, from: index, atMost: maxCount, into: out, CFactBlock.make)
    }
}

/// A list's batch from `index` laid out by `make` into `out`; `Call.Pending` while its page
/// loads; the page's error, or not found past the end.
private func batch<Item, Block>(of list: PagedList<Item>, from index: Int64, atMost maxCount: Int64,
                                into out: UnsafeMutablePointer<UnsafeMutablePointer<Block>?>,
                                _ make: (ArraySlice<Item>) -> UnsafeMutablePointer<Block>) throws(CatFactsError) -> Call.Pending? {
    guard maxCount >= 1 else { throw .argument("max_count \(maxCount) is less than 1") }
    switch list.items(from: Call.int(index), atMost: Call.int(maxCount)) {
    case .loaded(let run):
        out.pointee = make(run)
        return nil
    case .pending:
        return Call.Pending(index: index)
    case .failed(let error):
        throw error
    case .pastEnd:
        throw .notFound("index \(index) is past the end of the list (or negative)")
    }
}

/// `date` in whole milliseconds since 1970-01-01 UTC; 0 for a date no `int64_t` holds.
private func milliseconds(since1970 date: Date) -> Int64 {
    Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) ?? 0
}
