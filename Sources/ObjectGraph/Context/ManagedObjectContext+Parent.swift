import Foundation

/// A row of one entity: what identifies an object among all entities.
struct RowKey: Hashable {
    let entity: Int
    let key: Int64
}

/// One object's stored state as a context sees it: values (foreign keys included) and row version.
struct ObjectState {
    let values: ValueList
    let version: Int64
}

/// Child contexts: reading through the parent.
///
/// A child asks its parent for everything it does not hold itself, on the parent's queue: object
/// values, relationship members and fetch results. The parent answers from its own objects
/// (unsaved changes included) and asks its own parent, or the store, for the rest. (Saving into the
/// parent: `ManagedObjectContext+SaveIntoParent.swift`.)
extension ManagedObjectContext {
    // MARK: Reading where this context reads

    /// The states of objects by key from this context's source: its parent, or the store.
    func sourceStates(of entity: EntityModel, keys: [Int64]) throws -> [Int64: ObjectState] {
        if let parent {
            return try parent.performAndWait { try parent.states(of: entity, keys: keys) }
        }
        let stored = keys.filter { $0 > 0 }
        guard !stored.isEmpty else { return [:] }
        return try persistentStore.read { connection in try readStates(of: entity, keys: stored, connection) }
    }

    /// Rows by primary key, read without registering anything.
    func readStates(of entity: EntityModel, keys: [Int64], _ connection: SQLiteConnection) throws -> [Int64: ObjectState] {
        var states: [Int64: ObjectState] = [:]
        let statement = try connection.statement(entity.rowsByKeySQL)
        defer { statement.reset() }
        var start = 0
        while start < keys.count {
            let end = min(start + EntityModel.keyBatchSize, keys.count)
            for index in 0..<EntityModel.keyBatchSize {
                let position = start + index
                if position < end { statement.bind(keys[position], at: Int32(index + 1)) } else { statement.bindNull(at: Int32(index + 1)) }
            }
            while try statement.step() {
                states[statement.int64(0)] = ObjectState(values: readValues(statement, of: entity, firstColumn: 2), version: statement.int64(1))
            }
            statement.reset()
            start = end
        }
        return states
    }

    /// The keys a relationship of one object holds, from this context's source.
    func sourceDestinationKeys(ofKey key: Int64, _ entity: EntityModel, _ relationship: RelationshipModel) throws -> [Int64] {
        if let parent {
            return try parent.performAndWait { try parent.destinationKeys(ofKey: key, entity, relationship) }
        }
        guard key > 0 else { return [] }
        let destination = model.destination(of: relationship)
        return try persistentStore.read { connection in
            switch relationship.storage {
            case .foreignKey(let column, _):
                return try connection.integers(
                    "SELECT \(SQL.quote(column)) FROM \(entity.table) WHERE _pk = ? AND \(SQL.quote(column)) IS NOT NULL", [.integer(key)])
            case .inverseForeignKey(let column):
                return try connection.integers(
                    "SELECT _pk FROM \(destination.table) WHERE \(SQL.quote(column)) = ? ORDER BY _pk", [.integer(key)])
            case .joinTable(let table, let ownColumn, let otherColumn):
                return try connection.integers("SELECT \(otherColumn) FROM \(table) WHERE \(ownColumn) = ?", [.integer(key)])
            }
        }
    }

    // MARK: Answering a child (on this context's queue)

    /// The object registered for a key, following a temporary key to the permanent key it became.
    private func heldObject(forKey key: Int64, of entity: EntityModel) -> ManagedObject? {
        if let object = registeredObject(forKey: key, of: entity) { return object }
        return temporaryKeys.permanentKey(for: key).flatMap { registered[entity.number][$0] }
    }

    /// Objects as this context sees them: its loaded objects with their unsaved changes, the rest
    /// from its source. Objects it deleted, or could not load, are missing.
    func states(of entity: EntityModel, keys: [Int64]) throws -> [Int64: ObjectState] {
        adoptPermanentIDsIfNeeded()
        var states: [Int64: ObjectState] = [:]
        var missing: [Int64: Int64] = [:]
        for key in keys {
            if let object = heldObject(forKey: key, of: entity) {
                if object.flags.contains(.deleted) || object.flags.contains(.inaccessible) { continue }
                if !object.flags.contains(.fault) {
                    states[key] = ObjectState(values: persistentValues(of: object), version: object.rowVersion)
                    continue
                }
                missing[object.key] = key
            } else {
                missing[temporaryKeys.permanentKey(for: key) ?? key] = key
            }
        }
        if !missing.isEmpty {
            for (key, state) in try sourceStates(of: entity, keys: Array(missing.keys)) {
                if let asked = missing[key] { states[asked] = state }
            }
        }
        return states
    }

    /// The keys a relationship of one object holds as this context sees it.
    func destinationKeys(ofKey key: Int64, _ entity: EntityModel, _ relationship: RelationshipModel) throws -> [Int64] {
        adoptPermanentIDsIfNeeded()
        let destination = model.destination(of: relationship)
        var pending: PendingMembers?
        if let object = heldObject(forKey: key, of: entity) {
            if object.flags.contains(.deleted) { return [] }
            switch state(of: object, relationship) {
            case .toOne(let target)?:
                return target.map { $0.flags.contains(.deleted) ? [] : [$0.key] } ?? []
            case .toMany(let storage)?:
                return storage.members.filter { !$0.flags.contains(.deleted) }.map(\.key).sorted()
            case .unloadedToMany(let changes)?:
                pending = changes
            case .fault?, nil:
                break
            }
            if object.flags.contains(.inserted) { return [] }
            if let slot = relationship.foreignKeySlot, !object.flags.contains(.fault) {
                if case .integer(let target) = object.values[slot] { return [target] }
                return []
            }
        }
        // A relationship changed here is loaded here or holds its pending changes; deletions of
        // its members remain to be taken out.
        let stored = try sourceDestinationKeys(ofKey: heldObject(forKey: key, of: entity)?.key ?? key, entity, relationship)
            .filter { registeredObject(forKey: $0, of: destination)?.flags.contains(.deleted) != true }
        guard let pending else { return stored }
        var keys = Set(stored).subtracting(pending.removed.lazy.map(\.key))
        for member in pending.added where !member.flags.contains(.deleted) { keys.insert(member.key) }
        return keys.sorted()
    }

    /// The keys of a fetch as this context sees it, its unsaved changes included.
    func keys(forChild plan: FetchPlan) throws -> [Int64] {
        adoptPermanentIDsIfNeeded()
        return try entries(plan, pendingChanges(of: plan.entity)).map(\.key)
    }

    /// The number of objects a fetch finds as this context sees it.
    func count(forChild plan: FetchPlan) throws -> Int {
        adoptPermanentIDsIfNeeded()
        return try count(plan)
    }

    /// Whether this context or one of its ancestors holds an object with this (temporary) key.
    func holdsObject(forKey key: Int64, of entity: EntityModel) throws -> Bool {
        adoptPermanentIDsIfNeeded()
        if let object = heldObject(forKey: key, of: entity) { return !object.flags.contains(.deleted) }
        guard let parent else { return false }
        return try parent.performAndWait { try parent.holdsObject(forKey: key, of: entity) }
    }
}
