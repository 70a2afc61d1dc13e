import Foundation

/// Faults fetched together, which load together: reading one member's property loads the rows of
/// every member that is still a fault, in one query (batch faulting).
final class FaultGroup {
    let entity: EntityModel
    let keys: [Int64]
    /// Relationship key paths to prefetch for the members when they load.
    let prefetch: [[String]]

    init(entity: EntityModel, keys: [Int64], prefetch: [[String]]) {
        self.entity = entity
        self.keys = keys
        self.prefetch = prefetch
    }
}

extension ManagedObject {
    /// Why the object is inaccessible (see ``isInaccessible``) or a relationship read by a typed
    /// property came back empty, if that happened.
    public final var faultError: (any Error)? {
        if case .failure(let error)? = companion { return error }
        return nil
    }
}

extension ManagedObjectContext {
    /// Loads a fault's row (with the rest of its fault group), throwing when it no longer exists.
    func fulfillFault(of object: ManagedObject) throws {
        if object.flags.contains(.inaccessible) {
            throw object.faultError ?? ObjectGraphError.objectNotFound(object.objectID)
        }
        guard object.flags.contains(.fault) else { return }
        let entity = object.entityModel
        if let group = object.faultGroup {
            let keys = group.keys.filter { registered[entity.number][$0]?.flags.contains(.fault) == true }
            let loaded = try loadRows(of: entity, keys: keys)
            for key in group.keys { registered[entity.number][key]?.faultGroup = nil }
            if !group.prefetch.isEmpty { try prefetch(group.prefetch, for: loaded, of: entity) }
        } else {
            _ = try loadRows(of: entity, keys: [object.key])
        }
        if object.flags.contains(.fault) { throw ObjectGraphError.objectNotFound(object.objectID) }
    }

    /// Fires a fault for a typed property read, which cannot throw: an object whose row is gone
    /// becomes inaccessible and reads as its defaults (see ``shouldDeleteInaccessibleFaults``).
    func fulfillFaultForAccess(of object: ManagedObject) {
        do {
            try fulfillFault(of: object)
        } catch {
            guard shouldDeleteInaccessibleFaults else {
                preconditionFailure("ObjectGraph could not fulfill a fault: \(error)")
            }
            guard object.flags.contains(.fault) else { return }
            object.values = object.entityModel.defaultValues
            object.flags.remove(.fault)
            object.flags.insert(.inaccessible)
            object.companion = .failure(error)
        }
    }

    /// Loads rows by primary key: registered faults are filled, unregistered rows registered.
    /// Returns the objects found, in no particular order.
    @discardableResult
    func loadRows(of entity: EntityModel, keys: [Int64]) throws -> [ManagedObject] {
        guard !keys.isEmpty else { return [] }
        if parent != nil {
            let states = try sourceStates(of: entity, keys: keys)
            return keys.compactMap { key in states[key].map { register($0, key: key, of: entity) } }
        }
        var loaded: [ManagedObject] = []
        loaded.reserveCapacity(keys.count)
        try persistentStore.read { connection in
            let statement = try connection.statement(entity.rowsByKeySQL)
            defer { statement.reset() }
            var start = 0
            while start < keys.count {
                let end = min(start + EntityModel.keyBatchSize, keys.count)
                for index in 0..<EntityModel.keyBatchSize {
                    let position = start + index
                    if position < end { statement.bind(keys[position], at: Int32(index + 1)) } else { statement.bindNull(at: Int32(index + 1)) }
                }
                while try statement.step() { loaded.append(registerRow(statement, of: entity)) }
                statement.reset()
                start = end
            }
        }
        return loaded
    }

    /// The object for a state read through the parent: the registered object, filled if it was a
    /// fault, or a new registered one.
    private func register(_ state: ObjectState, key: Int64, of entity: EntityModel) -> ManagedObject {
        if let existing = registeredObject(forKey: key, of: entity) {
            if existing.flags.contains(.fault) {
                existing.values = state.values
                existing.rowVersion = state.version
                existing.flags.remove(.fault)
                existing.faultGroup = nil
            }
            return existing
        }
        let object = entity.objectClass.init(ObjectInitialization(entity: entity, key: key, values: state.values, rowVersion: state.version))
        object.context = self
        if key > 0 { registered[entity.number][key] = object } else { ancestorObjects[key] = object }
        return object
    }

    /// Reads one row (for a child context, the parent's state of the object) without registering anything.
    func readRow(of entity: EntityModel, key: Int64) throws -> (values: ValueList, version: Int64)? {
        if parent != nil {
            return try sourceStates(of: entity, keys: [key])[key].map { ($0.values, $0.version) }
        }
        return try persistentStore.read { connection in try readRow(of: entity, key: key, connection) }
    }

    /// Reads one row on a connection already in use (inside a write, say).
    func readRow(of entity: EntityModel, key: Int64, _ connection: SQLiteConnection) throws -> (values: ValueList, version: Int64)? {
        let statement = try connection.statement(entity.rowsByKeySQL)
        defer { statement.reset() }
        statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        return (readValues(statement, of: entity, firstColumn: 2), statement.int64(1))
    }

    /// The object for the row under the statement's cursor (columns `_pk`, `_version`, then the
    /// entity's columns, from `firstColumn`): the registered object, filled if it was a fault, or a
    /// new registered one. Objects already loaded keep their values unless `refreshing` is set and
    /// they have no changes.
    @inline(__always)
    func registerRow(_ statement: Statement, of entity: EntityModel, firstColumn: Int32 = 0, refreshing: Bool = false) -> ManagedObject {
        if let existing = registeredObject(forRow: statement, of: entity, firstColumn: firstColumn, refreshing: refreshing) {
            return existing
        }
        let object = makeObject(forRow: statement, of: entity, firstColumn: firstColumn)
        registered[entity.number][object.key] = object
        return object
    }

    /// The registered object for the row, filled if it was a fault (see `registerRow`); nil when the
    /// row has no object yet.
    @inline(__always)
    func registeredObject(forRow statement: Statement, of entity: EntityModel, firstColumn: Int32, refreshing: Bool) -> ManagedObject? {
        guard let existing = registered[entity.number][statement.int64(firstColumn)] else { return nil }
        if existing.flags.contains(.fault) || (refreshing && !existing.hasChanges) {
            existing.values = readValues(statement, of: entity, firstColumn: firstColumn + 2)
            existing.rowVersion = statement.int64(firstColumn + 1)
            existing.flags.remove(.fault)
            existing.faultGroup = nil
            if refreshing { existing.relations = nil }
        }
        return existing
    }

    /// A new object for the row, not yet registered.
    @inline(__always)
    func makeObject(forRow statement: Statement, of entity: EntityModel, firstColumn: Int32) -> ManagedObject {
        let object = entity.objectClass.init(ObjectInitialization(
            entity: entity, key: statement.int64(firstColumn),
            values: readValues(statement, of: entity, firstColumn: firstColumn + 2),
            rowVersion: statement.int64(firstColumn + 1)))
        object.context = self
        return object
    }

    /// An object's values from a row: stored columns by index, transients at their defaults. Each
    /// slot is written once, into a buffer of the exact size.
    @inline(__always)
    func readValues(_ statement: Statement, of entity: EntityModel, firstColumn: Int32) -> ValueList {
        ValueList(count: entity.valueCount) { elements in
            for (slot, read) in entity.slotReads.enumerated() {
                let value = read.column >= 0 ? statement.value(firstColumn + read.column, as: read.type) : entity.defaultValues[slot]
                (elements + slot).initialize(to: value)
            }
        }
    }

    // MARK: Prefetching

    /// Loads the relationships named by `paths` (each a chain of relationship names) for `objects`,
    /// a few queries per relationship instead of one per object.
    func prefetch(_ paths: [[String]], for objects: [ManagedObject], of entity: EntityModel) throws {
        guard !objects.isEmpty else { return }
        if parent != nil {
            // A child asks its parent per object; the parent answers from memory or in one query each.
            for (name, paths) in Dictionary(grouping: paths.filter { !$0.isEmpty }, by: { $0[0] }) {
                guard let index = entity.relationshipIndex[name] else {
                    throw ObjectGraphError.invalidKeyPath(
                        entity: entity.name, keyPath: name, reason: "relationshipKeyPathsForPrefetching names no relationship")
                }
                let relationship = entity.relationships[index]
                var targets: [ManagedObject] = []
                for object in objects {
                    switch try loadedState(of: object, relationship) {
                    case .toOne(let target): if let target { targets.append(target) }
                    case .toMany(let storage): targets += storage.members
                    case .fault, .unloadedToMany: break
                    }
                }
                let rest = paths.map { Array($0.dropFirst()) }.filter { !$0.isEmpty }
                if !rest.isEmpty { try prefetch(rest, for: targets, of: model.destination(of: relationship)) }
            }
            return
        }
        let byFirst = Dictionary(grouping: paths.filter { !$0.isEmpty }, by: { $0[0] })
        for (name, paths) in byFirst {
            guard let index = entity.relationshipIndex[name] else {
                throw ObjectGraphError.invalidKeyPath(
                    entity: entity.name, keyPath: name, reason: "relationshipKeyPathsForPrefetching names no relationship")
            }
            let relationship = entity.relationships[index]
            let destinationEntity = model.destination(of: relationship)
            let targets = try prefetch(relationship, of: entity, for: objects)
            let rest = paths.map { Array($0.dropFirst()) }.filter { !$0.isEmpty }
            if !rest.isEmpty { try prefetch(rest, for: targets, of: destinationEntity) }
        }
    }

    /// Loads one relationship of `objects` and returns every destination object.
    private func prefetch(_ relationship: RelationshipModel, of entity: EntityModel, for objects: [ManagedObject]) throws -> [ManagedObject] {
        let destination = model.destination(of: relationship)
        let owners = objects.filter { $0.key > 0 && !$0.flags.contains(.fault) && state(of: $0, relationship) == nil }
        switch relationship.storage {
        case .foreignKey(_, let slot):
            var keys: [Int64] = []
            for owner in objects where !owner.flags.contains(.fault) {
                if case .integer(let key) = owner.values[slot] { keys.append(key) }
            }
            let unloaded = keys.filter { registered[destination.number][$0]?.flags.contains(.fault) ?? true }
            try loadRows(of: destination, keys: Array(Set(unloaded)))
            return keys.compactMap { registered[destination.number][$0] }

        case .inverseForeignKey(let column):
            guard !owners.isEmpty else { return [] }
            var members: [Int64: [ManagedObject]] = [:]
            let inverseSlot = model.inverse(of: relationship).foreignKeySlot!
            try forEachRow(
                of: destination, sql: "SELECT \(destination.selectList(alias: "t0")) FROM \(destination.table) AS t0 WHERE t0.\(SQL.quote(column)) IN",
                keys: owners.map(\.key)
            ) { _, object in
                if case .integer(let ownerKey) = object.values[inverseSlot] { members[ownerKey, default: []].append(object) }
            }
            for owner in owners {
                let found = members[owner.key] ?? []
                setLoadedState(of: owner, relationship, members: found)
            }
            return members.values.flatMap { $0 }

        case .joinTable(let table, let ownColumn, let otherColumn):
            guard !owners.isEmpty else { return [] }
            var members: [Int64: [ManagedObject]] = [:]
            try forEachRow(
                of: destination,
                sql: "SELECT j.\(ownColumn), \(destination.selectList(alias: "t0")) FROM \(table) AS j JOIN \(destination.table) AS t0 ON t0._pk = j.\(otherColumn) WHERE j.\(ownColumn) IN",
                keys: owners.map(\.key), firstColumn: 1
            ) { statement, object in
                members[statement.int64(0), default: []].append(object)
            }
            for owner in owners { setLoadedState(of: owner, relationship, members: members[owner.key] ?? []) }
            return members.values.flatMap { $0 }
        }
    }

    /// Runs `sql` (ending in `IN`) for keys in batches, registering each row's object.
    private func forEachRow(
        of entity: EntityModel, sql: String, keys: [Int64], firstColumn: Int32 = 0,
        _ body: (Statement, ManagedObject) -> Void
    ) throws {
        try persistentStore.read { connection in
            var start = 0
            while start < keys.count {
                let batch = keys[start..<min(start + EntityModel.keyBatchSize, keys.count)]
                let statement = try connection.statement(sql + " (" + Array(repeating: "?", count: batch.count).joined(separator: ", ") + ")")
                defer { statement.reset() }
                for (offset, key) in batch.enumerated() { statement.bind(key, at: Int32(offset + 1)) }
                while try statement.step() { body(statement, registerRow(statement, of: entity, firstColumn: firstColumn)) }
                start += batch.count
            }
        }
    }

    /// Records a relationship loaded by prefetching, unless it was loaded or changed meanwhile.
    private func setLoadedState(of owner: ManagedObject, _ relationship: RelationshipModel, members: [ManagedObject]) {
        guard state(of: owner, relationship) == nil else { return }
        if owner.relations == nil {
            owner.relations = ContiguousArray(repeating: .fault, count: owner.entityModel.relationships.count)
        }
        owner.relations![relationship.index] = relationship.isToMany
            ? .toMany(ToManyStorage(Set(members))) : .toOne(members.first)
    }

    /// The loaded state of a relationship, or nil while it is a fault.
    func state(of object: ManagedObject, _ relationship: RelationshipModel) -> RelationshipState? {
        guard let relations = object.relations, case let state = relations[relationship.index] else { return nil }
        if case .fault = state { return nil }
        return state
    }
}
