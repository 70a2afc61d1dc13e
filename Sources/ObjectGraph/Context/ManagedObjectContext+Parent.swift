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

/// Child contexts: reading through the parent, and saving into it.
///
/// A child asks its parent for everything it does not hold itself, on the parent's queue: object
/// values, relationship members and fetch results. The parent answers from its own objects
/// (unsaved changes included) and asks its own parent, or the store, for the rest. A save pushes
/// the child's changes into the parent's objects as if the parent's own code had made them, so the
/// parent's save later writes them (and its observers see them at once).
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
        if let object = heldObject(forKey: key, of: entity) {
            if object.flags.contains(.deleted) { return [] }
            switch state(of: object, relationship) {
            case .toOne(let target)?:
                return target.map { $0.flags.contains(.deleted) ? [] : [$0.key] } ?? []
            case .toMany(let storage)?:
                return storage.members.filter { !$0.flags.contains(.deleted) }.map(\.key).sorted()
            default:
                break
            }
            if object.flags.contains(.inserted) { return [] }
            if let slot = relationship.foreignKeySlot, !object.flags.contains(.fault) {
                if case .integer(let target) = object.values[slot] { return [target] }
                return []
            }
        }
        // By the invariant of relationship changes, a relationship changed here is loaded here;
        // only deletions of its members remain to be taken out.
        return try sourceDestinationKeys(ofKey: heldObject(forKey: key, of: entity)?.key ?? key, entity, relationship)
            .filter { registeredObject(forKey: $0, of: destination)?.flags.contains(.deleted) != true }
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

    // MARK: Saving into the parent

    /// One object of a child's save, as plain values the parent can apply on its own queue.
    struct PushedObject {
        let entity: EntityModel
        let key: Int64
        /// The child's values, foreign keys included.
        let values: ValueList
        /// The values the child read (nil for an inserted object).
        let snapshot: ValueList?
        let version: Int64
        /// The properties the child changed.
        let changed: PropertyMask
        /// The keys each changed relationship now holds, by relationship index.
        let relationships: [(index: Int, keys: [Int64])]
        let isDeleted: Bool

        var rowKey: RowKey { RowKey(entity: entity.number, key: key) }
    }

    /// What the parent decided for a child's object in conflict.
    struct PushResolution {
        let conflict: MergeConflict
        let outcome: ConflictOutcome
        /// The parent's state of the object before the push (nil when the parent has no such object).
        let parentState: ObjectState?
    }

    func saveIntoParent(
        inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject], changes: ChangeSet
    ) throws -> (ChangeSet, ObjectsDidChange) {
        guard let parent else { preconditionFailure("saveIntoParent needs a parent") }
        let pushed = (inserts + updates + deletes).map(pushedObject)
        var changes = changes
        let policy = mergePolicy
        let resolutions = try parent.performAndWait { try parent.receive(pushed, policy: policy, from: self, changes: &changes) }

        var resolution = ObjectsDidChange()
        for object in inserts {
            object.flags.remove(.inserted)
            if object.key > 0 { registered[object.entityModel.number][object.key] = object } else { ancestorObjects[object.key] = object }
        }
        for object in updates {
            if let resolved = resolutions[RowKey(entity: object.entityModel.number, key: object.key)] {
                switch resolved.outcome {
                case .write(let target):
                    let differing = Self.slotsDiffering(persistentValues(of: object), target, in: object.entityModel)
                    object.values = target
                    if !differing.isEmpty {
                        object.relations = nil
                        resolution.refreshed.append(UpdatedObject(
                            objectID: object.objectID, changedKeys: ChangedKeys(entity: object.entityModel, mask: differing)))
                    }
                case .takeStore:
                    if let state = resolved.parentState {
                        resolution.refreshed.append(UpdatedObject(
                            objectID: object.objectID,
                            changedKeys: ChangedKeys(entity: object.entityModel, mask: Self.slotsDiffering(persistentValues(of: object), state.values, in: object.entityModel))))
                        object.values = state.values
                        object.rowVersion = state.version
                        object.relations = nil
                    } else {
                        unregister(object)
                        object.flags.insert(.deleted)
                        object.context = nil
                        resolution.deleted.append(object.objectID)
                    }
                case .delete:
                    break
                }
            }
            object.flags.remove(.updated)
            object.committedValues = nil
            object.changedProperties.removeAll()
        }
        for object in deletes {
            unregister(object)
            object.flags.remove(.listedAsDeleted)
            object.context = nil
        }
        for object in pendingInserts where object.flags.contains(.inserted) && object.flags.contains(.deleted) {
            object.flags.remove([.inserted, .listedAsDeleted])
            object.context = nil
        }
        for object in pendingUpdates where object.flags.contains(.updated) && object.context === self {
            object.flags.remove(.updated)
            object.committedValues = nil
            object.changedProperties.removeAll()
        }
        clearPendingChanges()
        return (changes, resolution)
    }

    private func unregister(_ object: ManagedObject) {
        if object.key > 0 { registered[object.entityModel.number][object.key] = nil } else { ancestorObjects[object.key] = nil }
    }

    private func pushedObject(_ object: ManagedObject) -> PushedObject {
        let entity = object.entityModel
        var relationships: [(index: Int, keys: [Int64])] = []
        if !object.flags.contains(.deleted) {
            for relationship in entity.relationships
            where object.changedProperties.contains(entity.attributes.count + relationship.index) {
                switch state(of: object, relationship) {
                case .toOne(let target)?:
                    relationships.append((relationship.index, target.map { [$0.key] } ?? []))
                case .toMany(let storage)?:
                    relationships.append((relationship.index, storage.members.filter { !$0.flags.contains(.deleted) }.map(\.key)))
                default:
                    break
                }
            }
        }
        let inserted = object.flags.contains(.inserted)
        return PushedObject(
            entity: entity, key: object.key, values: persistentValues(of: object),
            snapshot: inserted ? nil : object.committedValues ?? object.values, version: object.rowVersion,
            changed: object.changedProperties, relationships: relationships, isDeleted: object.flags.contains(.deleted))
    }

    /// Applies a child's save to this context's objects (on this context's queue). Conflicts are
    /// objects this context changed (or deleted) since the child read them; `policy` (the
    /// child's) decides them, and under `.error` nothing is applied.
    private func receive(
        _ pushed: [PushedObject], policy: MergePolicy, from child: ManagedObjectContext, changes: inout ChangeSet
    ) throws -> [RowKey: PushResolution] {
        adoptPermanentIDsIfNeeded()
        var resolutions: [RowKey: PushResolution] = [:]
        var conflicts: [MergeConflict] = []
        var objects: [RowKey: ManagedObject] = [:]
        for item in pushed where item.snapshot != nil {
            let object = object(forKey: item.key, of: item.entity)
            if object.flags.contains(.fault) { fulfillFaultForAccess(of: object) }
            objects[item.rowKey] = object
            let gone = object.flags.contains(.deleted) || object.flags.contains(.inaccessible)
            let current = gone ? nil : persistentValues(of: object)
            if let current, let snapshot = item.snapshot, Self.slotsDiffering(snapshot, current, in: item.entity).isEmpty { continue }
            let changedKeys = Set(item.changed.positions.map(item.entity.propertyName(at:)))
            let conflict = MergeConflict(
                kind: .optimisticLocking, objectID: ManagedObjectID(entity: item.entity, key: item.key),
                snapshotVersion: item.version, storeVersion: current == nil ? nil : object.rowVersion,
                objectSnapshot: item.snapshot.map { ObjectSnapshot(entity: item.entity, values: $0, model: model) },
                storeSnapshot: current.map { ObjectSnapshot(entity: item.entity, values: $0, model: model) },
                objectValues: ObjectSnapshot(entity: item.entity, values: item.values, model: model),
                changedKeys: changedKeys, deletesObject: item.isDeleted)
            conflicts.append(conflict)
            guard let resolution = try policy.resolution(for: conflict) else { continue }
            var changedSlots = PropertyMask()
            item.changed.forEach { position in
                if position < item.entity.attributes.count {
                    changedSlots.insert(position)
                } else if let slot = item.entity.relationships[position - item.entity.attributes.count].foreignKeySlot {
                    changedSlots.insert(slot)
                }
            }
            let outcome = try ConflictOutcome.of(
                resolution, entity: item.entity, current: item.values, snapshot: item.snapshot, store: current,
                changed: changedSlots, deletesObject: item.isDeleted)
            resolutions[item.rowKey] = PushResolution(
                conflict: conflict, outcome: outcome, parentState: current.map { ObjectState(values: $0, version: object.rowVersion) })
        }
        if policy.isError && !conflicts.isEmpty { throw ObjectGraphError.mergeConflicts(conflicts) }
        changes.resolvedConflicts = conflicts

        // Inserted objects first, so that relationships can point at them.
        for item in pushed where item.snapshot == nil && !item.isDeleted {
            let object = item.entity.objectClass.init(ObjectInitialization(inserting: item.entity))
            object.context = self
            object.key = item.key
            for (index, attribute) in item.entity.attributes.enumerated() {
                object.values[index] = item.values[index]
                if !attribute.isTransient, item.changed.contains(index) { object.changedProperties.insert(index) }
            }
            object.flags.insert(.inserted)
            if item.key > 0 { registered[item.entity.number][item.key] = object }
            pendingInserts.append(object)
            objects[item.rowKey] = object
            changes.inserted.append(object.objectID)
            changes.insertedTemporaryIDs.append(object.objectID)
        }
        scheduleChangeNotification()

        for item in pushed where !item.isDeleted {
            guard let object = objects[item.rowKey] else { continue }
            let isInsert = item.snapshot == nil
            var values = item.values
            var changedPositions = item.changed
            var relationships = item.relationships
            if let resolved = resolutions[item.rowKey] {
                switch resolved.outcome {
                case .write(let target):
                    if object.flags.contains(.deleted) { undelete(object) }
                    values = target
                    changedPositions = Self.slotsDiffering(persistentValues(of: object), target, in: item.entity)
                    changedPositions.formUnion(item.changed)
                case .takeStore, .delete:
                    continue
                }
            }
            if isInsert {
                // Attributes were set when the object was made; relationships remain.
            } else {
                changedPositions.forEach { position in
                    guard position < item.entity.attributes.count else { return }
                    object.setPrimitiveValue(values[position], at: position)
                }
            }
            // Foreign keys a resolution took from elsewhere become relationship changes too.
            for relationship in item.entity.relationships where changedPositions.contains(item.entity.attributes.count + relationship.index) {
                guard !relationships.contains(where: { $0.index == relationship.index }), let slot = relationship.foreignKeySlot else { continue }
                if case .integer(let key) = values[slot] { relationships.append((relationship.index, [key])) } else { relationships.append((relationship.index, [])) }
            }
            for (index, keys) in relationships {
                let relationship = item.entity.relationships[index]
                let destination = model.destination(of: relationship)
                let targets = keys.map { self.object(forKey: $0, of: destination) }
                if relationship.isToMany {
                    try setMembers(Set(targets), of: object, relationship)
                } else {
                    try setDestination(targets.first, of: object, relationship)
                }
            }
            if !isInsert {
                changes.updated.append(object.objectID)
                changes.updatedProperties.append(changedPositions)
            }
        }
        for item in pushed where item.isDeleted {
            guard let object = objects[item.rowKey] else { continue }
            if !object.flags.contains(.deleted) { delete(object) }
            changes.deleted.append(object.objectID)
        }
        processPendingChanges()
        forwardToMergingChildren(changes, except: child)
        return resolutions
    }

    /// Takes back a pending delete of an object (a child's change to it won under its policy).
    private func undelete(_ object: ManagedObject) {
        object.flags.remove([.deleted, .listedAsDeleted])
        pendingDeletes.removeAll { $0 === object }
        announcedDeletes = min(announcedDeletes, pendingDeletes.count)
    }
}
