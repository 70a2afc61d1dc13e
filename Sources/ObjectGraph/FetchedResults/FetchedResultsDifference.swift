/// A batch of changes as a difference between two snapshots of the results, for views that apply
/// snapshots rather than individual changes.
///
///     var ids = snapshotBefore                          // [ManagedObjectID]
///     ids = ids.applying(difference.objects)!           // equals the controller's objects now
///
/// Removals carry offsets in the old results, insertions offsets in the new ones; a moved object
/// is removed and inserted, the two associated with each other.
public struct FetchedResultsDifference: Sendable {
    /// The objects removed, inserted and moved.
    public let objects: CollectionDifference<ManagedObjectID>
    /// Objects whose values changed: updated in place, or moved (whose values changed too).
    public let changed: [ManagedObjectID]
    /// The sections removed and inserted, by name (empty without a section key path).
    public let sections: CollectionDifference<String>

    public init(objects: CollectionDifference<ManagedObjectID>, changed: [ManagedObjectID], sections: CollectionDifference<String>) {
        self.objects = objects
        self.changed = changed
        self.sections = sections
    }
}
