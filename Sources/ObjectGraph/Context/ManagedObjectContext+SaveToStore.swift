import Foundation

/// Saving a context on the store: one write transaction (``PersistentStore/write(_:_:)``) whose
/// rows ``RowWriter`` writes, conflicts through the merge policy inside it, and the objects brought
/// up to date after it committed. (A child context saves into its parent instead:
/// `ManagedObjectContext+SaveIntoParent.swift`.)
extension ManagedObjectContext {
    /// What a save wrote, decided inside its transaction and applied to the objects after it committed.
    private struct StoreSave {
        var changes: ChangeSet
        /// Inserted objects written as new rows.
        var inserted: [ManagedObject] = []
        /// Updated objects written as they were.
        var written: [ManagedObject] = []
        /// Objects whose conflict the merge policy resolved.
        var resolved: [ResolvedConflict] = []
    }

    /// One conflict the merge policy resolved.
    private struct ResolvedConflict {
        let object: ManagedObject
        let outcome: ConflictOutcome
        /// The stored row when the conflict was found (nil when it was gone).
        let row: (values: ValueList, version: Int64)?
        /// The object's row version after the save.
        let version: Int64
        /// Whether the object was inserted and became an existing row (a unique-constraint conflict).
        let adoptsRow: Bool
    }

    func saveToStore(
        inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject], changes: ChangeSet,
        consumerTokens: [String: HistoryToken]
    ) throws -> (ChangeSet, ObjectsDidChange) {
        let transaction = StoreTransaction(author: transactionAuthor, contextName: name)
        transaction.consumerTokens = consumerTokens
        let temporaryKeys = inserts.map(\.key)
        let save: StoreSave
        do {
            save = try persistentStore.write(transaction) { connection, transaction in
                try write(inserts: inserts, updates: updates, deletes: deletes, temporaryKeys: temporaryKeys,
                          changes: changes, connection, transaction)
            }
        } catch {
            for (object, key) in zip(inserts, temporaryKeys) where object.key != key {
                object.key = key
            }
            transaction.restoreExternalizedValues()
            throw try SaveValidator(context: self).error(forFailedWrite: error, inserts: inserts, updates: updates, deletes: deletes)
        }
        var changes = save.changes
        changes.historyToken = transaction.token
        changes.savedValues?.commit = transaction.commit

        var insertedCounts = [Int](repeating: 0, count: model.entities.count)
        for object in save.inserted { insertedCounts[object.entityModel.number] += 1 }
        for (number, count) in insertedCounts.enumerated() where count > 0 { registered[number].reserveCapacity(count) }
        for object in save.inserted {
            registered[object.entityModel.number][object.key] = object
            object.flags.remove(.inserted)
            object.rowVersion = 1
            didSave(object)
        }
        for object in save.written { object.rowVersion += 1 }
        var resolution = ObjectsDidChange()
        for resolved in save.resolved { apply(resolved, &resolution) }
        for object in updates where object.context === self {
            object.flags.remove(.updated)
            didSave(object)
        }
        for object in deletes {
            registered[object.entityModel.number][object.key] = nil
            object.flags.remove(.listedAsDeleted)
            object.context = nil
        }
        for object in pendingInserts where object.flags.contains(.inserted) && object.flags.contains(.deleted) {
            // Inserted and deleted again before the save: never written.
            object.flags.remove([.inserted, .listedAsDeleted])
            object.context = nil
        }
        for object in pendingUpdates where object.flags.contains(.updated) && object.context === self {
            // Deleted objects and objects whose changes were all transient.
            object.flags.remove(.updated)
            didSave(object)
        }
        clearPendingChanges()
        if hasDescendants.withLock({ $0 }) {
            self.temporaryKeys.record(changes.permanentIDs.map { ($0.key.key, $0.value.key) })
        }
        return (changes, resolution)
    }

    /// Applies a resolved conflict to its object after the commit, and notes what observers see.
    private func apply(_ resolved: ResolvedConflict, _ change: inout ObjectsDidChange) {
        let object = resolved.object
        let entity = object.entityModel
        if resolved.adoptsRow {
            if let previous = registered[entity.number][object.key], previous !== object { previous.context = nil }
            registered[entity.number][object.key] = object
            object.flags.remove(.inserted)
        }
        switch resolved.outcome {
        case .write(let target):
            let before = persistentValues(of: object)
            for relationship in entity.relationships {
                // A to-one whose key the resolution took from the store loads again.
                if let slot = relationship.foreignKeySlot, before[slot] != target[slot], object.relations != nil {
                    object.relations![relationship.index] = .fault
                }
            }
            object.values = target
            object.rowVersion = resolved.version
            object.committedValues = nil
            object.changedProperties.removeAll()
            object.flags.remove(.updated)
            let differing = Self.slotsDiffering(before, target, in: entity)
            if !differing.isEmpty {
                change.refreshed.append(UpdatedObject(objectID: object.objectID, changedKeys: ChangedKeys(entity: entity, mask: differing)))
            }
        case .takeStore:
            if let row = resolved.row {
                var values = row.values
                for (index, attribute) in entity.attributes.enumerated() where attribute.isTransient { values[index] = object.values[index] }
                let differing = Self.slotsDiffering(persistentValues(of: object), values, in: entity)
                object.values = values
                object.rowVersion = row.version
                object.committedValues = nil
                object.changedProperties.removeAll()
                object.relations = nil
                object.flags.remove(.updated)
                change.refreshed.append(UpdatedObject(objectID: object.objectID, changedKeys: ChangedKeys(entity: entity, mask: differing)))
            } else {
                // The row is gone and the policy let the deletion win.
                registered[entity.number][object.key] = nil
                object.flags.remove(.updated)
                object.flags.insert(.deleted)
                object.context = nil
                change.deleted.append(object.objectID)
            }
        case .delete:
            break
        }
    }

    /// Makes an object's current state its committed state.
    private func didSave(_ object: ManagedObject) {
        object.committedValues = nil
        object.changedProperties.removeAll()
        settlePendingMembers(of: object)
        guard let relations = object.relations else { return }
        for relationship in object.entityModel.relationships {
            switch relations[relationship.index] {
            case .toOne(let target):
                if let slot = relationship.foreignKeySlot { object.values[slot] = target.map { .integer($0.key) } ?? .null }
            case .toMany(let storage):
                storage.committed = nil
            case .fault, .unloadedToMany:
                break
            }
        }
    }

    /// Writes the save in one transaction and returns what it wrote. Inserted objects get their
    /// primary keys here (the caller restores the temporary ones if this throws).
    private func write(
        inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject], temporaryKeys: [Int64],
        changes: ChangeSet, _ connection: SQLiteConnection, _ transaction: StoreTransaction
    ) throws -> StoreSave {
        var save = StoreSave(changes: changes)
        try externalizeBinaries(of: inserts + updates, transaction)
        let rows = RowWriter(connection: connection, context: self)
        // Unique-constraint conflicts first: an inserted object that becomes an existing row takes
        // its key before anything refers to the object's key.
        var adoptions: [(object: ManagedObject, conflict: MergeConflict, resolution: MergeResolution, row: (values: ValueList, version: Int64))] = []
        if !mergePolicy.isError && inserts.contains(where: { !$0.entityModel.uniqueSlotSets.isEmpty }) {
            let changing = Set((updates + deletes).map { RowKey(entity: $0.entityModel.number, key: $0.key) })
            for object in inserts where !object.entityModel.uniqueSlotSets.isEmpty {
                guard let (conflict, row) = try rows.uniqueConflict(of: object, excluding: changing),
                      let resolution = try mergePolicy.resolution(for: conflict) else { continue }
                adoptions.append((object, conflict, resolution, row))
                object.key = conflict.existingKey
            }
        }
        let adopted = Set(adoptions.map { ObjectIdentifier($0.object) })
        let newRows = adopted.isEmpty ? inserts : inserts.filter { !adopted.contains(ObjectIdentifier($0)) }
        try rows.assignKeys(newRows)

        // Deletes and updates first, so a new row may take a unique value an old row gives up.
        var conflicted = try rows.deleteRows(deletes)
        let (written, updateConflicts) = try rows.updateRows(updates)
        conflicted += updateConflicts
        save.written = written

        var resolved: [ResolvedConflict] = []
        var resurrected: [ManagedObject] = []
        if !conflicted.isEmpty {
            let details = try conflicted.map { object in try (object, rows.conflict(of: object)) }
            if mergePolicy.isError { throw ObjectGraphError.mergeConflicts(details.map(\.1.conflict)) }
            for (object, found) in details {
                guard let resolution = try mergePolicy.resolution(for: found.conflict) else { continue }
                let outcome = try ConflictOutcome.of(
                    resolution, entity: object.entityModel, current: persistentValues(of: object),
                    snapshot: object.committedValues ?? object.values, store: found.row?.values,
                    changed: persistentChanges(of: object).slots, deletesObject: object.flags.contains(.deleted))
                let version = try rows.write(outcome, of: object, over: found.row)
                if case .write = outcome, found.row == nil { resurrected.append(object) }
                resolved.append(ResolvedConflict(object: object, outcome: outcome, row: found.row, version: version, adoptsRow: false))
                save.changes.resolvedConflicts.append(found.conflict)
            }
        }
        for adoption in adoptions {
            let outcome = try ConflictOutcome.of(
                adoption.resolution, entity: adoption.object.entityModel, current: persistentValues(of: adoption.object),
                snapshot: nil, store: adoption.row.values, changed: setSlots(of: adoption.object), deletesObject: false)
            let version = try rows.write(outcome, of: adoption.object, over: adoption.row)
            resolved.append(ResolvedConflict(object: adoption.object, outcome: outcome, row: adoption.row, version: version, adoptsRow: true))
            save.changes.resolvedConflicts.append(adoption.conflict)
        }
        save.resolved = resolved

        try rows.insertRows(newRows + resurrected)
        let keepsRelationships = resolved.filter { if case .write = $0.outcome { return true } else { return false } }.map(\.object)
        try rows.writeJoinRows(newRows + written + keepsRelationships, complete: Set(resurrected.map(ObjectIdentifier.init)))
        save.inserted = newRows

        // What the save changed, for the caller, for other contexts and for history. A new row's
        // temporary key is the one at its insert's position (rows written again kept their keys);
        // only the few adopted rows look theirs up.
        save.changes.inserted.reserveCapacity(newRows.count + resurrected.count)
        save.changes.insertedTemporaryIDs.reserveCapacity(newRows.count + resurrected.count)
        for (object, temporaryKey) in zip(inserts, temporaryKeys) where adopted.isEmpty || !adopted.contains(ObjectIdentifier(object)) {
            save.changes.inserted.append(object.objectID)
            save.changes.insertedTemporaryIDs.append(ManagedObjectID(entity: object.entityModel, key: temporaryKey))
        }
        for object in resurrected {
            save.changes.inserted.append(object.objectID)
            save.changes.insertedTemporaryIDs.append(object.objectID)
        }
        let temporaryKeyOf = adopted.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: zip(inserts.map(ObjectIdentifier.init), temporaryKeys))
        save.changes.updated.reserveCapacity(written.count + resolved.count)
        save.changes.updatedProperties.reserveCapacity(written.count + resolved.count)
        for object in written {
            save.changes.updated.append(object.objectID)
            save.changes.updatedProperties.append(object.changedProperties)
        }
        for resolved in resolved {
            let object = resolved.object
            if resolved.adoptsRow {
                save.changes.adoptedTemporaryIDs.append((
                    ManagedObjectID(entity: object.entityModel, key: temporaryKeyOf[ObjectIdentifier(object)]!), object.objectID))
            }
            guard case .write(let target) = resolved.outcome, let row = resolved.row else { continue }
            var positions = Self.slotsDiffering(row.values, target, in: object.entityModel)
            positions.formUnion(toManyChanges(of: object))
            guard !positions.isEmpty else { continue }
            save.changes.updated.append(object.objectID)
            save.changes.updatedProperties.append(positions)
        }
        save.changes.deleted = deletes.map(\.objectID)

        if transaction.history != nil {
            for (entity, objects) in Dictionary(grouping: newRows + resurrected, by: { $0.entityModel.number }) {
                transaction.history!.recordInserts(of: model.entities[entity], keys: objects.map(\.key))
            }
            for (objectID, properties) in zip(save.changes.updated, save.changes.updatedProperties) {
                transaction.history!.recordUpdate(of: objectID.entity, key: objectID.key, properties: properties)
            }
            let storedRows = Dictionary(
                resolved.compactMap { resolved in resolved.row.map { (ObjectIdentifier(resolved.object), $0.values) } },
                uniquingKeysWith: { first, _ in first })
            for object in deletes {
                transaction.history!.recordDelete(
                    of: object.entityModel, key: object.key,
                    values: storedRows[ObjectIdentifier(object)] ?? object.committedValues ?? object.values)
            }
        }
        if newRows.count + written.count <= SavedValues.largestSave {
            // The rows now hold the objects' values: new rows were written whole, and an updated
            // row's other columns are the values the object was loaded with, unchanged since (its
            // version matched).
            var saved = SavedValues(store: persistentStore.origin)
            for object in newRows + written where !object.flags.contains(.fault) {
                saved.rows[object.objectID] = persistentValues(of: object)
            }
            save.changes.savedValues = saved
        }
        let delivered = save.changes
        transaction.onCommit { [unowned transaction, persistentStore] in
            var changes = delivered
            changes.historyToken = transaction.token
            changes.savedValues?.commit = transaction.commit
            persistentStore.deliver(changes, from: self)
        }
        return save
    }
}
