/// Inserts rows from values, in one transaction, without making objects.
///
///     let request = BatchInsertRequest<Article>(objects: imported.map {
///         ["id": .uuid($0.id), "title": .string($0.title), "createdAt": .date($0.date)]
///     })
///     let result = try context.execute(request)
///
/// Each dictionary gives attribute values by name; missing attributes take their defaults.
/// Values are checked as a save checks them (types, ranges, required values); relationships
/// cannot be set this way (a required to-one fails validation). A row whose unique values an
/// existing row holds is a unique-constraint conflict for the executing context's merge policy:
/// `.error` fails the whole request with a ``ValidationError``, object trump and overwrite update
/// the existing row instead (an upsert), store trump and rollback keep the existing row.
public struct BatchInsertRequest<Root: ManagedObject>: Sendable {
    /// The entity; nil means the entity whose class is `Root`.
    public var entityName: String?
    /// The rows, as attribute values by name.
    public var objects: [[String: PrimitiveValue]]
    /// What the result reports.
    public var resultType: BatchResultType = .statusOnly

    /// A request for the entity whose class is `Root`.
    public init(objects: [[String: PrimitiveValue]], resultType: BatchResultType = .statusOnly) {
        self.objects = objects
        self.resultType = resultType
    }

    /// A request for an entity by name.
    public init(entityName: String, objects: [[String: PrimitiveValue]], resultType: BatchResultType = .statusOnly) {
        self.entityName = entityName
        self.objects = objects
        self.resultType = resultType
    }
}
