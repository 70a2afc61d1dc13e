/// Sets attributes of every object matching a predicate, as one SQL UPDATE, without making objects.
///
///     var request = BatchUpdateRequest<Article>(predicate: \.isDraft == true)
///     request.set(\.isDraft, to: false)
///     request.resultType = .objectIDs
///     let result = try context.execute(request)
///     ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [viewContext])
///
/// Each updated row's version increases, so contexts holding changed copies meet the update as a
/// conflict when they save.
public struct BatchUpdateRequest<Root: ManagedObject>: Sendable {
    /// The entity; nil means the entity whose class is `Root`.
    public var entityName: String?
    /// Which objects; nil updates every object of the entity.
    public var predicate: FetchPredicate<Root>?
    /// The new attribute values, by name.
    public var propertiesToUpdate: [String: PrimitiveValue] = [:]
    /// What the result reports.
    public var resultType: BatchResultType = .statusOnly

    /// A request for the objects of `Root`'s entity matching `predicate`.
    public init(predicate: FetchPredicate<Root>? = nil, propertiesToUpdate: [String: PrimitiveValue] = [:]) {
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }

    /// A request for every object of an entity by name.
    public init(entityName: String, propertiesToUpdate: [String: PrimitiveValue] = [:]) {
        self.entityName = entityName
        self.propertiesToUpdate = propertiesToUpdate
    }

    /// Sets an attribute, named by key path, to `value`.
    public mutating func set<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, to value: Value) {
        propertiesToUpdate[KeyPathProbe.names(of: keyPath).joined(separator: ".")] = value.primitiveValue
    }
}
