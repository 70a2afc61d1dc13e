/// Deletes every object matching a predicate (or given by ID) in SQL, without making objects,
/// applying delete rules as a save does.
///
///     let result = try context.execute(BatchDeleteRequest<Article>(predicate: \.isTrashed == true, resultType: .objectIDs))
///     ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [viewContext])
///
/// Cascade rules delete related rows transitively; nullify rules clear the inverse on the rows
/// left; a deny rule refuses the whole request with a ``ValidationError`` naming the blocking
/// objects while any related row would stay (Core Data's batch delete ignores delete rules; this
/// one does not). A no-action relationship still pointing at a deleted row fails the request
/// instead of leaving a dangling reference.
public struct BatchDeleteRequest<Root: ManagedObject>: Sendable {
    enum Selection: Sendable {
        case predicate(FetchPredicate<Root>?)
        case objectIDs([ManagedObjectID])
    }

    /// The entity; nil means the entity whose class is `Root`.
    public var entityName: String?
    let selection: Selection
    /// What the result reports.
    public var resultType: BatchResultType = .statusOnly

    /// A request for the objects of `Root`'s entity matching `predicate` (all when nil).
    public init(predicate: FetchPredicate<Root>? = nil, resultType: BatchResultType = .statusOnly) {
        selection = .predicate(predicate)
        self.resultType = resultType
    }

    /// A request for every object of an entity by name.
    public init(entityName: String, resultType: BatchResultType = .statusOnly) {
        self.entityName = entityName
        selection = .predicate(nil)
        self.resultType = resultType
    }

    /// A request for these objects (of any entities of the store).
    public init(objectIDs: [ManagedObjectID], resultType: BatchResultType = .statusOnly) {
        selection = .objectIDs(objectIDs)
        self.resultType = resultType
    }
}
