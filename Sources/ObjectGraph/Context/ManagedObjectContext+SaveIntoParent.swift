import Foundation

/// A child context's save: its changes pushed into the parent's objects as if the parent's own
/// code had made them, so that the parent's save later writes them (and its observers see them at
/// once). A child's save is checked against its parent like a save against the store: an object the
/// parent changed since the child read it is a conflict for the child's merge policy.
extension ManagedObjectContext {
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
        /// The pending changes of each changed to-many the child did not load, by relationship index.
        let pendingMembers: [(index: Int, added: [Int64], removed: [Int64])]
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
            settlePendingMembers(of: object)
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
        var pendingMembers: [(index: Int, added: [Int64], removed: [Int64])] = []
        if !object.flags.contains(.deleted) {
            for relationship in entity.relationships
            where object.changedProperties.contains(entity.attributes.count + relationship.index) {
                switch state(of: object, relationship) {
                case .toOne(let target)?:
                    relationships.append((relationship.index, target.map { [$0.key] } ?? []))
                case .toMany(let storage)?:
                    relationships.append((relationship.index, storage.members.filter { !$0.flags.contains(.deleted) }.map(\.key)))
                case .unloadedToMany(let pending)?:
                    pendingMembers.append((
                        relationship.index, pending.added.filter { !$0.flags.contains(.deleted) }.map(\.key), pending.removed.map(\.key)))
                case .fault?, nil:
                    break
                }
            }
        }
        let inserted = object.flags.contains(.inserted)
        return PushedObject(
            entity: entity, key: object.key, values: persistentValues(of: object),
            snapshot: inserted ? nil : object.committedValues ?? object.values, version: object.rowVersion,
            changed: object.changedProperties, relationships: relationships, pendingMembers: pendingMembers,
            isDeleted: object.flags.contains(.deleted))
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
            for (index, added, removed) in item.pendingMembers {
                let relationship = item.entity.relationships[index]
                let destination = model.destination(of: relationship)
                try changeOneSide(
                    of: object, relationship, adding: added.map { self.object(forKey: $0, of: destination) },
                    removing: removed.map { self.object(forKey: $0, of: destination) })
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
