import Foundation

/// Merging changes made elsewhere: other contexts' saves, batch operations, other processes'
/// transactions.
extension ManagedObjectContext {
    /// Brings the context up to date with changes saved elsewhere (another context's save, a batch
    /// operation's result, a run of history transactions) and tells observers in one
    /// `objectsDidChange`.
    ///
    /// Registered objects without changes that were updated become faults (in groups, so touching
    /// them loads them a batch at a time); those deleted leave the context. Objects the context has
    /// changed are left as they are, with the snapshot they were read at: their next save meets the
    /// change as a conflict, which ``mergePolicy`` resolves. Relationships loaded on other objects
    /// that the changes may affect load again when next used.
    ///
    /// Every ID in `changes` is reported (registered or not), so that an observer that lists IDs
    /// (a fetched-results controller) sees each change.
    public func mergeChanges(fromContextDidSave changes: ChangeSet) {
        checkAccess()
        processPendingChanges()
        adoptPermanentIDsIfNeeded()
        var change = ObjectsDidChange()
        var known = Set<ManagedObjectID>()
        for (temporary, permanent) in changes.permanentIDs {
            guard let entity = localEntity(of: temporary), let object = ancestorObjects.removeValue(forKey: temporary.key) else { continue }
            object.key = permanent.key
            if let fault = registered[entity.number][permanent.key], fault !== object { fault.context = nil }
            registered[entity.number][permanent.key] = object
            unannouncedPermanentIDs[ManagedObjectID(entity: entity, key: temporary.key)] = ManagedObjectID(entity: entity, key: permanent.key)
        }
        for (temporary, permanent) in unannouncedPermanentIDs {
            known.insert(permanent)
            known.insert(temporary)
        }
        change.permanentIDs = unannouncedPermanentIDs
        unannouncedPermanentIDs = [:]
        change.savedValues = changes.savedValues

        var touched = Set<Int>()
        var refaulted: [Int: [ManagedObject]] = [:]
        for objectID in changes.inserted {
            guard let entity = localEntity(of: objectID) else { continue }
            let local = ManagedObjectID(entity: entity, key: objectID.key)
            guard !known.contains(local) else { continue }
            touched.insert(entity.number)
            change.inserted.append(local)
        }
        for (objectID, mask) in zip(changes.updated, changes.updatedProperties) {
            guard let entity = localEntity(of: objectID) else { continue }
            let keys = entity === objectID.entity ? ChangedKeys(entity: entity, mask: mask)
                : ChangedKeys(entity: entity, names: ChangedKeys(entity: objectID.entity, mask: mask))
            if let object = registeredObject(forKey: objectID.key, of: entity) {
                if object.hasChanges {
                    if !object.flags.contains(.inserted) { mergedOverChanges.append(object) }
                    continue
                }
                if !object.flags.contains(.fault) || object.flags.contains(.inaccessible) {
                    turnIntoFault(object)
                    refaulted[entity.number, default: []].append(object)
                }
            }
            if entity.relationships.contains(where: { keys.contains($0.name) }) { touched.insert(entity.number) }
            change.refreshed.append(UpdatedObject(objectID: ManagedObjectID(entity: entity, key: objectID.key), changedKeys: keys))
        }
        for objectID in changes.deleted {
            guard let entity = localEntity(of: objectID) else { continue }
            if let object = registeredObject(forKey: objectID.key, of: entity) {
                if object.flags.contains(.inserted) { continue }
                if object.flags.contains(.updated) && !object.flags.contains(.deleted) {
                    mergedOverChanges.append(object)
                    continue
                }
                if object.key > 0 { registered[entity.number][object.key] = nil } else { ancestorObjects[object.key] = nil }
                // A pending delete of a row deleted elsewhere is done.
                object.flags.remove([.listedAsDeleted, .updated])
                object.flags.insert(.deleted)
                object.context = nil
            }
            touched.insert(entity.number)
            change.deleted.append(ManagedObjectID(entity: entity, key: objectID.key))
        }
        pendingDeletes.removeAll { $0.context !== self }
        announcedDeletes = min(announcedDeletes, pendingDeletes.count)

        for (number, objects) in refaulted { groupFaults(objects, of: model.entities[number]) }
        invalidateRelationships(into: touched)
        post(change)
        forwardToMergingChildren(changes, except: nil)
    }

    /// Merges a save made where ObjectGraph's contexts could not see it (a batch operation, another
    /// program's writes) into each context, on each context's queue, waiting for each.
    ///
    ///     let result = try background.execute(update)               // a batch update
    ///     ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [viewContext])
    public static func mergeChanges(fromRemoteContextSave changes: ChangeSet, into contexts: [ManagedObjectContext]) {
        for context in contexts {
            context.performAndWait { context.mergeChanges(fromContextDidSave: changes) }
        }
    }

    /// Turns every registered object without changes into a fault and tells observers to fetch
    /// again (`invalidatedAll`): for when what changed is not known, such as history that was
    /// deleted before it was merged.
    public func refreshAllObjects() {
        checkAccess()
        processPendingChanges()
        for map in registered {
            let objects = map.values.filter { !$0.hasChanges && (!$0.flags.contains(.fault) || $0.flags.contains(.inaccessible)) }
            guard let entity = objects.first?.entityModel else { continue }
            for object in objects { turnIntoFault(object) }
            groupFaults(objects, of: entity)
        }
        var change = ObjectsDidChange()
        change.invalidatedAll = true
        post(change)
        forwardRefreshToMergingChildren()
    }

    /// Puts refaulted objects into fault groups, so that reading one loads its group in one query.
    private func groupFaults(_ objects: [ManagedObject], of entity: EntityModel) {
        let keys = objects.map(\.key).filter { $0 > 0 }
        for start in stride(from: 0, to: keys.count, by: EntityModel.keyBatchSize) {
            let group = FaultGroup(entity: entity, keys: Array(keys[start..<min(start + EntityModel.keyBatchSize, keys.count)]), prefetch: [])
            for key in group.keys { registered[entity.number][key]?.faultGroup = group }
        }
    }

    /// Turns loaded relationships into faults where merged changes of objects of `entities` may
    /// have changed their members: to-manys and inverse to-ones (those without a key column) of
    /// registered objects that have not changed them.
    private func invalidateRelationships(into entities: Set<Int>) {
        guard !entities.isEmpty else { return }
        for entity in model.entities {
            let affected = entity.relationships.filter { $0.foreignKeySlot == nil && entities.contains($0.destination) }
            guard !affected.isEmpty else { continue }
            for object in registered[entity.number].values where object.relations != nil {
                for relationship in affected
                where !object.changedProperties.contains(entity.attributes.count + relationship.index) {
                    object.relations![relationship.index] = .fault
                }
            }
        }
    }

    /// Hands a save or merge to the child contexts that merge automatically, on their queues.
    func forwardToMergingChildren(_ changes: ChangeSet, except excluded: ManagedObjectContext?) {
        for child in mergingChildren.all where child !== excluded {
            child.queue.async { child.mergeChanges(fromContextDidSave: changes) }
        }
    }

    private func forwardRefreshToMergingChildren() {
        for child in mergingChildren.all {
            child.queue.async { child.refreshAllObjects() }
        }
    }
}

extension PersistentStore {
    /// Hands a committed save to the contexts that merge automatically: the other contexts on the
    /// store, and the saver's merging children. Called inside the store's lock right after the
    /// commit, so every context receives saves in commit order.
    func deliver(_ changes: ChangeSet, from saver: ManagedObjectContext?) {
        for context in mergingContexts.all where context !== saver {
            context.queue.async { context.mergeChanges(fromContextDidSave: changes) }
        }
        saver?.forwardToMergingChildren(changes, except: nil)
    }
}
