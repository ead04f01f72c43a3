import CatFactsKit

// How the C face reads a list: one item (cf_list_breed, cf_list_fact) or a batch
// (cf_list_breeds, cf_list_facts), laid out for C into the caller's out-pointer.

extension PagedList {
    /// The item at `index` laid out by `make` into `out`, which names `type` when NULL;
    /// `Call.Pending` while its page loads; the page's error, or not found past the end.
    func item<CItem>(at index: Int64, into out: UnsafeMutablePointer<UnsafeMutablePointer<CItem>?>?, named type: String,
                     _ make: (Item) -> UnsafeMutablePointer<CItem>) throws(CatFactsError) -> Call.Pending? {
        guard let out else { throw .argument("out (the \(type) ** to fill) is NULL") }
        return try Self.place(item(at: Call.int(index)), of: index, into: out, make)
    }

    /// The batch from `index`, at most `maxCount` items, laid out by `make` into `out`, which
    /// names `type` when NULL; otherwise as ``item(at:into:named:_:)``.
    func batch<Block>(from index: Int64, atMost maxCount: Int64, into out: UnsafeMutablePointer<UnsafeMutablePointer<Block>?>?,
                      named type: String, fromArena: ((BreedArena, Range<Int>) -> UnsafeMutablePointer<Block>?)? = nil,
                      _ make: (ArraySlice<Item>) -> UnsafeMutablePointer<Block>) throws(CatFactsError) -> Call.Pending? {
        guard let out else { throw .argument("out (the \(type) ** to fill) is NULL") }
        guard maxCount >= 1 else { throw .argument("max_count \(maxCount) is less than 1") }
        guard let fromArena else {
            return try Self.place(items(from: Call.int(index), atMost: Call.int(maxCount)), of: index, into: out, make)
        }
        // A page that kept its arena is copied from it; values are laid out otherwise (and when
        // the arena cannot be: a field holding a NUL).
        return try Self.place(run(from: Call.int(index), atMost: Call.int(maxCount)), of: index, into: out) { run in
            switch run {
            case .arena(let arena, let range): fromArena(arena, range) ?? make(arena.breeds(range)[...] as? ArraySlice<Item> ?? [])
            case .items(let items): make(items)
            }
        }
    }

    /// A loaded `state` laid out by `make` into `out`; `Call.Pending` while it loads; the
    /// page's error, or not found past the end.
    private static func place<Value: Sendable, Laid>(_ state: ItemState<Value>, of index: Int64,
                                           into out: UnsafeMutablePointer<UnsafeMutablePointer<Laid>?>,
                                           _ make: (Value) -> UnsafeMutablePointer<Laid>) throws(CatFactsError) -> Call.Pending? {
        switch state {
        case .loaded(let value):
            out.pointee = make(value)
            return nil
        case .pending:
            return Call.Pending(index: index)
        case .failed(let error):
            throw error
        case .pastEnd:
            throw .notFound("index \(index) is past the end of the list (or negative)")
        }
    }
}
