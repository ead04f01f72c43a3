import CatFactsKit
import CCatFactsHeader

// The batches section of include/catfacts.h: pages and runs of a list as blocks of breeds
// (CBreedBlock) or facts (CFactBlock), each freed with one cf_free.

@_cdecl("cf_breeds_page_items")
public func cf_breeds_page_items(_ client: OpaquePointer?, _ page: Int64, _ limit: Int64,
                                 _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_breed_page>?>?) -> cf_status {
    Call.pageBlock(out, client, named: "cf_breed_page") { (client) async throws(CatFactsError) in
        try await client.breeds(page: Call.int(page), limit: Call.int(limit))
    } layout: { answer in
        let header = { (breeds: cf_breed_array) in
            CPage.header(answer, items: breeds, cf_breed_page.init(page:last_page:per_page:total:source:fetched_at_ms:breeds:))
        }
        // A decoded page is copied as it lies; breeds given as values (the bundled catalog's,
        // or a field holding a NUL) are laid out one by one.
        if let arena = answer.arena, let block = CBreedBlock.make(arena, 0..<arena.count, header: header) { return block }
        return CBreedBlock.make(answer.items[...], header: header)
    }
}

@_cdecl("cf_facts_page_items")
public func cf_facts_page_items(_ client: OpaquePointer?, _ page: Int64, _ limit: Int64, _ maxLength: Int64,
                                _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_fact_page>?>?) -> cf_status {
    Call.pageBlock(out, client, named: "cf_fact_page") { (client) async throws(CatFactsError) in
        try await client.facts(page: Call.int(page), limit: Call.int(limit), maxLength: Call.int(maxLength))
    } layout: { answer in
        let header = { (facts: cf_fact_array) in
            CPage.header(answer, items: facts, cf_fact_page.init(page:last_page:per_page:total:source:fetched_at_ms:facts:))
        }
        // As breeds: a decoded page is copied as it lies, facts given as values laid out one by one.
        if let arena = answer.factArena, let block = CFactBlock.make(arena, header: header) { return block }
        return CFactBlock.make(answer.items[...], header: header)
    }
}

@_cdecl("cf_list_breeds")
public func cf_list_breeds(_ list: OpaquePointer?, _ index: Int64, _ maxCount: Int64,
                           _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_breed_array>?>?) -> cf_status {
    Call.itemStatus(clearing: out) { () throws(CatFactsError) in
        try ListHandle.breeds(list).batch(from: index, atMost: maxCount, into: out, named: "cf_breed_array",
                                          fromArena: { arena, range in CBreedBlock.make(arena, range) { $0 } }) {
            CBreedBlock.make($0) { $0 }
        }
    }
}

@_cdecl("cf_list_facts")
public func cf_list_facts(_ list: OpaquePointer?, _ index: Int64, _ maxCount: Int64,
                          _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_fact_array>?>?) -> cf_status {
    Call.itemStatus(clearing: out) { () throws(CatFactsError) in
        try ListHandle.facts(list).batch(from: index, atMost: maxCount, into: out, named: "cf_fact_array") { CFactBlock.make($0) { $0 } }
    }
}
