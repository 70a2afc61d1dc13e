import Foundation

/// The relationship accessors behind ``ToOne`` and ``ToMany``. Typed properties cannot throw: a
/// misuse that the untyped `setValue(_:forKey:)` reports as an ``ObjectGraphError`` (an object of
/// another context, say) stops the program here with the same message, and a store failure while
/// loading a relationship is kept by the context and thrown by its next `save()`.
extension ManagedObject {
    final func relationshipModel(forKey key: PropertyKey) -> RelationshipModel {
        guard let index = entityModel.relationshipIndex(for: key) else {
            preconditionFailure("\(entityModel.name) has no relationship '\(key.name)'")
        }
        return entityModel.relationships[index]
    }

    /// The destination of a to-one as the typed property reads it (placeholders record the key).
    @usableFromInline
    final func destination<Target: ManagedObject>(forKey key: PropertyKey, as type: Target.Type) -> Target? {
        if let probe { return probe.follow(key.name, to: Target.self) }
        return destination(forKey: key).map { unsafeDowncast($0, to: Target.self) }
    }

    /// The members of a to-many as the typed property reads them (placeholders record the key).
    @usableFromInline
    final func relatedObjects<Target: ManagedObject>(forKey key: PropertyKey, as type: Target.Type) -> RelatedObjects<Target> {
        if let probe {
            probe.record(key.name)
            return RelatedObjects()
        }
        return RelatedObjects(members: members(forKey: key))
    }

    /// The destination of a to-one, loading the relationship if needed.
    final func destination(forKey key: PropertyKey) -> ManagedObject? {
        let relationship = relationshipModel(forKey: key)
        guard let context else {
            if case .toOne(let target)? = relations?[relationship.index] { return target }
            return nil
        }
        context.checkAccess()
        do {
            return try context.destinationObject(of: self, relationship)
        } catch {
            context.handleFailedRead(error, of: self)
            return nil
        }
    }

    @usableFromInline
    final func setDestination(_ target: ManagedObject?, forKey key: PropertyKey) {
        let relationship = relationshipModel(forKey: key)
        guard let context else { preconditionFailure("\(objectID) has no context; relationships cannot change") }
        context.checkAccess()
        do {
            try context.setDestination(target, of: self, relationship)
        } catch {
            context.handleFailedChange(error, of: self, key: key.name)
        }
    }

    /// The members of a to-many, loading the relationship if needed.
    final func members(forKey key: PropertyKey) -> Set<ManagedObject> {
        members(of: relationshipModel(forKey: key))
    }

    /// The members of a to-many, loading the relationship if needed.
    final func members(of relationship: RelationshipModel) -> Set<ManagedObject> {
        guard let context else {
            if case .toMany(let storage)? = relations?[relationship.index] { return storage.members }
            return []
        }
        context.checkAccess()
        do {
            return try context.toManyStorage(of: self, relationship).members
        } catch {
            context.handleFailedRead(error, of: self)
            return []
        }
    }

    @usableFromInline
    final func setMembers(_ members: Set<ManagedObject>, forKey key: PropertyKey) {
        mutateMembers(forKey: key) { context, relationship in try context.setMembers(members, of: self, relationship) }
    }

    @usableFromInline
    final func addMember(_ member: ManagedObject, forKey key: PropertyKey) {
        mutateMembers(forKey: key) { context, relationship in try context.addMember(member, to: self, relationship) }
    }

    @usableFromInline
    final func removeMember(_ member: ManagedObject, forKey key: PropertyKey) {
        mutateMembers(forKey: key) { context, relationship in try context.removeMember(member, from: self, relationship) }
    }

    @usableFromInline
    final func memberCount(forKey key: PropertyKey) -> Int {
        let relationship = relationshipModel(forKey: key)
        guard let context else { return members(forKey: key).count }
        context.checkAccess()
        do {
            return try context.memberCount(of: self, relationship)
        } catch {
            context.handleFailedRead(error, of: self)
            return 0
        }
    }

    private func mutateMembers(forKey key: PropertyKey, _ change: (ManagedObjectContext, RelationshipModel) throws -> Void) {
        let relationship = relationshipModel(forKey: key)
        guard let context else { preconditionFailure("\(objectID) has no context; relationships cannot change") }
        context.checkAccess()
        do {
            try change(context, relationship)
        } catch {
            context.handleFailedChange(error, of: self, key: key.name)
        }
    }
}
