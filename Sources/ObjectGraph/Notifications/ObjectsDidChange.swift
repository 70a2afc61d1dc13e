/// What changed in the objects of one context: the payload of
/// ``ContextNotification/objectsDidChange(_:)``.
///
/// A context posts it after its state already reflects the change, on its own queue:
/// - for its own unsaved edits, when ``ManagedObjectContext/processPendingChanges()`` runs (the
///   context schedules that on its queue after the first change, and `save()` runs it first);
/// - at once after a merge (another context's save, a batch operation, another process's
///   transactions), a child's save into it, `rollback()`, `reset()` or `refresh(_:mergeChanges:)`.
///
/// Everything is by object ID, so an observer need not hold objects. The lists are what a fetch
/// with `includesPendingChanges` sees differently now:
///
///     context.addObserver { notification in
///         guard case .objectsDidChange(let change) = notification else { return }
///         for object in change.updated + change.refreshed where object.changedKeys.contains("title") { ... }
///     }
///
/// A merge may report as inserted an object a fetch already returned (a fetch that ran between the
/// other context's commit and the merge), and as deleted one no fetch returned: treat an insert
/// of a known ID as an update and a delete of an unknown ID as nothing.
public struct ObjectsDidChange: Sendable, CustomStringConvertible {
    /// Objects that joined the context's view of the graph: inserted here, inserted elsewhere and
    /// merged, or brought back by `rollback()` after a delete.
    public internal(set) var inserted: [ManagedObjectID] = []
    /// Objects changed in this context (by its own code or a child's save), with the keys changed
    /// since they were last saved.
    public internal(set) var updated: [UpdatedObject] = []
    /// Objects whose values were replaced from outside: merged changes of other contexts, batch
    /// operations and other processes, `refresh(_:mergeChanges:)`, and edits undone by
    /// `rollback()`, with the keys that may differ.
    public internal(set) var refreshed: [UpdatedObject] = []
    /// Objects that left the context's view: deleted here, deleted elsewhere and merged, or
    /// inserted here and rolled back.
    public internal(set) var deleted: [ManagedObjectID] = []
    /// Every registered object was let go (`reset()`): fetch again.
    public internal(set) var invalidatedAll = false
    /// Objects this context knew by a temporary ID that now have a permanent one (after a save
    /// reached the store); the old ID no longer finds them.
    public internal(set) var permanentIDs: [ManagedObjectID: ManagedObjectID] = [:]
    /// The rows' values of a merged save, when it carried them (``SavedValues``).
    var savedValues: SavedValues?

    /// Whether nothing is reported.
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && refreshed.isEmpty && deleted.isEmpty && !invalidatedAll
            && permanentIDs.isEmpty
    }

    public var description: String {
        "ObjectsDidChange(inserted: \(inserted.count), updated: \(updated.count), refreshed: \(refreshed.count), "
            + "deleted: \(deleted.count)\(invalidatedAll ? ", invalidated all" : ""), permanent IDs: \(permanentIDs.count))"
    }
}
