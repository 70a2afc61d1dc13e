/// What one save (or batch operation, or a run of history transactions) changed: the objects
/// inserted, updated and deleted, by ID.
///
/// `save()` returns it and the did-save notification carries it; it is also what merging takes:
/// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)`` and
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)`` bring other contexts up to
/// date with it. Inserted objects are listed with their permanent IDs (for a child context's save,
/// which reaches only its parent, with their temporary IDs), in the order of the temporary IDs
/// they had.
public struct ChangeSet: Sendable, CustomStringConvertible {
    /// IDs of the inserted objects.
    public internal(set) var inserted: [ManagedObjectID] = []
    /// The temporary IDs the inserted objects had before the save, in the order of `inserted`
    /// (an object that already had a permanent ID lists it in both).
    public internal(set) var insertedTemporaryIDs: [ManagedObjectID] = []
    /// IDs of the updated objects.
    public internal(set) var updated: [ManagedObjectID] = []
    /// The changed properties of each updated object, in the order of `updated` (kept as masks so a
    /// large save builds no sets of names).
    var updatedProperties: [PropertyMask] = []
    /// IDs of the deleted objects.
    public internal(set) var deleted: [ManagedObjectID] = []
    /// Inserted objects that a merge policy turned into existing objects (unique-constraint
    /// conflicts): their temporary IDs and the IDs of the objects they became, which are listed
    /// in `updated` when the save wrote over them.
    var adoptedTemporaryIDs: [(temporary: ManagedObjectID, permanent: ManagedObjectID)] = []

    /// The name of the saving context.
    public internal(set) var contextName: String?
    /// The saving context's `transactionAuthor`.
    public internal(set) var transactionAuthor: String?
    /// The history transaction the save recorded (nil when the store keeps no history, or for a
    /// child context's save).
    public internal(set) var historyToken: HistoryToken?
    /// Conflicts the saving context's merge policy resolved (a failed save throws them instead).
    public internal(set) var resolvedConflicts: [MergeConflict] = []
    /// What a small save to the store wrote to its rows, for the contexts that merge it.
    var savedValues: SavedValues?

    /// An empty change set.
    public init() {}

    /// The changes of objects known by ID, for ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``
    /// when they come from somewhere ObjectGraph did not see: `updated` names the changed keys of
    /// each object (nil: any key may have changed).
    public init(inserted: [ManagedObjectID] = [], updated: [ManagedObjectID: Set<String>?] = [:], deleted: [ManagedObjectID] = []) {
        self.inserted = inserted
        insertedTemporaryIDs = inserted
        for (objectID, keys) in updated {
            self.updated.append(objectID)
            updatedProperties.append(keys.map { ChangedKeys(entity: objectID.entity, names: $0) }?.mask
                ?? ChangedKeys.all(of: objectID.entity).mask)
        }
        self.deleted = deleted
    }

    /// The combined changes of history transactions, in order: an object inserted and then
    /// deleted is listed as deleted, an update of an object inserted in the same run is part of
    /// the insert, and the changed keys of several updates are united.
    public init(history transactions: [HistoryTransaction]) {
        var order: [ManagedObjectID] = []
        var states: [ManagedObjectID: (kind: Int, keys: PropertyMask)] = [:]
        for transaction in transactions {
            for change in transaction.changes {
                let id = change.objectID
                if states[id] == nil { order.append(id) }
                switch change.kind {
                case .insert:
                    states[id] = (0, PropertyMask())
                case .update(let keys):
                    if var state = states[id] {
                        if state.kind == 1 { state.keys.formUnion(keys.mask) }
                        if state.kind == 2 { state = (1, keys.mask) }
                        states[id] = state
                    } else {
                        states[id] = (1, keys.mask)
                    }
                case .delete:
                    states[id] = (2, PropertyMask())
                }
            }
        }
        for id in order {
            guard let state = states[id] else { continue }
            switch state.kind {
            case 0:
                inserted.append(id)
                insertedTemporaryIDs.append(id)
            case 1:
                updated.append(id)
                updatedProperties.append(state.keys)
            default:
                deleted.append(id)
            }
        }
        historyToken = transactions.last?.token
    }

    /// For each updated object, the names of the properties it changed.
    public var changedKeys: [ManagedObjectID: Set<String>] {
        var keys: [ManagedObjectID: Set<String>] = [:]
        for object in updatedObjects { keys[object.objectID] = object.changedKeys.names }
        return keys
    }

    /// The updated objects with their changed keys, in the order of `updated`.
    public var updatedObjects: [UpdatedObject] {
        zip(updated, updatedProperties).map { UpdatedObject(objectID: $0, changedKeys: ChangedKeys(entity: $0.entity, mask: $1)) }
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && adoptedTemporaryIDs.isEmpty }

    /// The permanent ID each temporary ID became.
    public var permanentIDs: [ManagedObjectID: ManagedObjectID] {
        var ids: [ManagedObjectID: ManagedObjectID] = [:]
        for (temporary, permanent) in zip(insertedTemporaryIDs, inserted) where temporary != permanent { ids[temporary] = permanent }
        for (temporary, permanent) in adoptedTemporaryIDs { ids[temporary] = permanent }
        return ids
    }

    public var description: String {
        "ChangeSet(inserted: \(inserted.count), updated: \(updated.count), deleted: \(deleted.count))"
    }
}

/// The values a small save to the store wrote to the rows of its inserted and updated objects, and
/// which commit of which store it was. A context that merges the save while it is still the
/// store's latest commit (``PersistentStore/holdsLatest(_:)``) can take a row's values from here
/// instead of reading the row: a fetched-results controller places a saved article without a
/// query, which was about 40 % of merging one moved article into a list of 100,000 (SQLite's read
/// transaction takes and releases a lock on the log's index with two `fcntl` calls).
struct SavedValues: Sendable {
    /// The most objects a save carries the values of: a writer's save (an article's autosave) is a
    /// handful, and a controller reads the rows of a larger one in batches.
    static let largestSave = 16

    /// The store's `origin`.
    let store: String
    /// Which of the store's commits the save was.
    var commit = 0
    /// Each object's values as written to its row (to-one relationships as keys; a NaN, which the
    /// row holds as NULL, is read as nil through ``PrimitiveValue/asStored``).
    var rows: [ManagedObjectID: ValueList] = [:]
}
