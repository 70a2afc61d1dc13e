import Foundation

/// Batch insert, update and delete: SQL over many rows, without objects, in one transaction each,
/// recorded in persistent history with the context's author and name.
extension ManagedObjectContext {
    /// Inserts the request's rows. See ``BatchInsertRequest``.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchInsertRequest<T>) throws -> BatchResult {
        checkAccess()
        let entity = try batchEntity(request.entityName, T.self)
        let policy = mergePolicy
        let transaction = StoreTransaction(author: transactionAuthor, contextName: name)
        return try persistentStore.write(transaction) { connection, transaction in
            try BatchInsert(context: self, entity: entity, policy: policy, connection: connection)
                .run(request.objects, resultType: request.resultType, transaction)
        }
    }

    /// Updates the matching rows. See ``BatchUpdateRequest``.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchUpdateRequest<T>) throws -> BatchResult {
        checkAccess()
        let entity = try batchEntity(request.entityName, T.self)
        guard !request.propertiesToUpdate.isEmpty else {
            throw ObjectGraphError.invalidBatchRequest(entity: entity.name, reason: "a batch update needs properties to update")
        }
        var columns: [(name: String, value: PrimitiveValue)] = []
        var mask = PropertyMask()
        for (name, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            guard let index = entity.attributeIndex[name], !entity.attributes[index].isTransient else {
                throw ObjectGraphError.unknownKey(entity: entity.name, key: name)
            }
            let attribute = entity.attributes[index]
            columns.append((name, try Self.checked(value, type: attribute.type, isOptional: attribute.isOptional, key: name, of: entity)))
            mask.insert(index)
        }
        let query = try QueryBuilder.select(
            .keys, from: entity, model: model, where: request.predicate?.node, sortedBy: [], limit: 0, offset: 0)
        let assignments = columns.map { "\(SQL.quote($0.name)) = ?" } + ["_version = _version + 1"]
        let sql = "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE _pk IN (\(query.sql)) RETURNING _pk"
        let transaction = StoreTransaction(author: transactionAuthor, contextName: name)
        return try persistentStore.write(transaction) { connection, transaction in
            let keys = try connection.integers(sql, columns.map(\.value) + query.bindings)
            var changes = ChangeSet()
            if request.resultType == .objectIDs {
                changes.updated = keys.map { ManagedObjectID(entity: entity, key: $0) }
                changes.updatedProperties = Array(repeating: mask, count: keys.count)
            }
            for key in keys { transaction.history?.recordUpdate(of: entity, key: key, properties: mask) }
            return BatchResult(count: keys.count, changes: describe(changes))
        }
    }

    /// Deletes the selected rows and applies delete rules. See ``BatchDeleteRequest``.
    @discardableResult
    public func execute<T: ManagedObject>(_ request: BatchDeleteRequest<T>) throws -> BatchResult {
        checkAccess()
        var roots: [Int: [Int64]] = [:]
        var query: (entity: EntityModel, sql: String, bindings: [PrimitiveValue])?
        switch request.selection {
        case .predicate(let predicate):
            let entity = try batchEntity(request.entityName, T.self)
            let select = try QueryBuilder.select(.keys, from: entity, model: model, where: predicate?.node, sortedBy: [], limit: 0, offset: 0)
            query = (entity, select.sql, select.bindings)
        case .objectIDs(let objectIDs):
            for objectID in objectIDs {
                guard let entity = localEntity(of: objectID) else { throw ObjectGraphError.wrongStore(objectID) }
                guard !objectID.isTemporaryID else { throw ObjectGraphError.temporaryIDNotResolvable(objectID) }
                roots[entity.number, default: []].append(objectID.key)
            }
        }
        let transaction = StoreTransaction(author: transactionAuthor, contextName: name)
        do {
            return try persistentStore.write(transaction) { connection, transaction in
                // The rows a predicate selects are read inside the transaction that deletes them.
                if let query { roots[query.entity.number] = try connection.integers(query.sql, query.bindings) }
                return try BatchDelete(context: self, connection: connection).run(roots, resultType: request.resultType, transaction)
            }
        } catch let dangling as DanglingReferenceError {
            throw ValidationError(issues: dangling.violations.compactMap { violation in
                guard let entity = model.entity(named: violation.table), let key = violation.key else { return nil }
                return ValidationError.Issue(
                    entity: entity.name, objectID: ManagedObjectID(entity: entity, key: key),
                    key: entity.relationships.first { model.destination(of: $0).name == violation.parent }?.name,
                    reason: .danglingReference(destination: violation.parent))
            })
        }
    }

    /// The changes a batch operation reports, with the context's name and author.
    func describe(_ changes: ChangeSet) -> ChangeSet {
        var changes = changes
        changes.contextName = name
        changes.transactionAuthor = transactionAuthor
        return changes
    }

    /// The entity a batch request names, or the one of its class.
    private func batchEntity<T: ManagedObject>(_ name: String?, _ type: T.Type) throws -> EntityModel {
        if let name {
            guard let entity = model.entity(named: name) else { throw ObjectGraphError.unknownEntity(name) }
            return entity
        }
        guard let entity = model.entity(for: T.self) else { throw ObjectGraphError.unknownEntity("\(T.self)") }
        return entity
    }

    /// A value checked as a save checks it: the attribute's type, range, and required values.
    @inline(__always)
    static func checked(
        _ value: PrimitiveValue, type: AttributeType, isOptional: Bool, key: @autoclosure () -> String, of entity: EntityModel
    ) throws -> PrimitiveValue {
        guard let coerced = type.coerce(value) else {
            throw ObjectGraphError.wrongValueType(entity: entity.name, key: key(), expected: type.rawValue, actual: value.kindName)
        }
        if type.isOutOfRange(coerced) {
            throw ObjectGraphError.valueOutOfRange(entity: entity.name, key: key(), value: coerced.description)
        }
        if coerced.isNull && !isOptional {
            throw ObjectGraphError.wrongValueType(entity: entity.name, key: key(), expected: type.rawValue, actual: "nil")
        }
        return coerced
    }
}

/// Runs SQL with an `IN (...)` list over many keys, a fixed number at a time, so that one prepared
/// statement serves every chunk (unused places are bound NULL, which matches nothing).
enum KeyChunks {
    static let size = 500
    static let placeholders = Array(repeating: "?", count: size).joined(separator: ", ")

    /// Runs `sql(placeholders)` for each chunk of `keys`, calling `row` for each result row.
    static func run(
        _ keys: [Int64], _ connection: SQLiteConnection, sql: (String) -> String, row: (Statement) throws -> Void = { _ in }
    ) throws {
        guard !keys.isEmpty else { return }
        let statement = try connection.statement(sql(placeholders))
        defer { statement.reset() }
        var start = 0
        while start < keys.count {
            for index in 0..<size {
                let parameter = Int32(index + 1)
                if start + index < keys.count { statement.bind(keys[start + index], at: parameter) } else { statement.bindNull(at: parameter) }
            }
            while try statement.step() { try row(statement) }
            statement.reset()
            start += size
        }
    }
}
