import CatFactsKit
import CCatFactsHeader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The paged-list section of include/catfacts.h.

@_cdecl("cf_list_open")
public func cf_list_open(_ client: OpaquePointer?, _ what: cf_collection, _ optionsJSON: UnsafePointer<CChar>?,
                         _ out: UnsafeMutablePointer<OpaquePointer?>?) -> cf_status {
    out?.pointee = nil
    return Call.status { () throws(CatFactsError) in
        let client = try Call.client(client)
        guard let out else { throw .argument("out (the cf_list ** to fill) is NULL") }
        let (options, maxLength) = try PagingOptions.parse(optionsJSON)
        let items: ListHandle.Items
        switch what {
        case CF_BREEDS:
            guard maxLength == 0 else { throw .argument("'max_length' in list options applies to facts only") }
            items = .breeds(try client.breedList(options))
        case CF_FACTS:
            items = .facts(try client.factList(options, maxLength: maxLength))
        default:
            throw .argument("collection \(what.rawValue) is neither CF_BREEDS (\(CF_BREEDS.rawValue)) nor CF_FACTS (\(CF_FACTS.rawValue))")
        }
        out.pointee = Handle.make(ListHandle(items, calls: client.callsInProgress))
    }
}

@_cdecl("cf_list_count")
public func cf_list_count(_ list: OpaquePointer?) -> Int64 {
    ErrorFields.reset()
    do throws(CatFactsError) {
        let count = try Call.list(list).count
        _ = LastError.succeed()
        return count.map(Int64.init) ?? Int64(CF_COUNT_UNKNOWN)
    } catch {
        _ = LastError.fail(error)
        return Int64(CF_COUNT_INVALID)
    }
}

@_cdecl("cf_list_breed")
public func cf_list_breed(_ list: OpaquePointer?, _ index: Int64,
                          _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_breed>?>?) -> cf_status {
    out?.pointee = nil
    return Call.itemStatus { () throws(CatFactsError) -> Call.Pending? in
        guard case .breeds(let breeds) = try Call.list(list).items else { throw .argument("the list holds facts; use cf_list_fact") }
        guard let out else { throw .argument("out (the cf_breed ** to fill) is NULL") }
        guard let breed = try item(breeds.item(at: Call.int(index)), index: index) else { return Call.Pending(index: index) }
        out.pointee = CItems.breed(breed)
        return nil
    }
}

@_cdecl("cf_list_fact")
public func cf_list_fact(_ list: OpaquePointer?, _ index: Int64,
                         _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_fact>?>?) -> cf_status {
    out?.pointee = nil
    return Call.itemStatus { () throws(CatFactsError) -> Call.Pending? in
        guard case .facts(let facts) = try Call.list(list).items else { throw .argument("the list holds breeds; use cf_list_breed") }
        guard let out else { throw .argument("out (the cf_fact ** to fill) is NULL") }
        guard let fact = try item(facts.item(at: Call.int(index)), index: index) else { return Call.Pending(index: index) }
        out.pointee = CItems.fact(fact)
        return nil
    }
}

/// The item; `nil` while pending; the error standing for a failed or past-the-end state.
private func item<Item>(_ state: ItemState<Item>, index: Int64) throws(CatFactsError) -> Item? {
    switch state {
    case .loaded(let item): return item
    case .pending: return nil
    case .failed(let error): throw error
    case .pastEnd: throw .notFound("index \(index) is past the end of the list (or negative)")
    }
}

@_cdecl("cf_list_wait")
public func cf_list_wait(_ list: OpaquePointer?, _ index: Int64, _ timeoutMs: Int64) -> cf_status {
    Call.itemStatus { () throws(CatFactsError) -> Call.Pending? in
        let handle = try Call.list(list)
        guard timeoutMs >= 0 else { throw .argument("timeout_ms \(timeoutMs) is negative") }
        let outcome = Blocking.run(cancellableBy: handle.calls) {
            await handle.wait(for: Call.int(index), timeout: .milliseconds(timeoutMs))
        }
        switch outcome.status {
        case .ok: return nil
        case .pending: return Call.Pending(index: index)
        default: throw outcome.error ?? .internal("item \(index) has status \(outcome.status) and no error")
        }
    }
}

@_cdecl("cf_list_retry")
public func cf_list_retry(_ list: OpaquePointer?) -> cf_status {
    Call.status { () throws(CatFactsError) in try Call.list(list).retry() }
}

@_cdecl("cf_list_set_listener")
public func cf_list_set_listener(_ list: OpaquePointer?, _ function: cf_list_listener?,
                                 _ context: UnsafeMutableRawPointer?) -> cf_status {
    Call.status { () throws(CatFactsError) in
        let handle = try Call.list(list)
        guard let function else { return handle.setListener(nil) }
        let callback = CCallback(function: function, context: context)
        handle.setListener { event in
            callback.function(callback.context, cf_event(event.kind), Int64(event.first), Int64(event.count))
        }
    }
}

@_cdecl("cf_list_close")
public func cf_list_close(_ list: OpaquePointer?) {
    Handle.release(list, as: ListHandle.self)?.close()
}

@_cdecl("cf_breed_free")
public func cf_breed_free(_ breed: UnsafeMutablePointer<cf_breed>?) {
    CItems.freeBreed(breed)
}

@_cdecl("cf_fact_free")
public func cf_fact_free(_ fact: UnsafeMutablePointer<cf_fact>?) {
    CItems.freeFact(fact)
}

/// `cf_breed` and `cf_fact` as the header declares them (imported from it: a field changed
/// there changes them here). Each item is one allocation, the struct followed by its
/// strings, so handing one out costs one malloc, not six.
enum CItems {
    static func breed(_ breed: Breed) -> UnsafeMutablePointer<cf_breed> {
        func size(_ text: String?) -> Int { text.map { $0.utf8.count + 1 } ?? 0 }
        let header = MemoryLayout<cf_breed>.stride
        let block = CBlock.allocate(header + breed.name.utf8.count + 1 + size(breed.country) + size(breed.origin)
                             + size(breed.coat) + size(breed.pattern))
        var next = block + header
        // Field by field, not through an array: this is the hot path of cf_list_breed.
        let name = copy(breed.name, to: &next)
        let country = breed.country.map { copy($0, to: &next) }
        let origin = breed.origin.map { copy($0, to: &next) }
        let coat = breed.coat.map { copy($0, to: &next) }
        let pattern = breed.pattern.map { copy($0, to: &next) }
        let item = block.bindMemory(to: cf_breed.self, capacity: 1)
        item.initialize(to: cf_breed(breed: name, country: country, origin: origin, coat: coat, pattern: pattern))
        return item
    }

    static func freeBreed(_ breed: UnsafeMutablePointer<cf_breed>?) {
        free(breed)
    }

    static func fact(_ fact: Fact) -> UnsafeMutablePointer<cf_fact> {
        let header = MemoryLayout<cf_fact>.stride
        let block = CBlock.allocate(header + fact.text.utf8.count + 1)
        var next = block + header
        let text = copy(fact.text, to: &next)
        let item = block.bindMemory(to: cf_fact.self, capacity: 1)
        item.initialize(to: cf_fact(fact: text, length: Int64(fact.length)))
        return item
    }

    static func freeFact(_ fact: UnsafeMutablePointer<cf_fact>?) {
        free(fact)
    }


    /// Copies `text` and its terminating NUL to `cursor`, moves the cursor past them, and
    /// returns where the copy starts.
    private static func copy(_ text: String, to cursor: inout UnsafeMutableRawPointer) -> UnsafePointer<CChar> {
        let start = cursor
        let bytes = cursor.assumingMemoryBound(to: UInt8.self)
        // Native strings hand out their UTF-8 directly; others are copied byte by byte.
        let count = text.utf8.withContiguousStorageIfAvailable { utf8 in
            if let source = utf8.baseAddress { bytes.update(from: source, count: utf8.count) }
            return utf8.count
        } ?? {
            var written = 0
            for byte in text.utf8 { bytes[written] = byte; written += 1 }
            return written
        }()
        bytes[count] = 0
        cursor += count + 1
        return UnsafePointer(start.assumingMemoryBound(to: CChar.self))
    }
}
