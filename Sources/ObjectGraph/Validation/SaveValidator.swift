import Foundation

/// The checks of a save, before anything is written: required values, relationship counts, the
/// objects' own `validateForInsert/Update/Delete`, and uniqueness among the saved objects and
/// against the store. Every failure is collected, so that one ``ValidationError`` lists them all.
///
/// Uniqueness is otherwise left to the store's unique indexes: a write that fails on one is turned
/// into the same error here (``error(forFailedWrite:inserts:updates:deletes:)``).
struct SaveValidator {
    /// The saving context.
    let context: ManagedObjectContext

    /// Everything wrong with the objects of a save (delete rules already applied).
    func issues(
        inserting inserts: [ManagedObject], updating updates: [ManagedObject], deleting deletes: [ManagedObject]
    ) throws -> [ValidationError.Issue] {
        var issues = try validate(inserts, isInsert: true) + validate(updates, isInsert: false)
        for object in deletes { issues += customIssues(object) { try $0.validateForDelete() } }
        return issues
    }

    /// The objects of a save whose unique values another object of the save, or (saving to the
    /// store) a saved row, holds.
    func uniquenessIssues(_ objects: [ManagedObject], deleting deletes: [ManagedObject]) throws -> [ValidationError.Issue] {
        var issues = uniquenessIssuesInMemory(objects)
        if context.parent == nil { issues += try uniquenessIssuesInStore(objects, deleting: deletes) }
        return issues
    }

    private func validate(_ objects: [ManagedObject], isInsert: Bool) throws -> [ValidationError.Issue] {
        var issues: [ValidationError.Issue] = []
        for object in objects {
            let entity = object.entityModel
            for (index, attribute) in entity.attributes.enumerated()
            where !attribute.isOptional && !attribute.isTransient && object.values.isNull(at: index) {
                issues.append(ValidationError.Issue(
                    entity: entity.name, objectID: object.objectID, key: attribute.name, reason: .missingValue))
            }
            for relationship in entity.relationships
            where isInsert || object.changedProperties.contains(entity.attributes.count + relationship.index) {
                let description = relationship.description
                if relationship.isToMany {
                    guard description.minCount != nil || description.maxCount != nil else { continue }
                    let count = try context.liveDestinations(of: object, relationship).count
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
                } else if !description.isOptional, try context.liveDestinations(of: object, relationship).isEmpty {
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

    /// Objects of this save that share unique values with each other.
    private func uniquenessIssuesInMemory(_ objects: [ManagedObject]) -> [ValidationError.Issue] {
        var issues: [ValidationError.Issue] = []
        let byEntity = Dictionary(grouping: objects.filter { !$0.entityModel.uniqueSlotSets.isEmpty }) { $0.entityModel.number }
        for (number, objects) in byEntity.sorted(by: { $0.key < $1.key }) {
            let entity = context.model.entities[number]
            for slots in entity.uniqueSlotSets {
                var seen: [[PrimitiveValue]: ManagedObject] = [:]
                for object in objects {
                    let values = slots.map { context.uniqueValue(of: object, slot: $0) }
                    if values.contains(where: \.isNull) { continue }
                    if let other = seen[values] {
                        issues.append(ValidationError.Issue(
                            entity: entity.name, objectID: object.objectID, key: entity.names(ofSlots: slots).joined(separator: ","),
                            reason: .notUnique(keys: entity.names(ofSlots: slots), conflictingObject: other.objectID)))
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
        try context.persistentStore.read { connection in
            let rows = RowWriter(connection: connection, context: context)
            for object in objects {
                let entity = object.entityModel
                for slots in entity.uniqueSlotSets {
                    let values = slots.map { context.uniqueValue(of: object, slot: $0) }
                    if values.contains(where: \.isNull) { continue }
                    let names = entity.names(ofSlots: slots)
                    let keys = try rows.keys(of: entity, matching: names, values)
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
    func error(
        forFailedWrite error: any Error, inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject]
    ) throws -> any Error {
        if let dangling = error as? DanglingReferenceError {
            var issues: [ValidationError.Issue] = []
            for violation in dangling.violations {
                guard let entity = context.model.entities.first(where: { $0.name == violation.table }), let key = violation.key else {
                    continue
                }
                let relationship = entity.relationships.first { context.model.destination(of: $0).name == violation.parent }
                issues.append(ValidationError.Issue(
                    entity: entity.name, objectID: ManagedObjectID(entity: entity, key: key), key: relationship?.name,
                    reason: .danglingReference(destination: violation.parent)))
            }
            return issues.isEmpty ? error : ValidationError(issues: issues)
        }
        if let storeError = error as? StoreError, storeError.kind == .constraint,
           storeError.resultCode == SQLiteCode.constraintUnique || storeError.resultCode == SQLiteCode.constraintPrimaryKey {
            let issues = try uniquenessIssues(inserts + updates, deleting: deletes)
            return issues.isEmpty ? error : ValidationError(issues: issues)
        }
        return error
    }
}
