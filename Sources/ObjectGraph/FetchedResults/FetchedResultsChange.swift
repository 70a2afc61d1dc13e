/// Where an object is in a fetched-results controller's results: its position among all of them
/// and its index path among the sections.
public struct FetchedResultsPosition: Hashable, Sendable, CustomStringConvertible {
    /// The position among all the results.
    public let index: Int
    /// The section and the position within it.
    public let indexPath: FetchedIndexPath

    public init(index: Int, indexPath: FetchedIndexPath) {
        self.index = index
        self.indexPath = indexPath
    }

    public var description: String { "\(index) \(indexPath)" }
}

/// One object's change within a batch, with the positions an `NSFetchedResultsController`
/// delegate receives: objects leave from their position before the batch and arrive at their
/// position after it. Objects the batch neither removes nor inserts keep their order, so replaying
/// a batch on the old list (removals from the highest old index down, then arrivals from the
/// lowest new index up) gives the new list.
public enum FetchedResultsChange: Hashable, Sendable, CustomStringConvertible {
    /// The object started to match (inserted, or changed so that it matches); `at` is after the batch.
    case insert(ManagedObjectID, at: FetchedResultsPosition)
    /// The object stopped matching (deleted, or changed so that it no longer matches); `at` is
    /// before the batch.
    case delete(ManagedObjectID, at: FetchedResultsPosition)
    /// A sort key of the object changed and it moved; its other values may have changed too.
    case move(ManagedObjectID, from: FetchedResultsPosition, to: FetchedResultsPosition)
    /// The object changed in place; `at` is before the batch.
    case update(ManagedObjectID, at: FetchedResultsPosition)

    /// The object the change is about.
    public var objectID: ManagedObjectID {
        switch self {
        case .insert(let objectID, _), .delete(let objectID, _), .move(let objectID, _, _), .update(let objectID, _):
            return objectID
        }
    }

    public var description: String {
        switch self {
        case .insert(let objectID, let position): return "insert \(objectID) at \(position)"
        case .delete(let objectID, let position): return "delete \(objectID) at \(position)"
        case .move(let objectID, let from, let to): return "move \(objectID) from \(from) to \(to)"
        case .update(let objectID, let position): return "update \(objectID) at \(position)"
        }
    }
}

/// A section that appeared or disappeared within a batch: deleted sections at their position
/// before the batch, inserted ones at their position after it.
public enum FetchedResultsSectionChange: Hashable, Sendable {
    /// The first object with a new section value arrived.
    case insert(name: String, at: Int)
    /// The last object with the section's value left.
    case delete(name: String, at: Int)
}
