import CatFactsKit

/// An item state without the item: what `cf_list_wait` returns, and the message for it.
struct ItemStatus: Sendable {
    let status: Status
    let error: CatFactsError?

    init<Item>(_ state: ItemState<Item>) {
        status = state.status
        switch state {
        case .failed(let error): self.error = error
        case .pastEnd: error = .notFound("the index is past the end of the list")
        default: error = nil
        }
    }
}
