import CSQLite
import Foundation

/// The SQL of a context's save to the store: the INSERT, UPDATE and DELETE statements of its
/// objects' rows and join rows, and the reads that find conflicts, run on the store's connection
/// inside the save's write transaction (``PersistentStore/write(_:_:)``).
///
/// Statements come from the connection's cache, one per entity and column set, bound and read by
/// index: a save of many objects prepares each statement once. Values come from the objects as the
/// saving context holds them (to-one relationships as loaded, ``ManagedObjectContext/persistentValues(of:)``).
struct RowWriter {
    /// The store's connection, in a write transaction.
    let connection: SQLiteConnection
    /// The saving context.
    let context: ManagedObjectContext
    let model: SchemaModel

    init(connection: SQLiteConnection, context: ManagedObjectContext) {
        self.connection = connection
        self.context = context
        model = context.model
    }

    /// Writes the stored side of a resolved conflict and returns the object's row version after it.
    func write(_ outcome: ConflictOutcome, of object: ManagedObject, over row: (values: ValueList, version: Int64)?) throws -> Int64 {
        let entity = object.entityModel
        switch outcome {
        case .takeStore:
            return row?.version ?? object.rowVersion
        case .delete:
            guard row != nil else { return object.rowVersion }
            try connection.run("DELETE FROM \(entity.table) WHERE _pk = ?", [.integer(object.key)])
            for join in entity.relationships.compactMap(\.joinTable) {
                try connection.run("DELETE FROM \(join.table) WHERE \(join.ownColumn) = ?", [.integer(object.key)])
            }
            return object.rowVersion
        case .write(let target):
            guard let row else {
                // Written again: `insertRows` adds the row with the object's new values.
                object.values = target
                return object.rowVersion + 1
            }
            let columns = entity.columns.filter { target[$0.slot] != row.values[$0.slot] }
            guard !columns.isEmpty else { return row.version }
            let assignments = columns.map { "\(SQL.quote($0.name)) = ?" } + ["_version = ?"]
            try connection.run(
                "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE _pk = ? AND _version = ?",
                columns.map { target[$0.slot] } + [.integer(row.version + 1), .integer(object.key), .integer(row.version)])
            return row.version + 1
        }
    }

    /// Reserves primary keys for new objects first, so foreign keys between them can be written.
    func assignKeys(_ inserts: [ManagedObject]) throws {
        for (entity, objects) in groupedByEntity(inserts.filter { $0.key <= 0 }) {
            var key = try context.persistentStore.reserveKeys(connection, entity: entity, count: objects.count)
            for object in objects {
                object.key = key
                key += 1
            }
        }
    }

    /// Objects by entity, in the model's order of entities. (A dictionary grouping hashed every
    /// object's entity number; a save of 100,000 objects of one entity did it twice.)
    private func groupedByEntity(_ objects: [ManagedObject]) -> [(entity: EntityModel, objects: [ManagedObject])] {
        guard let number = objects.first?.entityModel.number else { return [] }
        if objects.allSatisfy({ $0.entityModel.number == number }) { return [(model.entities[number], objects)] }
        var groups = [[ManagedObject]](repeating: [], count: model.entities.count)
        for object in objects { groups[object.entityModel.number].append(object) }
        return groups.indices.filter { !groups[$0].isEmpty }.map { (model.entities[$0], groups[$0]) }
    }

    /// Deletes rows (and then their join rows) whose version is still the one read; returns the
    /// objects whose rows changed or went away meanwhile.
    func deleteRows(_ deletes: [ManagedObject]) throws -> [ManagedObject] {
        var conflicts: [ManagedObject] = []
        for object in deletes {
            let entity = object.entityModel
            let statement = try connection.statement("DELETE FROM \(entity.table) WHERE _pk = ? AND _version = ?")
            statement.bind(object.key, at: 1)
            statement.bind(object.rowVersion, at: 2)
            try statement.run()
            if connection.changes == 0 {
                conflicts.append(object)
                continue
            }
            for join in entity.relationships.compactMap(\.joinTable) {
                try connection.run("DELETE FROM \(join.table) WHERE \(join.ownColumn) = ?", [.integer(object.key)])
            }
        }
        return conflicts
    }

    /// Inserts rows through statements prepared once per entity (objects written again after a
    /// conflict keep their key and take the next row version; see `RowInserts` for the keys). Text
    /// and bytes are bound where the objects hold them, without copies.
    func insertRows(_ inserts: [ManagedObject]) throws {
        for (entity, objects) in groupedByEntity(inserts) {
            let columns = entity.columns
            var rows = try RowInserts(connection, entity: entity, columns: ["_version"] + columns.map { SQL.quote($0.name) })
            // Every parameter is bound anew for each row; the bindings are cleared before the
            // objects' values could go.
            defer { rows.reset() }
            let attributeColumns = columns.enumerated().filter { $0.element.slot < entity.attributes.count }
                .map { Statement.Placement(parameter: Int32($0.offset + 2), value: $0.element.slot) }
            let foreignKeys = entity.relationships.compactMap { relationship -> (parameter: Int32, relationship: RelationshipModel, slot: Int)? in
                guard let slot = relationship.foreignKeySlot else { return nil }
                return (Int32(columns.firstIndex { $0.slot == slot }! + 2), relationship, slot)
            }
            for object in objects {
                _ = try rows.insert(key: object.key) { statement in
                    statement.bind(object.flags.contains(.inserted) ? 1 : object.rowVersion + 1, at: 1)
                    for foreignKey in foreignKeys {
                        statement.bind(context.foreignKeyValue(of: object, foreignKey.relationship, slot: foreignKey.slot), at: foreignKey.parameter)
                    }
                    try object.values.withUnsafeBufferPointer { values in
                        try statement.withBound(values, at: attributeColumns) { try statement.runKeepingBindings() }
                    }
                }
            }
        }
    }

    /// Updates changed columns and the row version, grouped by the set of changed columns so each
    /// group reuses one statement; returns the objects written and those whose rows changed or went
    /// away meanwhile.
    func updateRows(_ updates: [ManagedObject]) throws -> ([ManagedObject], [ManagedObject]) {
        var groups: [UpdateSignature: [ManagedObject]] = [:]
        var candidates: [ManagedObject] = []
        // Each object's changed slots are worked out once: they decide its group and whether it
        // gives up a unique value.
        var changingUniqueValues: [(object: ManagedObject, slots: PropertyMask)] = []
        candidates.reserveCapacity(updates.count)
        for object in updates {
            let changes = context.persistentChanges(of: object)
            if changes.slots.isEmpty && !changes.relationshipsChanged { continue }
            groups[UpdateSignature(entity: object.entityModel.number, slots: changes.slots), default: []].append(object)
            candidates.append(object)
            let unique = changes.slots.intersection(object.entityModel.uniqueSlots)
            if !unique.isEmpty { changingUniqueValues.append((object, unique)) }
        }
        try releaseUniqueValues(changingUniqueValues)
        var conflicts = Set<ObjectIdentifier>()
        let ordered = groups.sorted { lhs, rhs in
            lhs.key.entity != rhs.key.entity ? lhs.key.entity < rhs.key.entity
                : lhs.key.slots.positions.lexicographicallyPrecedes(rhs.key.slots.positions)
        }
        for (signature, objects) in ordered {
            let entity = model.entities[signature.entity]
            let slots = signature.slots.positions
            // The to-one relationship each changed slot holds the key of, if any: looked up once per
            // group. Attribute values are bound where the objects hold them, without copies.
            var foreignKeys: [(parameter: Int32, relationship: RelationshipModel, slot: Int)] = []
            var attributes: [Statement.Placement] = []
            for (offset, slot) in slots.enumerated() {
                if let relationship = entity.relationships.first(where: { $0.foreignKeySlot == slot }) {
                    foreignKeys.append((Int32(offset + 1), relationship, slot))
                } else {
                    attributes.append(Statement.Placement(parameter: Int32(offset + 1), value: slot))
                }
            }
            let assignments = slots.map { slot in "\(SQL.quote(entity.columns.first { $0.slot == slot }!.name)) = ?" }
                + ["_version = _version + 1"]
            let statement = try connection.statement(
                "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE _pk = ? AND _version = ?")
            // Every parameter is bound anew for each row; the bindings are cleared before the
            // objects' values could go.
            defer { statement.reset() }
            for object in objects {
                for foreignKey in foreignKeys {
                    statement.bind(context.foreignKeyValue(of: object, foreignKey.relationship, slot: foreignKey.slot), at: foreignKey.parameter)
                }
                statement.bind(object.key, at: Int32(slots.count + 1))
                statement.bind(object.rowVersion, at: Int32(slots.count + 2))
                try object.values.withUnsafeBufferPointer { values in
                    try statement.withBound(values, at: attributes) { try statement.runKeepingBindings() }
                }
                if connection.changes == 0 { conflicts.insert(ObjectIdentifier(object)) }
            }
        }
        guard !conflicts.isEmpty else { return (candidates, []) }
        return (candidates.filter { !conflicts.contains(ObjectIdentifier($0)) },
                candidates.filter { conflicts.contains(ObjectIdentifier($0)) })
    }

    /// Sets the changed unique columns of updated rows to NULL before the updates, so that rows may
    /// swap unique values within one save (SQLite checks unique indexes per statement, and NULLs
    /// never collide). Rows changed elsewhere are left alone: they are conflicts.
    private func releaseUniqueValues(_ changes: [(object: ManagedObject, slots: PropertyMask)]) throws {
        for (object, changed) in changes {
            let entity = object.entityModel
            let slots = changed.positions
            let assignments = slots.map { slot in "\(SQL.quote(entity.columns.first { $0.slot == slot }!.name)) = NULL" }
            try connection.run(
                "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE _pk = ? AND _version = ?",
                [.integer(object.key), .integer(object.rowVersion)])
        }
    }

    /// The entity and changed columns of an update, which decide its SQL.
    private struct UpdateSignature: Hashable {
        let entity: Int
        let slots: PropertyMask
    }

    /// Adds and removes the join rows of changed many-to-many relationships, from the side that
    /// names the table's `source` column (each change is recorded on both sides, loaded or pending).
    /// Objects in `complete` (rows written again) get a join row for every member they know of.
    func writeJoinRows(_ objects: [ManagedObject], complete: Set<ObjectIdentifier> = []) throws {
        for object in objects {
            guard let relations = object.relations else { continue }
            let isComplete = complete.contains(ObjectIdentifier(object))
            for relationship in object.entityModel.relationships {
                guard let (table, ownColumn, otherColumn) = relationship.joinTable else { continue }
                // Each change is recorded on both sides; the `source` side writes it, unless the
                // object is written again, when every member is written from its side.
                guard ownColumn == "source" || isComplete else { continue }
                let added: Set<ManagedObject>, removed: Set<ManagedObject>
                switch relations[relationship.index] {
                case .toMany(let storage):
                    let committed = isComplete ? [] : storage.committed ?? (object.flags.contains(.inserted) ? [] : storage.members)
                    (added, removed) = (storage.members.subtracting(committed), committed.subtracting(storage.members))
                case .unloadedToMany(let pending):
                    (added, removed) = (pending.added, isComplete ? [] : pending.removed)
                case .fault, .toOne:
                    continue
                }
                for removed in removed where removed.key > 0 {
                    try connection.run(
                        "DELETE FROM \(table) WHERE \(ownColumn) = ? AND \(otherColumn) = ?",
                        [.integer(object.key), .integer(removed.key)])
                }
                for added in added where !added.flags.contains(.deleted) {
                    try connection.run(
                        "INSERT OR IGNORE INTO \(table) (\(ownColumn), \(otherColumn)) VALUES (?, ?)",
                        [.integer(object.key), .integer(added.key)])
                }
            }
        }
    }

    /// A conflict of an updated or deleted object, with the row as it is now.
    func conflict(of object: ManagedObject) throws -> (conflict: MergeConflict, row: (values: ValueList, version: Int64)?) {
        let entity = object.entityModel
        let row = try context.readRow(of: entity, key: object.key, connection)
        let changedKeys = Set(object.changedProperties.positions.map(entity.propertyName(at:)))
        let conflict = MergeConflict(
            kind: .optimisticLocking, objectID: object.objectID, snapshotVersion: object.rowVersion, storeVersion: row?.version,
            objectSnapshot: ObjectSnapshot(entity: entity, values: object.committedValues ?? object.values, model: model),
            storeSnapshot: row.map { ObjectSnapshot(entity: entity, values: $0.values, model: model) },
            objectValues: ObjectSnapshot(entity: entity, values: context.persistentValues(of: object), model: model),
            changedKeys: changedKeys, deletesObject: object.flags.contains(.deleted))
        return (conflict, row)
    }

    /// The existing row (other than rows this save changes) holding an inserted object's unique
    /// values, as a unique-constraint conflict.
    func uniqueConflict(of object: ManagedObject, excluding changing: Set<RowKey>) throws
        -> (MergeConflict, (values: ValueList, version: Int64))? {
        let entity = object.entityModel
        for slots in entity.uniqueSlotSets {
            let values = slots.map { context.uniqueValue(of: object, slot: $0) }
            // NULLs never collide, and a key of an unsaved object is in no row.
            let pointsAtUnsavedObject = zip(slots, values).contains { slot, value in
                if slot >= entity.attributes.count, case .integer(let key) = value { return key <= 0 }
                return false
            }
            if pointsAtUnsavedObject || values.contains(where: \.isNull) { continue }
            let names = entity.names(ofSlots: slots)
            let condition = names.map { "t0.\(SQL.quote($0)) = ?" }.joined(separator: " AND ")
            let statement = try connection.statement("SELECT \(entity.selectList(alias: "t0")) FROM \(entity.table) AS t0 WHERE \(condition)")
            defer { statement.reset() }
            statement.bind(values)
            while try statement.step() {
                let key = statement.int64(0)
                guard !changing.contains(RowKey(entity: entity.number, key: key)) else { continue }
                let row = (values: context.readValues(statement, of: entity, firstColumn: 2), version: statement.int64(1))
                let existing = ManagedObjectID(entity: entity, key: key)
                let conflict = MergeConflict(
                    kind: .uniqueConstraint(keys: names, existingObject: existing), objectID: object.objectID,
                    snapshotVersion: 0, storeVersion: row.version, objectSnapshot: nil,
                    storeSnapshot: ObjectSnapshot(entity: entity, values: row.values, model: model),
                    objectValues: ObjectSnapshot(entity: entity, values: context.persistentValues(of: object), model: model),
                    changedKeys: Set(object.changedProperties.positions.map(entity.propertyName(at:))), deletesObject: false)
                return (conflict, row)
            }
        }
        return nil
    }

    /// The keys of the rows of `entity` whose columns `names` hold `values` (a uniqueness check).
    func keys(of entity: EntityModel, matching names: [String], _ values: [PrimitiveValue]) throws -> [Int64] {
        let condition = names.map { "\(SQL.quote($0)) = ?" }.joined(separator: " AND ")
        return try connection.integers("SELECT _pk FROM \(entity.table) WHERE \(condition)", values)
    }
}
