/// What a batch request reports besides its count.
public enum BatchResultType: Sendable, Hashable {
    /// Only whether it succeeded (and the count).
    case statusOnly
    /// The number of rows affected.
    case count
    /// The IDs of every object affected, in ``BatchResult/changes``, ready to merge.
    case objectIDs
}

/// The outcome of a batch insert, update or delete.
///
/// Batch operations write to the store without going through any context, so no context knows of
/// them until told: pass ``changes`` (asked for with `.objectIDs`) to
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``. Other processes see them
/// through persistent history like any save.
public struct BatchResult: Sendable {
    /// The number of rows inserted (or, by a unique-constraint policy, updated instead), updated,
    /// or deleted (cascaded deletes included).
    public let count: Int
    /// With `.objectIDs`: every object inserted, updated (for a delete: the objects whose
    /// relationships were nullified) and deleted. Empty otherwise.
    public let changes: ChangeSet
}
