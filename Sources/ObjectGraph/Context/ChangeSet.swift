/// What one save wrote to the store: the objects inserted, updated and deleted, by ID.
///
/// `save()` returns it; merging a save into other contexts, did-save notifications and
/// persistent history are built on it. Inserted objects are listed with their permanent IDs, in the
/// same order as the temporary IDs they had.
public struct ChangeSet: Sendable, CustomStringConvertible {
    /// Permanent IDs of the inserted objects.
    public internal(set) var inserted: [ManagedObjectID] = []
    /// The temporary IDs the inserted objects had before the save, in the order of `inserted`
    /// (an object that already had a permanent ID lists it in both).
    public internal(set) var insertedTemporaryIDs: [ManagedObjectID] = []
    /// IDs of the updated objects.
    public internal(set) var updated: [ManagedObjectID] = []
    /// The changed properties of each updated object, in the order of `updated` (kept as masks so a
    /// large save builds no sets of names).
    var updatedProperties: [PropertyMask] = []

    /// For each updated object, the names of the properties it changed.
    public var changedKeys: [ManagedObjectID: Set<String>] {
        var keys: [ManagedObjectID: Set<String>] = [:]
        for (objectID, mask) in zip(updated, updatedProperties) {
            var names = Set<String>()
            mask.forEach { names.insert(objectID.entity.propertyName(at: $0)) }
            keys[objectID] = names
        }
        return keys
    }
    /// IDs of the deleted objects.
    public internal(set) var deleted: [ManagedObjectID] = []

    /// The name of the saving context, and the author it gave its transactions.
    public internal(set) var contextName: String?
    /// The saving context's `transactionAuthor`.
    public internal(set) var transactionAuthor: String?

    /// Whether the save wrote nothing.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

    /// The permanent ID each temporary ID became.
    public var permanentIDs: [ManagedObjectID: ManagedObjectID] {
        Dictionary(zip(insertedTemporaryIDs, inserted), uniquingKeysWith: { first, _ in first })
    }

    public var description: String {
        "ChangeSet(inserted: \(inserted.count), updated: \(updated.count), deleted: \(deleted.count))"
    }
}
