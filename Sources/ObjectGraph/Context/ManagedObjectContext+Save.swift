import CSQLite
import Foundation

/// Saving: delete rules, validation of everything, conflicts through the merge policy, then one
/// SQLite transaction (or, for a child context, one push into the parent).
extension ManagedObjectContext {
    /// Writes every pending change to the store in one transaction (a child context: into its
    /// parent) and returns what was written.
    ///
    /// First the delete rules of deleted objects are applied (cascade transitively, nullify
    /// inverses, deny). Then every inserted, changed and deleted object is validated: required
    /// values, relationship counts, deny rules and the objects' own `validateFor...` methods; all
    /// failures are thrown together as a ``ValidationError`` (with any uniqueness violations). Only
    /// then is anything written. Uniqueness is enforced by the store's unique indexes, and a
    /// violation found while writing is reported the same way, naming every object concerned.
    ///
    /// Updates and deletes check each row's version: a row changed or deleted elsewhere since it
    /// was read is a conflict, and so is an inserted object whose unique values an existing row
    /// holds. ``mergePolicy`` decides them (`.error`: the save fails with
    /// ``ObjectGraphError/mergeConflicts(_:)``); resolved ones are listed in
    /// ``ChangeSet/resolvedConflicts``. When the save throws, the store is untouched and the
    /// context keeps its changes (delete rules already applied stay applied; `rollback()` undoes
    /// everything).
    ///
    /// Observers get `objectsDidChange` for the last edits, `willSave`, then `didSave`; other
    /// contexts that merge automatically get the changes in commit order.
    @discardableResult
    public func save() throws -> ChangeSet {
        try save(consumerTokens: [:])
    }

    /// Saves like ``save()`` and, in the same transaction, records that `consumer` processed
    /// persistent history through `token`: a consumer's effects and its progress commit together
    /// (also when the context has no changes, when only the token is written).
    @discardableResult
    public func save(advancing consumer: HistoryConsumer, to token: HistoryToken) throws -> ChangeSet {
        checkAccess()
        guard parent == nil else { throw ObjectGraphError.unsupportedInChildContext(operation: "advance a history consumer") }
        try persistentStore.history.checkRecorded()
        return try save(consumerTokens: [consumer.name: token])
    }

    private func save(consumerTokens: [String: HistoryToken]) throws -> ChangeSet {
        checkAccess()
        adoptPermanentIDsIfNeeded()
        if let failure = deferredFailures.first { throw failure }
        processPendingChanges()
        var changes = ChangeSet()
        changes.contextName = name
        changes.transactionAuthor = transactionAuthor
        guard hasChanges else {
            if !consumerTokens.isEmpty {
                try persistentStore.write { _, transaction in transaction.consumerTokens = consumerTokens }
            }
            return changes
        }

        var issues = try applyDeleteRules()
        // Cascaded deletes and nullified relationships are changes observers hear of like any other.
        processPendingChanges()
        let inserts = liveInserts
        let updates = pendingUpdates.filter { $0.flags.contains(.updated) && !$0.flags.contains(.inserted) && !$0.flags.contains(.deleted) }
        let deletes = pendingDeletes.filter { $0.flags.contains(.listedAsDeleted) && !$0.flags.contains(.inserted) }
        for object in deletes where object.flags.contains(.fault) { fulfillFaultForAccess(of: object) }
        if !observers.isEmpty {
            observers.post(.willSave(inserted: inserts.map(\.objectID), updated: updates.map(\.objectID), deleted: deletes.map(\.objectID)))
        }

        issues += try validate(inserts, isInsert: true) + validate(updates, isInsert: false)
        for object in deletes { issues += customIssues(object) { try $0.validateForDelete() } }
        if !issues.isEmpty {
            // Uniqueness is otherwise left to the store's unique indexes (see `translateWriteError`);
            // here it is checked too, so that one error lists everything.
            issues += uniquenessIssuesInMemory(inserts + updates)
            if parent == nil { issues += try uniquenessIssuesInStore(inserts + updates, deleting: deletes) }
            throw ValidationError(issues: issues)
        }

        let resolutionChanges: ObjectsDidChange
        if parent != nil {
            (changes, resolutionChanges) = try saveIntoParent(inserts: inserts, updates: updates, deletes: deletes, changes: changes)
        } else {
            (changes, resolutionChanges) = try saveToStore(
                inserts: inserts, updates: updates, deletes: deletes, changes: changes, consumerTokens: consumerTokens)
        }
        if !observers.isEmpty { observers.post(.didSave(changes)) }
        post(resolutionChanges)
        return changes
    }

    // MARK: Saving to the store

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

    private func saveToStore(
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
            throw try translateWriteError(error, inserts: inserts, updates: updates, deletes: deletes)
        }
        var changes = save.changes
        changes.historyToken = transaction.token

        for (number, count) in Dictionary(save.inserted.map { ($0.entityModel.number, 1) }, uniquingKeysWith: +) {
            registered[number].reserveCapacity(count)
        }
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

    /// The change-mask positions of the value slots that differ between two value lists.
    static func slotsDiffering(_ lhs: ValueList, _ rhs: ValueList, in entity: EntityModel) -> PropertyMask {
        var mask = PropertyMask()
        for slot in 0..<min(lhs.count, rhs.count) where lhs[slot] != rhs[slot] {
            if let position = entity.position(ofSlot: slot) { mask.insert(position) }
        }
        return mask
    }

    /// Makes an object's current state its committed state.
    private func didSave(_ object: ManagedObject) {
        object.committedValues = nil
        object.changedProperties.removeAll()
        guard let relations = object.relations else { return }
        for relationship in object.entityModel.relationships {
            switch relations[relationship.index] {
            case .toOne(let target):
                if let slot = relationship.foreignKeySlot { object.values[slot] = target.map { .integer($0.key) } ?? .null }
            case .toMany(let storage):
                storage.committed = nil
            case .fault:
                break
            }
        }
    }

    // MARK: Delete rules

    /// Cascades deletes transitively, then checks deny rules, then nullifies inverses.
    private func applyDeleteRules() throws -> [ValidationError.Issue] {
        var index = 0
        while index < pendingDeletes.count {
            let object = pendingDeletes[index]
            index += 1
            guard object.flags.contains(.listedAsDeleted) else { continue }
            for relationship in object.entityModel.relationships where relationship.deleteRule == .cascade {
                for target in try liveDestinations(of: object, relationship) { delete(target) }
            }
        }

        var issues: [ValidationError.Issue] = []
        let deleted = pendingDeletes.filter { $0.flags.contains(.listedAsDeleted) }
        for object in deleted {
            for relationship in object.entityModel.relationships where relationship.deleteRule == .deny {
                let blocking = try liveDestinations(of: object, relationship)
                if !blocking.isEmpty {
                    issues.append(ValidationError.Issue(
                        entity: object.entityModel.name, objectID: object.objectID, key: relationship.name,
                        reason: .deleteDenied(by: blocking.map(\.objectID).sorted { $0.key < $1.key })))
                }
            }
        }
        guard issues.isEmpty else { return issues }

        for object in deleted {
            for relationship in object.entityModel.relationships where relationship.deleteRule == .nullify {
                let inverse = model.inverse(of: relationship)
                for target in try liveDestinations(of: object, relationship) {
                    if inverse.isToMany {
                        try removeMember(object, from: target, inverse)
                    } else if try destinationObject(of: target, inverse) === object {
                        try setDestination(nil, of: target, inverse)
                    }
                }
            }
        }
        return []
    }

    /// The related objects that are not themselves deleted.
    private func liveDestinations(of object: ManagedObject, _ relationship: RelationshipModel) throws -> [ManagedObject] {
        switch try loadedState(of: object, relationship) {
        case .toOne(let target): return target.map { $0.flags.contains(.deleted) ? [] : [$0] } ?? []
        case .toMany(let storage): return storage.members.filter { !$0.flags.contains(.deleted) }.sorted { $0.key < $1.key }
        case .fault: return []
        }
    }

    // MARK: Validation

    private func validate(_ objects: [ManagedObject], isInsert: Bool) throws -> [ValidationError.Issue] {
        var issues: [ValidationError.Issue] = []
        for object in objects {
            let entity = object.entityModel
            for (index, attribute) in entity.attributes.enumerated()
            where !attribute.isOptional && !attribute.isTransient && object.values[index].isNull {
                issues.append(ValidationError.Issue(
                    entity: entity.name, objectID: object.objectID, key: attribute.name, reason: .missingValue))
            }
            for relationship in entity.relationships
            where isInsert || object.changedProperties.contains(entity.attributes.count + relationship.index) {
                let description = relationship.description
                if relationship.isToMany {
                    guard description.minCount != nil || description.maxCount != nil else { continue }
                    let count = try liveDestinations(of: object, relationship).count
                    if let minimum = description.minCount, count < minimum {
                        issues.append(ValidationError.Issue(
                            entity: entity.name, objectID: object.objectID, key: relationship.name,
                            reason: .tooFewObjects(minimum: minimum, actual: count)))
                    }
                    if let maximum = description.maxCount, count > maximum {
                        issues.append(ValidationError.Issue(
                            entity: entity.name, objectID: object.objectID, key: relationship.name,
                            reason: .tooManyObjects(maximum: maximum, actual: count)))
                    }
                } else if !description.isOptional, try liveDestinations(of: object, relationship).isEmpty {
                    issues.append(ValidationError.Issue(
                        entity: entity.name, objectID: object.objectID, key: relationship.name, reason: .missingValue))
                }
            }
            issues += customIssues(object) { isInsert ? try $0.validateForInsert() : try $0.validateForUpdate() }
        }
        return issues
    }

    /// Runs an object's own validation and turns what it throws into issues.
    private func customIssues(_ object: ManagedObject, _ check: (ManagedObject) throws -> Void) -> [ValidationError.Issue] {
        do {
            try check(object)
            return []
        } catch let failure as ValidationFailure {
            return [ValidationError.Issue(
                entity: object.entityModel.name, objectID: object.objectID, key: failure.key, reason: .custom(failure.message))]
        } catch {
            return [ValidationError.Issue(
                entity: object.entityModel.name, objectID: object.objectID, key: nil, reason: .custom(String(describing: error)))]
        }
    }

    /// The value a uniqueness constraint sees in one slot: attributes by value, to-one relationships
    /// by their destination's key.
    private func uniqueValue(of object: ManagedObject, slot: Int) -> PrimitiveValue {
        let entity = object.entityModel
        if slot >= entity.attributes.count,
           let relationship = entity.relationships.first(where: { $0.foreignKeySlot == slot }),
           case .toOne(let target)? = state(of: object, relationship) {
            return target.map { .integer($0.key) } ?? .null
        }
        return object.values[slot]
    }

    private func slotNames(_ entity: EntityModel, _ slots: [Int]) -> [String] {
        slots.map { slot in
            slot < entity.attributes.count ? entity.attributes[slot].name
                : entity.relationships.first { $0.foreignKeySlot == slot }!.name
        }
    }

    /// Objects of this save that share unique values with each other.
    private func uniquenessIssuesInMemory(_ objects: [ManagedObject]) -> [ValidationError.Issue] {
        var issues: [ValidationError.Issue] = []
        let byEntity = Dictionary(grouping: objects.filter { !$0.entityModel.uniqueSlotSets.isEmpty }) { $0.entityModel.number }
        for (number, objects) in byEntity.sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[number]
            for slots in entity.uniqueSlotSets {
                var seen: [[PrimitiveValue]: ManagedObject] = [:]
                for object in objects {
                    let values = slots.map { uniqueValue(of: object, slot: $0) }
                    if values.contains(where: \.isNull) { continue }
                    if let other = seen[values] {
                        issues.append(ValidationError.Issue(
                            entity: entity.name, objectID: object.objectID, key: slotNames(entity, slots).joined(separator: ","),
                            reason: .notUnique(keys: slotNames(entity, slots), conflictingObject: other.objectID)))
                    } else {
                        seen[values] = object
                    }
                }
            }
        }
        return issues
    }

    /// Objects of this save whose unique values a saved row already holds (rows changed or deleted
    /// in this save do not count: their new values were checked in memory).
    private func uniquenessIssuesInStore(_ objects: [ManagedObject], deleting deletes: [ManagedObject]) throws -> [ValidationError.Issue] {
        let changedKeys = Set((objects + deletes).filter { $0.key > 0 }.map { RowKey(entity: $0.entityModel.number, key: $0.key) })
        var issues: [ValidationError.Issue] = []
        try persistentStore.read { connection in
            for object in objects {
                let entity = object.entityModel
                for slots in entity.uniqueSlotSets {
                    let values = slots.map { uniqueValue(of: object, slot: $0) }
                    if values.contains(where: \.isNull) { continue }
                    let names = slotNames(entity, slots)
                    let condition = names.map { "\(SQL.quote($0)) = ?" }.joined(separator: " AND ")
                    let keys = try connection.integers("SELECT _pk FROM \(entity.table) WHERE \(condition)", values)
                    if let other = keys.first(where: { !changedKeys.contains(RowKey(entity: entity.number, key: $0)) }) {
                        issues.append(ValidationError.Issue(
                            entity: entity.name, objectID: object.objectID, key: names.joined(separator: ","),
                            reason: .notUnique(keys: names, conflictingObject: ManagedObjectID(entity: entity, key: other))))
                    }
                }
            }
        }
        return issues
    }


    /// Turns a failed write into the error the caller can act on.
    private func translateWriteError(
        _ error: any Error, inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject]
    ) throws -> any Error {
        if let dangling = error as? DanglingReferenceError {
            var issues: [ValidationError.Issue] = []
            for violation in dangling.violations {
                guard let entity = model.entities.first(where: { $0.name == violation.table }), let key = violation.key else {
                    continue
                }
                let relationship = entity.relationships.first { model.destination(of: $0).name == violation.parent }
                issues.append(ValidationError.Issue(
                    entity: entity.name, objectID: ManagedObjectID(entity: entity, key: key), key: relationship?.name,
                    reason: .danglingReference(destination: violation.parent)))
            }
            return issues.isEmpty ? error : ValidationError(issues: issues)
        }
        if let storeError = error as? StoreError, storeError.kind == .constraint,
           storeError.resultCode == SQLiteCode.constraintUnique || storeError.resultCode == SQLiteCode.constraintPrimaryKey {
            let issues = uniquenessIssuesInMemory(inserts + updates)
                + (try uniquenessIssuesInStore(inserts + updates, deleting: deletes))
            return issues.isEmpty ? error : ValidationError(issues: issues)
        }
        return error
    }

    // MARK: Writing

    /// The stored columns whose values changed since the object was read (foreign keys included),
    /// and whether a relationship without a column (a to-many) changed.
    func persistentChanges(of object: ManagedObject) -> (slots: PropertyMask, relationshipsChanged: Bool) {
        let entity = object.entityModel
        let committed = object.committedValues ?? object.values
        var slots = PropertyMask()
        var relationshipsChanged = false
        object.changedProperties.forEach { position in
            if position < entity.attributes.count {
                if !entity.attributes[position].isTransient && object.values[position] != committed[position] {
                    slots.insert(position)
                }
                return
            }
            let relationship = entity.relationships[position - entity.attributes.count]
            guard let slot = relationship.foreignKeySlot else {
                relationshipsChanged = true
                return
            }
            if foreignKeyValue(of: object, relationship, slot: slot) != committed[slot] { slots.insert(slot) }
        }
        return (slots, relationshipsChanged)
    }

    /// The stored slots an inserted object set (attributes and foreign keys it was given).
    private func setSlots(of object: ManagedObject) -> PropertyMask {
        let entity = object.entityModel
        var slots = PropertyMask()
        object.changedProperties.forEach { position in
            if position < entity.attributes.count {
                if !entity.attributes[position].isTransient { slots.insert(position) }
            } else if let slot = entity.relationships[position - entity.attributes.count].foreignKeySlot {
                slots.insert(slot)
            }
        }
        return slots
    }

    /// The change-mask positions of to-many relationships (those without a column) an object changed.
    private func toManyChanges(of object: ManagedObject) -> PropertyMask {
        let entity = object.entityModel
        var positions = PropertyMask()
        object.changedProperties.forEach { position in
            if position >= entity.attributes.count, entity.relationships[position - entity.attributes.count].foreignKeySlot == nil {
                positions.insert(position)
            }
        }
        return positions
    }

    /// What a foreign-key column holds: the destination's key, from the relationship if loaded.
    func foreignKeyValue(of object: ManagedObject, _ relationship: RelationshipModel, slot: Int) -> PrimitiveValue {
        if case .toOne(let target)? = state(of: object, relationship) { return target.map { .integer($0.key) } ?? .null }
        return object.values[slot]
    }

    /// An object's values with each foreign key taken from its loaded to-one relationship: what
    /// its row would hold if it were written now.
    func persistentValues(of object: ManagedObject) -> ValueList {
        var values = object.values
        guard object.relations != nil else { return values }
        for relationship in object.entityModel.relationships {
            if let slot = relationship.foreignKeySlot, slot < values.count {
                values[slot] = foreignKeyValue(of: object, relationship, slot: slot)
            }
        }
        return values
    }

    /// Writes the save in one transaction and returns what it wrote. Inserted objects get their
    /// primary keys here (the caller restores the temporary ones if this throws).
    private func write(
        inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject], temporaryKeys: [Int64],
        changes: ChangeSet, _ connection: SQLiteConnection, _ transaction: StoreTransaction
    ) throws -> StoreSave {
        var save = StoreSave(changes: changes)
        // Unique-constraint conflicts first: an inserted object that becomes an existing row takes
        // its key before anything refers to the object's key.
        var adoptions: [(object: ManagedObject, conflict: MergeConflict, resolution: MergeResolution, row: (values: ValueList, version: Int64))] = []
        if !mergePolicy.isError {
            let changing = Set((updates + deletes).map { RowKey(entity: $0.entityModel.number, key: $0.key) })
            for object in inserts where !object.entityModel.uniqueSlotSets.isEmpty {
                guard let (conflict, row) = try uniqueConflict(of: object, excluding: changing, connection),
                      let resolution = try mergePolicy.resolution(for: conflict) else { continue }
                adoptions.append((object, conflict, resolution, row))
                object.key = conflict.existingKey
            }
        }
        let adopted = Set(adoptions.map { ObjectIdentifier($0.object) })
        let newRows = inserts.filter { !adopted.contains(ObjectIdentifier($0)) }
        try assignKeys(newRows, connection)

        // Deletes and updates first, so a new row may take a unique value an old row gives up.
        var conflicted = try writeDeletes(deletes, connection)
        let (written, updateConflicts) = try writeUpdates(updates, connection)
        conflicted += updateConflicts
        save.written = written

        var resolved: [ResolvedConflict] = []
        var resurrected: [ManagedObject] = []
        if !conflicted.isEmpty {
            let details = try conflicted.map { object in try (object, conflict(object, connection)) }
            if mergePolicy.isError { throw ObjectGraphError.mergeConflicts(details.map(\.1.conflict)) }
            for (object, found) in details {
                guard let resolution = try mergePolicy.resolution(for: found.conflict) else { continue }
                let outcome = try ConflictOutcome.of(
                    resolution, entity: object.entityModel, current: persistentValues(of: object),
                    snapshot: object.committedValues ?? object.values, store: found.row?.values,
                    changed: persistentChanges(of: object).slots, deletesObject: object.flags.contains(.deleted))
                let version = try write(outcome, of: object, over: found.row, connection)
                if case .write = outcome, found.row == nil { resurrected.append(object) }
                resolved.append(ResolvedConflict(object: object, outcome: outcome, row: found.row, version: version, adoptsRow: false))
                save.changes.resolvedConflicts.append(found.conflict)
            }
        }
        for adoption in adoptions {
            let outcome = try ConflictOutcome.of(
                adoption.resolution, entity: adoption.object.entityModel, current: persistentValues(of: adoption.object),
                snapshot: nil, store: adoption.row.values, changed: setSlots(of: adoption.object), deletesObject: false)
            let version = try write(outcome, of: adoption.object, over: adoption.row, connection)
            resolved.append(ResolvedConflict(object: adoption.object, outcome: outcome, row: adoption.row, version: version, adoptsRow: true))
            save.changes.resolvedConflicts.append(adoption.conflict)
        }
        save.resolved = resolved

        try writeInserts(newRows + resurrected, connection)
        let keepsRelationships = resolved.filter { if case .write = $0.outcome { return true } else { return false } }.map(\.object)
        try writeJoinRows(newRows + written + keepsRelationships, connection, complete: Set(resurrected.map(ObjectIdentifier.init)))
        save.inserted = newRows

        // What the save changed, for the caller, for other contexts and for history.
        let temporaryKeyOf = Dictionary(uniqueKeysWithValues: zip(inserts.map(ObjectIdentifier.init), temporaryKeys))
        for object in newRows + resurrected {
            save.changes.inserted.append(object.objectID)
            save.changes.insertedTemporaryIDs.append(ManagedObjectID(
                entity: object.entityModel, key: temporaryKeyOf[ObjectIdentifier(object)] ?? object.key))
        }
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
        let delivered = save.changes
        transaction.onCommit { [unowned transaction, persistentStore] in
            var changes = delivered
            changes.historyToken = transaction.token
            persistentStore.deliver(changes, from: self)
        }
        return save
    }

    /// Writes the stored side of a resolved conflict and returns the object's row version after it.
    private func write(
        _ outcome: ConflictOutcome, of object: ManagedObject, over row: (values: ValueList, version: Int64)?,
        _ connection: SQLiteConnection
    ) throws -> Int64 {
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
                // Written again: `writeInserts` adds the row with the object's new values.
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
    private func assignKeys(_ inserts: [ManagedObject], _ connection: SQLiteConnection) throws {
        let needingKeys = Dictionary(grouping: inserts.filter { $0.key <= 0 }) { $0.entityModel.number }
        for (number, objects) in needingKeys.sorted(by: { $0.key < $1.key }) {
            var key = try persistentStore.reserveKeys(connection, entity: model.entities[number], count: objects.count)
            for object in objects {
                object.key = key
                key += 1
            }
        }
    }

    /// Deletes rows (and then their join rows) whose version is still the one read; returns the
    /// objects whose rows changed or went away meanwhile.
    private func writeDeletes(_ deletes: [ManagedObject], _ connection: SQLiteConnection) throws -> [ManagedObject] {
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

    /// Inserts rows through one prepared statement per entity (objects written again after a
    /// conflict keep their key and take the next row version).
    private func writeInserts(_ inserts: [ManagedObject], _ connection: SQLiteConnection) throws {
        for (number, objects) in Dictionary(grouping: inserts, by: { $0.entityModel.number }).sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[number]
            let columns = entity.columns
            let placeholders = Array(repeating: "?", count: columns.count + 2).joined(separator: ", ")
            let names = (["_pk", "_version"] + columns.map { SQL.quote($0.name) }).joined(separator: ", ")
            let statement = try connection.statement("INSERT INTO \(entity.table) (\(names)) VALUES (\(placeholders))")
            let attributeColumns = columns.enumerated().filter { $0.element.slot < entity.attributes.count }
                .map { (parameter: Int32($0.offset + 3), slot: $0.element.slot) }
            let foreignKeys = entity.relationships.compactMap { relationship -> (parameter: Int32, relationship: RelationshipModel, slot: Int)? in
                guard let slot = relationship.foreignKeySlot else { return nil }
                return (Int32(columns.firstIndex { $0.slot == slot }! + 3), relationship, slot)
            }
            for object in objects {
                statement.bind(object.key, at: 1)
                statement.bind(object.flags.contains(.inserted) ? 1 : object.rowVersion + 1, at: 2)
                for column in attributeColumns { statement.bind(object.values[column.slot], at: column.parameter) }
                for foreignKey in foreignKeys {
                    statement.bind(foreignKeyValue(of: object, foreignKey.relationship, slot: foreignKey.slot), at: foreignKey.parameter)
                }
                try statement.run()
            }
        }
    }

    /// Updates changed columns and the row version, grouped by the set of changed columns so each
    /// group reuses one statement; returns the objects written and those whose rows changed or went
    /// away meanwhile.
    private func writeUpdates(_ updates: [ManagedObject], _ connection: SQLiteConnection) throws -> ([ManagedObject], [ManagedObject]) {
        var groups: [UpdateSignature: [ManagedObject]] = [:]
        var candidates: [ManagedObject] = []
        for object in updates {
            let changes = persistentChanges(of: object)
            if changes.slots.isEmpty && !changes.relationshipsChanged { continue }
            groups[UpdateSignature(entity: object.entityModel.number, slots: changes.slots), default: []].append(object)
            candidates.append(object)
        }
        try releaseUniqueValues(of: candidates, connection)
        var conflicts = Set<ObjectIdentifier>()
        let ordered = groups.sorted { lhs, rhs in
            lhs.key.entity != rhs.key.entity ? lhs.key.entity < rhs.key.entity
                : lhs.key.slots.positions.lexicographicallyPrecedes(rhs.key.slots.positions)
        }
        for (signature, objects) in ordered {
            let entity = model.entities[signature.entity]
            let slots = signature.slots.positions
            let foreignKeys = Dictionary(uniqueKeysWithValues: entity.relationships.compactMap { relationship in
                relationship.foreignKeySlot.map { ($0, relationship) }
            })
            let assignments = slots.map { slot in "\(SQL.quote(entity.columns.first { $0.slot == slot }!.name)) = ?" }
                + ["_version = _version + 1"]
            let statement = try connection.statement(
                "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE _pk = ? AND _version = ?")
            for object in objects {
                for (offset, slot) in slots.enumerated() {
                    let value = foreignKeys[slot].map { foreignKeyValue(of: object, $0, slot: slot) } ?? object.values[slot]
                    statement.bind(value, at: Int32(offset + 1))
                }
                statement.bind(object.key, at: Int32(slots.count + 1))
                statement.bind(object.rowVersion, at: Int32(slots.count + 2))
                try statement.run()
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
    private func releaseUniqueValues(of objects: [ManagedObject], _ connection: SQLiteConnection) throws {
        for object in objects {
            let entity = object.entityModel
            guard !entity.uniqueSlotSets.isEmpty else { continue }
            let changed = persistentChanges(of: object).slots
            let slots = Set(entity.uniqueSlotSets.joined()).filter { changed.contains($0) }.sorted()
            guard !slots.isEmpty else { continue }
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
    /// names the table's `source` column (each change is recorded on both sides). Objects in
    /// `complete` (rows written again) get a join row for every member.
    private func writeJoinRows(_ objects: [ManagedObject], _ connection: SQLiteConnection, complete: Set<ObjectIdentifier> = []) throws {
        for object in objects {
            guard let relations = object.relations else { continue }
            let isComplete = complete.contains(ObjectIdentifier(object))
            for relationship in object.entityModel.relationships {
                guard let (table, ownColumn, otherColumn) = relationship.joinTable,
                      case .toMany(let storage) = relations[relationship.index] else { continue }
                // Each change is recorded on both sides; the `source` side writes it, unless the
                // object is written again, when every member is written from its side.
                guard ownColumn == "source" || isComplete else { continue }
                let committed = isComplete ? [] : storage.committed ?? (object.flags.contains(.inserted) ? [] : storage.members)
                for removed in committed.subtracting(storage.members) where removed.key > 0 {
                    try connection.run(
                        "DELETE FROM \(table) WHERE \(ownColumn) = ? AND \(otherColumn) = ?",
                        [.integer(object.key), .integer(removed.key)])
                }
                for added in storage.members.subtracting(committed) where !added.flags.contains(.deleted) {
                    try connection.run(
                        "INSERT OR IGNORE INTO \(table) (\(ownColumn), \(otherColumn)) VALUES (?, ?)",
                        [.integer(object.key), .integer(added.key)])
                }
            }
        }
    }

    /// A conflict of an updated or deleted object, with the row as it is now.
    private func conflict(_ object: ManagedObject, _ connection: SQLiteConnection) throws
        -> (conflict: MergeConflict, row: (values: ValueList, version: Int64)?) {
        let entity = object.entityModel
        let row = try readRow(of: entity, key: object.key, connection)
        let changedKeys = Set(object.changedProperties.positions.map(entity.propertyName(at:)))
        let conflict = MergeConflict(
            kind: .optimisticLocking, objectID: object.objectID, snapshotVersion: object.rowVersion, storeVersion: row?.version,
            objectSnapshot: ObjectSnapshot(entity: entity, values: object.committedValues ?? object.values, model: model),
            storeSnapshot: row.map { ObjectSnapshot(entity: entity, values: $0.values, model: model) },
            objectValues: ObjectSnapshot(entity: entity, values: persistentValues(of: object), model: model),
            changedKeys: changedKeys, deletesObject: object.flags.contains(.deleted))
        return (conflict, row)
    }

    /// The existing row (other than rows this save changes) holding an inserted object's unique
    /// values, as a unique-constraint conflict.
    private func uniqueConflict(of object: ManagedObject, excluding changing: Set<RowKey>, _ connection: SQLiteConnection) throws
        -> (MergeConflict, (values: ValueList, version: Int64))? {
        let entity = object.entityModel
        for slots in entity.uniqueSlotSets {
            let values = slots.map { uniqueValue(of: object, slot: $0) }
            // NULLs never collide, and a key of an unsaved object is in no row.
            let pointsAtUnsavedObject = zip(slots, values).contains { slot, value in
                if slot >= entity.attributes.count, case .integer(let key) = value { return key <= 0 }
                return false
            }
            if pointsAtUnsavedObject || values.contains(where: \.isNull) { continue }
            let names = slotNames(entity, slots)
            let condition = names.map { "t0.\(SQL.quote($0)) = ?" }.joined(separator: " AND ")
            let statement = try connection.statement("SELECT \(entity.selectList(alias: "t0")) FROM \(entity.table) AS t0 WHERE \(condition)")
            defer { statement.reset() }
            statement.bind(values)
            while try statement.step() {
                let key = statement.int64(0)
                guard !changing.contains(RowKey(entity: entity.number, key: key)) else { continue }
                let row = (values: readValues(statement, of: entity, firstColumn: 2), version: statement.int64(1))
                let existing = ManagedObjectID(entity: entity, key: key)
                let conflict = MergeConflict(
                    kind: .uniqueConstraint(keys: names, existingObject: existing), objectID: object.objectID,
                    snapshotVersion: 0, storeVersion: row.version, objectSnapshot: nil,
                    storeSnapshot: ObjectSnapshot(entity: entity, values: row.values, model: model),
                    objectValues: ObjectSnapshot(entity: entity, values: persistentValues(of: object), model: model),
                    changedKeys: Set(object.changedProperties.positions.map(entity.propertyName(at:))), deletesObject: false)
                return (conflict, row)
            }
        }
        return nil
    }
}

extension MergeConflict {
    /// The primary key of the existing row of a unique-constraint conflict.
    var existingKey: Int64 {
        if case .uniqueConstraint(_, let existing) = kind { return existing.key }
        return objectID.key
    }
}

/// Extended result codes that do not import from the C header (they are macro expressions).
enum SQLiteCode {
    static let constraintForeignKey: Int32 = 787
    static let constraintPrimaryKey: Int32 = 1555
    static let constraintUnique: Int32 = 2067
}
