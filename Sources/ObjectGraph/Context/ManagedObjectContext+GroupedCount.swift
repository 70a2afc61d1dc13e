/// How many objects one value of a grouped count has (``ManagedObjectContext/countsGrouped(_:by:)``).
public struct GroupedCount: Sendable {
    /// The property's value as ``ManagedObjectContext/fetchDictionaries(_:propertiesToFetch:)``
    /// gives it: an attribute's value, or a relationship's destination as a ``ManagedObjectID``;
    /// nil for a nil value (a to-one relationship to nothing).
    public let value: (any Sendable)?
    /// How many matching objects have it.
    public let count: Int
}

extension ManagedObjectContext {
    /// How many objects match `request` for each value of `property`, counted by the store in one
    /// `GROUP BY` query (Core Data: a dictionary fetch with `propertiesToGroupBy` and a `count:`
    /// expression). `property` is an attribute, or a relationship at the end of a dot-separated
    /// path through to-one relationships. Grouped by a to-many relationship, an object counts once
    /// for each of its members, and an object with none is in no group. Values no matching object
    /// has are not listed; the order of the groups is unspecified.
    ///
    /// Read from the store only: unsaved changes are not included, as in Core Data's grouped
    /// fetches. Sort descriptors, limit and offset of `request` are not used.
    public func countsGrouped<T: ManagedObject>(_ request: FetchRequest<T>, by property: String) throws -> [GroupedCount] {
        checkAccess()
        let plan = try self.plan(request)
        let query = try QueryBuilder.countGrouped(
            by: property.split(separator: ".").map(String.init), from: plan.entity, model: model, where: plan.predicate)
        return try persistentStore.read { connection in
            let statement = try connection.statement(query.sql)
            defer { statement.reset() }
            statement.bind(query.bindings)
            var groups: [GroupedCount] = []
            while try statement.step() {
                let value: (any Sendable)?
                switch query.key {
                case .attribute(let type):
                    value = statement.value(0, as: type).swiftValue
                case .destination(let entity):
                    value = statement.isNull(0) ? nil : ManagedObjectID(entity: entity, key: statement.int64(0))
                }
                groups.append(GroupedCount(value: value, count: Int(statement.int64(1))))
            }
            return groups
        }
    }
}
