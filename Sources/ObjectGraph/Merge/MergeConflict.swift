/// A change of the context that meets a change made elsewhere, with everything needed to show a
/// writer what happened: the values the context read, the values there now, and its own.
///
/// For a context on the store, "elsewhere" is the store; for a child context, its parent.
public struct MergeConflict: Sendable, Hashable, CustomStringConvertible {
    /// What kind of conflict it is.
    public enum Kind: Sendable, Hashable {
        /// The object's row changed or was deleted since the context read it (optimistic locking).
        case optimisticLocking
        /// An inserted object's values for `keys` are held by an existing object, which a
        /// non-error policy can make the inserted object become (object trump turns the insert
        /// into an update of it).
        case uniqueConstraint(keys: [String], existingObject: ManagedObjectID)
    }

    /// What kind of conflict it is.
    public var kind: Kind
    /// The object in conflict (a temporary ID for an inserted object).
    public var objectID: ManagedObjectID
    /// The row version the context's values were read at (0 for an inserted object).
    public var snapshotVersion: Int64
    /// The row version there now; nil when the row was deleted.
    public var storeVersion: Int64?
    /// The values the context read (nil for an inserted object).
    public var objectSnapshot: ObjectSnapshot?
    /// The values there now; nil when the row was deleted.
    public var storeSnapshot: ObjectSnapshot?
    /// The context's values now.
    public var objectValues: ObjectSnapshot
    /// The properties the context changed.
    public var changedKeys: Set<String>
    /// Whether the context is deleting the object.
    public var deletesObject: Bool

    public var description: String {
        switch kind {
        case .optimisticLocking:
            return "\(objectID)\(deletesObject ? " (deleted)" : ""): read at version \(snapshotVersion), store has "
                + (storeVersion.map { "version \($0)" } ?? "no row")
                + (changedKeys.isEmpty ? "" : "; changed here: " + changedKeys.sorted().joined(separator: ", "))
        case .uniqueConstraint(let keys, let existing):
            return "\(objectID): \(keys.joined(separator: ", ")) already held by \(existing)"
        }
    }
}

extension MergeConflict {
    /// The primary key of the existing row of a unique-constraint conflict.
    var existingKey: Int64 {
        if case .uniqueConstraint(_, let existing) = kind { return existing.key }
        return objectID.key
    }
}
