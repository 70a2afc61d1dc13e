/// A batch of changes as a difference between two snapshots of the results, for views that apply
/// snapshots rather than individual changes.
///
///     var ids = snapshotBefore                          // [ManagedObjectID]
///     ids = ids.applying(difference.objects)!           // equals the controller's objects now
///
/// Removals carry offsets in the old results, insertions offsets in the new ones; a moved object
/// is removed and inserted, the two associated with each other.
///
/// The differences are made when read: a delegate that only follows single changes does not pay
/// for building and checking them on every save.
public struct FetchedResultsDifference: Sendable {
    private let objectChanges: [CollectionDifference<ManagedObjectID>.Change]
    private let sectionChanges: [FetchedResultsSectionChange]
    /// Objects whose values changed: updated in place, or moved (whose values changed too).
    public let changed: [ManagedObjectID]

    /// The objects removed, inserted and moved.
    public var objects: CollectionDifference<ManagedObjectID> {
        guard let difference = CollectionDifference(objectChanges) else {
            preconditionFailure("a batch names one position twice: \(objectChanges)")
        }
        return difference
    }

    /// The sections removed and inserted, by name (empty without a section key path).
    public var sections: CollectionDifference<String> {
        let changes = sectionChanges.map { change -> CollectionDifference<String>.Change in
            switch change {
            case .insert(let name, let number): return .insert(offset: number, element: name, associatedWith: nil)
            case .delete(let name, let number): return .remove(offset: number, element: name, associatedWith: nil)
            }
        }
        guard let difference = CollectionDifference(changes) else {
            preconditionFailure("a batch names one section twice: \(sectionChanges)")
        }
        return difference
    }

    init(
        objectChanges: [CollectionDifference<ManagedObjectID>.Change], changed: [ManagedObjectID],
        sectionChanges: [FetchedResultsSectionChange]
    ) {
        self.objectChanges = objectChanges
        self.changed = changed
        self.sectionChanges = sectionChanges
    }
}
