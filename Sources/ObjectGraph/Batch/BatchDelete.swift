/// A batch delete running inside its write transaction: the rows to delete with their cascades,
/// deny rules checked, nullified inverses written, then the rows and their join rows deleted, a
/// chunk of keys per statement.
struct BatchDelete {
    let context: ManagedObjectContext
    let connection: SQLiteConnection

    private var model: SchemaModel { context.model }

    func run(_ roots: [Int: [Int64]], resultType: BatchResultType, _ transaction: StoreTransaction) throws -> BatchResult {
        // Every row to delete: the selected ones and, transitively, their cascades.
        var doomed = roots.mapValues(Set.init)
        var frontier = doomed
        while !frontier.isEmpty {
            var next: [Int: Set<Int64>] = [:]
            for (number, keys) in frontier {
                let entity = model.entities[number]
                for relationship in entity.relationships where relationship.deleteRule == .cascade {
                    for (_, target) in try linkedPairs(entity, keys, relationship)
                    where doomed[relationship.destination, default: []].insert(target).inserted {
                        next[relationship.destination, default: []].insert(target)
                    }
                }
            }
            frontier = next
        }

        // A deny rule refuses the whole request while any related row would stay.
        var issues: [ValidationError.Issue] = []
        for (number, keys) in doomed.sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[number]
            for relationship in entity.relationships where relationship.deleteRule == .deny {
                let destination = model.destination(of: relationship)
                var blocking: [Int64: [Int64]] = [:]
                for (owner, target) in try linkedPairs(entity, keys, relationship) where doomed[destination.number]?.contains(target) != true {
                    blocking[owner, default: []].append(target)
                }
                for (owner, targets) in blocking.sorted(by: { $0.key < $1.key }) {
                    issues.append(ValidationError.Issue(
                        entity: entity.name, objectID: ManagedObjectID(entity: entity, key: owner), key: relationship.name,
                        reason: .deleteDenied(by: targets.sorted().map { ManagedObjectID(entity: destination, key: $0) })))
                }
            }
        }
        if !issues.isEmpty { throw ValidationError(issues: issues) }

        // The values history keeps of deleted rows, read before they go.
        var tombstones: [Int: [Int64: ObjectState]] = [:]
        if transaction.history != nil {
            for (number, keys) in doomed where !model.entities[number].tombstoneSlots.isEmpty {
                tombstones[number] = try context.readStates(of: model.entities[number], keys: keys.sorted(), connection)
            }
        }

        // Nullify: the rows left lose their link to deleted rows.
        var nullified: [Int: [Int64: PropertyMask]] = [:]
        for (number, keys) in doomed.sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[number]
            for relationship in entity.relationships where relationship.deleteRule == .nullify {
                let destination = model.destination(of: relationship)
                let inverse = model.inverse(of: relationship)
                let position = destination.attributes.count + inverse.index
                let spared = { (key: Int64) in doomed[destination.number]?.contains(key) != true }
                if case .inverseForeignKey(let column) = relationship.storage {
                    try KeyChunks.run(keys.sorted(), connection, sql: {
                        "UPDATE \(destination.table) SET \(SQL.quote(column)) = NULL, _version = _version + 1 WHERE \(SQL.quote(column)) IN (\($0)) RETURNING _pk"
                    }) { row in
                        let key = row.int64(0)
                        if spared(key) { nullified[destination.number, default: [:]][key, default: PropertyMask()].insert(position) }
                    }
                } else {
                    // The link lives in the deleted row or in join rows, which go with it.
                    for (_, target) in try linkedPairs(entity, keys, relationship) where spared(target) {
                        nullified[destination.number, default: [:]][target, default: PropertyMask()].insert(position)
                    }
                }
            }
        }

        // The rows and their join rows.
        var deleted: [Int: [Int64]] = [:]
        for (number, keys) in doomed.sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[number]
            let sorted = keys.sorted()
            for join in entity.relationships.compactMap(\.joinTable) {
                try KeyChunks.run(sorted, connection, sql: { "DELETE FROM \(join.table) WHERE \(join.ownColumn) IN (\($0))" })
            }
            try KeyChunks.run(sorted, connection, sql: { "DELETE FROM \(entity.table) WHERE _pk IN (\($0)) RETURNING _pk" }) { row in
                deleted[number, default: []].append(row.int64(0))
            }
        }

        var changes = ChangeSet()
        var count = 0
        for (number, keys) in deleted.sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[number]
            count += keys.count
            for key in keys {
                transaction.history?.recordDelete(of: entity, key: key, values: tombstones[number]?[key]?.values ?? ValueList())
            }
            if resultType == .objectIDs { changes.deleted += keys.map { ManagedObjectID(entity: entity, key: $0) } }
        }
        for (number, rows) in nullified.sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[number]
            for (key, properties) in rows.sorted(by: { $0.key < $1.key }) {
                transaction.history?.recordUpdate(of: entity, key: key, properties: properties)
                if resultType == .objectIDs {
                    changes.updated.append(ManagedObjectID(entity: entity, key: key))
                    changes.updatedProperties.append(properties)
                }
            }
        }
        return BatchResult(count: count, changes: context.describe(changes))
    }

    /// The (owner, destination) key pairs a relationship links, for owners among `keys`.
    private func linkedPairs(_ entity: EntityModel, _ keys: Set<Int64>, _ relationship: RelationshipModel) throws -> [(Int64, Int64)] {
        let destination = model.destination(of: relationship)
        var pairs: [(Int64, Int64)] = []
        let sql: (String) -> String
        switch relationship.storage {
        case .foreignKey(let column, _):
            sql = { "SELECT _pk, \(SQL.quote(column)) FROM \(entity.table) WHERE _pk IN (\($0)) AND \(SQL.quote(column)) IS NOT NULL" }
        case .inverseForeignKey(let column):
            sql = { "SELECT \(SQL.quote(column)), _pk FROM \(destination.table) WHERE \(SQL.quote(column)) IN (\($0))" }
        case .joinTable(let table, let ownColumn, let otherColumn):
            sql = { "SELECT \(ownColumn), \(otherColumn) FROM \(table) WHERE \(ownColumn) IN (\($0))" }
        }
        try KeyChunks.run(keys.sorted(), connection, sql: sql) { row in pairs.append((row.int64(0), row.int64(1))) }
        return pairs
    }
}
