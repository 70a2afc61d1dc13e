/// One row's change within a batch, with the indices an `NSFetchedResultsController` delegate
/// receives: rows leave at their index in the list before the batch and arrive at their index
/// in the list after it. Rows the batch neither removes nor inserts keep their order.
public enum ListChange<Identity: Hashable & Sendable>: Hashable, Sendable {
    /// A row arrived; `at` is its index after the batch.
    case insert(Identity, at: Int)
    /// A row left; `at` is its index before the batch.
    case delete(Identity, at: Int)
    /// A row moved, `from` its index before the batch `to` its index after it. Its data may
    /// have changed too (a change of a sort key is a move).
    case move(Identity, from: Int, to: Int)
    /// A row's data changed in place; `at` is its index before the batch.
    case update(Identity, at: Int)

    /// The row the change is about.
    public var identity: Identity {
        switch self {
        case .insert(let identity, _), .delete(let identity, _), .move(let identity, _, _), .update(let identity, _):
            identity
        }
    }
}
