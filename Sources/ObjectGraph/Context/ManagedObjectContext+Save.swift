import CSQLite
import Foundation

/// Saving: delete rules, validation of everything, then one SQLite transaction.
extension ManagedObjectContext {
    /// Writes every pending change to the store in one transaction and returns what was written.
    ///
    /// First the delete rules of deleted objects are applied (cascade transitively, nullify
    /// inverses, deny). Then every inserted, changed and deleted object is validated: required
    /// values, relationship counts, deny rules and the objects' own `validateFor...` methods; all
    /// failures are thrown together as a ``ValidationError`` (with any uniqueness violations). Only
    /// then is anything written. Uniqueness is enforced by the store's unique indexes, and a
    /// violation found while writing is reported the same way, naming every object concerned. Updates and deletes check each row's version, so a row changed by someone else since
    /// it was read fails the save with ``ObjectGraphError/mergeConflicts(_:)``. When the save throws,
    /// the store is untouched and the context keeps its changes (delete rules already applied stay
    /// applied; `rollback()` undoes everything).
    @discardableResult
    public func save() throws -> ChangeSet {
        checkAccess()
        if let failure = deferredFailures.first { throw failure }
        var changes = ChangeSet()
        changes.contextName = name
        changes.transactionAuthor = transactionAuthor
        guard hasChanges else { return changes }

        var issues = try applyDeleteRules()
        let inserts = liveInserts
        let updates = pendingUpdates.filter { $0.flags.contains(.updated) && !$0.flags.contains(.inserted) && !$0.flags.contains(.deleted) }
        let deletes = pendingDeletes.filter { $0.flags.contains(.listedAsDeleted) && !$0.flags.contains(.inserted) }
        for object in deletes where object.flags.contains(.fault) { fulfillFaultForAccess(of: object) }

        issues += try validate(inserts, isInsert: true) + validate(updates, isInsert: false)
        for object in deletes { issues += customIssues(object) { try $0.validateForDelete() } }
        if !issues.isEmpty {
            // Uniqueness is otherwise left to the store's unique indexes (see `translateWriteError`);
            // here it is checked too, so that one error lists everything.
            issues += uniquenessIssuesInMemory(inserts + updates)
            issues += try uniquenessIssuesInStore(inserts + updates, deleting: deletes)
            throw ValidationError(issues: issues)
        }

        let temporaryKeys = inserts.map(\.key)
        let written: [ManagedObject]
        do {
            written = try write(inserts: inserts, updates: updates, deletes: deletes)
        } catch {
            for (object, key) in zip(inserts, temporaryKeys) where object.key != key {
                object.key = key
            }
            throw try translateWriteError(error, inserts: inserts, updates: updates, deletes: deletes)
        }

        changes.insertedTemporaryIDs = temporaryKeys.enumerated().map { ManagedObjectID(entity: inserts[$0.offset].entityModel, key: $0.element) }
        changes.inserted.reserveCapacity(inserts.count)
        for (number, count) in Dictionary(inserts.map { ($0.entityModel.number, 1) }, uniquingKeysWith: +) {
            registered[number].reserveCapacity(count)
        }
        for object in inserts {
            registered[object.entityModel.number][object.key] = object
            object.flags.remove(.inserted)
            object.rowVersion = 1
            didSave(object)
            changes.inserted.append(object.objectID)
        }
        changes.updated.reserveCapacity(written.count)
        changes.updatedProperties.reserveCapacity(written.count)
        for object in written {
            changes.updated.append(object.objectID)
            changes.updatedProperties.append(object.changedProperties)
            object.rowVersion += 1
        }
        for object in updates {
            object.flags.remove(.updated)
            didSave(object)
        }
        for object in deletes {
            changes.deleted.append(object.objectID)
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
        pendingInserts = []
        pendingUpdates = []
        pendingDeletes = []
        return changes
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

    private struct RowKey: Hashable {
        let entity: Int
        let key: Int64
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

    /// What a foreign-key column holds: the destination's key, from the relationship if loaded.
    private func foreignKeyValue(of object: ManagedObject, _ relationship: RelationshipModel, slot: Int) -> PrimitiveValue {
        if case .toOne(let target)? = state(of: object, relationship) { return target.map { .integer($0.key) } ?? .null }
        return object.values[slot]
    }

    /// Writes the save in one transaction and returns the updated objects it wrote (those with
    /// persistent changes). Inserted objects get their primary keys here (the caller restores the
    /// temporary ones if this throws).
    private func write(inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject]) throws -> [ManagedObject] {
        try persistentStore.write { connection in
            try assignKeys(inserts, connection)
            // Deletes and updates first, so a new row may take a unique value an old row gives up.
            var conflicts = try writeDeletes(deletes, connection)
            let (written, updateConflicts) = try writeUpdates(updates, connection)
            conflicts += updateConflicts
            try writeInserts(inserts, connection)
            try writeJoinRows(inserts + updates, connection)
            if !conflicts.isEmpty { throw ObjectGraphError.mergeConflicts(conflicts) }
            return written
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

    /// Deletes rows (and their join rows) whose version is still the one read.
    private func writeDeletes(_ deletes: [ManagedObject], _ connection: SQLiteConnection) throws -> [MergeConflict] {
        var conflicts: [MergeConflict] = []
        for object in deletes {
            let entity = object.entityModel
            for join in entity.relationships.compactMap(\.joinTable) {
                try connection.run("DELETE FROM \(join.table) WHERE \(join.ownColumn) = ?", [.integer(object.key)])
            }
            let statement = try connection.statement("DELETE FROM \(entity.table) WHERE _pk = ? AND _version = ?")
            statement.bind(object.key, at: 1)
            statement.bind(object.rowVersion, at: 2)
            try statement.run()
            if connection.changes == 0 { conflicts.append(try conflict(object, connection)) }
        }
        return conflicts
    }

    /// Inserts rows through one prepared statement per entity.
    private func writeInserts(_ inserts: [ManagedObject], _ connection: SQLiteConnection) throws {
        for (number, objects) in Dictionary(grouping: inserts, by: { $0.entityModel.number }).sorted(by: { $0.key < $1.key }) {
            let entity = model.entities[number]
            let columns = entity.columns
            let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
            let names = (["_pk"] + columns.map { SQL.quote($0.name) }).joined(separator: ", ")
            let statement = try connection.statement("INSERT INTO \(entity.table) (\(names)) VALUES (\(placeholders))")
            let attributeColumns = columns.enumerated().filter { $0.element.slot < entity.attributes.count }
                .map { (parameter: Int32($0.offset + 2), slot: $0.element.slot) }
            let foreignKeys = entity.relationships.compactMap { relationship -> (parameter: Int32, relationship: RelationshipModel, slot: Int)? in
                guard let slot = relationship.foreignKeySlot else { return nil }
                return (Int32(columns.firstIndex { $0.slot == slot }! + 2), relationship, slot)
            }
            for object in objects {
                statement.bind(object.key, at: 1)
                for column in attributeColumns { statement.bind(object.values[column.slot], at: column.parameter) }
                for foreignKey in foreignKeys {
                    statement.bind(foreignKeyValue(of: object, foreignKey.relationship, slot: foreignKey.slot), at: foreignKey.parameter)
                }
                try statement.run()
            }
        }
    }

    /// Updates changed columns and the row version, grouped by the set of changed columns so each
    /// group reuses one statement; returns the objects written and the conflicts found.
    private func writeUpdates(_ updates: [ManagedObject], _ connection: SQLiteConnection) throws -> ([ManagedObject], [MergeConflict]) {
        var groups: [UpdateSignature: [ManagedObject]] = [:]
        var written: [ManagedObject] = []
        for object in updates {
            let changes = persistentChanges(of: object)
            if changes.slots.isEmpty && !changes.relationshipsChanged { continue }
            groups[UpdateSignature(entity: object.entityModel.number, slots: changes.slots), default: []].append(object)
            written.append(object)
        }
        try releaseUniqueValues(of: written, connection)
        var conflicts: [MergeConflict] = []
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
                if connection.changes == 0 { conflicts.append(try conflict(object, connection)) }
            }
        }
        return (written, conflicts)
    }

    /// Sets the changed unique columns of updated rows to NULL before the updates, so that rows may
    /// swap unique values within one save (SQLite checks unique indexes per statement, and NULLs
    /// never collide).
    private func releaseUniqueValues(of objects: [ManagedObject], _ connection: SQLiteConnection) throws {
        for object in objects {
            let entity = object.entityModel
            guard !entity.uniqueSlotSets.isEmpty else { continue }
            let changed = persistentChanges(of: object).slots
            let slots = Set(entity.uniqueSlotSets.joined()).filter { changed.contains($0) }.sorted()
            guard !slots.isEmpty else { continue }
            let assignments = slots.map { slot in "\(SQL.quote(entity.columns.first { $0.slot == slot }!.name)) = NULL" }
            try connection.run(
                "UPDATE \(entity.table) SET \(assignments.joined(separator: ", ")) WHERE _pk = ?", [.integer(object.key)])
        }
    }

    /// The entity and changed columns of an update, which decide its SQL.
    private struct UpdateSignature: Hashable {
        let entity: Int
        let slots: PropertyMask
    }

    /// Adds and removes the join rows of changed many-to-many relationships, from the side that
    /// names the table's `source` column (each change is recorded on both sides).
    private func writeJoinRows(_ objects: [ManagedObject], _ connection: SQLiteConnection) throws {
        for object in objects {
            guard let relations = object.relations else { continue }
            for relationship in object.entityModel.relationships {
                guard let (table, ownColumn, otherColumn) = relationship.joinTable, ownColumn == "source",
                      case .toMany(let storage) = relations[relationship.index] else { continue }
                let committed = storage.committed ?? (object.flags.contains(.inserted) ? [] : storage.members)
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

    private func conflict(_ object: ManagedObject, _ connection: SQLiteConnection) throws -> MergeConflict {
        let version = try connection.scalar("SELECT _version FROM \(object.entityModel.table) WHERE _pk = ?", [.integer(object.key)])
        var storeVersion: Int64?
        if case .integer(let number)? = version { storeVersion = number }
        return MergeConflict(objectID: object.objectID, snapshotVersion: object.rowVersion, storeVersion: storeVersion)
    }
}

/// Extended result codes that do not import from the C header (they are macro expressions).
enum SQLiteCode {
    static let constraintForeignKey: Int32 = 787
    static let constraintPrimaryKey: Int32 = 1555
    static let constraintUnique: Int32 = 2067
}
