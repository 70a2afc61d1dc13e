import Foundation

/// Relationships in memory: loading them lazily from the store, and keeping both sides of every
/// relationship in step when one side changes.
///
/// The invariant that keeps this simple: before a change touches a relationship of any object, that
/// relationship is loaded; so a relationship loaded from the store is never missing a pending change.
extension ManagedObjectContext {
    // MARK: Reading

    /// The relationship's state, loaded from the store when it is still a fault. Inserted objects
    /// start with empty relationships.
    func loadedState(of object: ManagedObject, _ relationship: RelationshipModel) throws -> RelationshipState {
        if let state = state(of: object, relationship) { return state }
        let destination = model.destination(of: relationship)
        let state: RelationshipState
        if object.flags.contains(.inserted) {
            state = relationship.isToMany ? .toMany(ToManyStorage([])) : .toOne(nil)
        } else {
            switch relationship.storage {
            case .foreignKey(_, let slot):
                try fulfillFault(of: object)
                if case .integer(let key) = object.values[slot] {
                    state = .toOne(self.object(forKey: key, of: destination))
                } else {
                    state = .toOne(nil)
                }
            case .inverseForeignKey, .joinTable:
                let keys = try sourceDestinationKeys(ofKey: object.key, object.entityModel, relationship)
                let objects = keys.map { self.object(forKey: $0, of: destination) }
                state = relationship.isToMany ? .toMany(ToManyStorage(Set(objects))) : .toOne(objects.first)
            }
        }
        if object.relations == nil {
            object.relations = ContiguousArray(repeating: .fault, count: object.entityModel.relationships.count)
        }
        object.relations![relationship.index] = state
        return state
    }

    /// The destination of a to-one relationship.
    func destinationObject(of object: ManagedObject, _ relationship: RelationshipModel) throws -> ManagedObject? {
        guard case .toOne(let target) = try loadedState(of: object, relationship) else { return nil }
        return target
    }

    /// The member storage of a to-many relationship.
    func toManyStorage(of object: ManagedObject, _ relationship: RelationshipModel) throws -> ToManyStorage {
        guard case .toMany(let storage) = try loadedState(of: object, relationship) else {
            preconditionFailure("\(relationship.name) is not to-many")
        }
        return storage
    }

    /// The number of members of a to-many, counted in the store when it is not loaded.
    func memberCount(of object: ManagedObject, _ relationship: RelationshipModel) throws -> Int {
        if case .toMany(let storage)? = state(of: object, relationship) { return storage.members.count }
        if object.flags.contains(.inserted) { return 0 }
        if parent != nil {
            if case .foreignKey = relationship.storage { return try destinationObject(of: object, relationship) == nil ? 0 : 1 }
            return try sourceDestinationKeys(ofKey: object.key, object.entityModel, relationship).count
        }
        let sql: String
        switch relationship.storage {
        case .inverseForeignKey(let column):
            sql = "SELECT count(*) FROM \(model.destination(of: relationship).table) WHERE \(SQL.quote(column)) = ?"
        case .joinTable(let table, let ownColumn, _):
            sql = "SELECT count(*) FROM \(table) WHERE \(ownColumn) = ?"
        case .foreignKey:
            return try destinationObject(of: object, relationship) == nil ? 0 : 1
        }
        return try persistentStore.read { connection in
            guard case .integer(let count)? = try connection.scalar(sql, [.integer(object.key)]) else { return 0 }
            return Int(count)
        }
    }

    // MARK: Changing

    /// Points a to-one relationship at `target` (or nil), updating the inverse of the old and the new
    /// destination, and the old partner of `target` in a one-to-one.
    func setDestination(_ target: ManagedObject?, of object: ManagedObject, _ relationship: RelationshipModel) throws {
        try checkMember(target, of: relationship, owner: object)
        let old = try destinationObject(of: object, relationship)
        if old === target { return }
        let inverse = model.inverse(of: relationship)
        if let old { try detach(object, from: old, inverse) }
        if let target, !inverse.isToMany, let previous = try destinationObject(of: target, inverse), previous !== object {
            try setState(of: previous, relationship, to: .toOne(nil))
        }
        try setState(of: object, relationship, to: .toOne(target))
        if let target { try attach(object, to: target, inverse) }
    }

    /// Adds `member` to a to-many relationship and `object` to the member's inverse.
    func addMember(_ member: ManagedObject, to object: ManagedObject, _ relationship: RelationshipModel) throws {
        try checkMember(member, of: relationship, owner: object)
        let inverse = model.inverse(of: relationship)
        guard inverse.isToMany else {
            // One-to-many: the member's to-one does the work, leaving its old owner too.
            try setDestination(object, of: member, inverse)
            return
        }
        let storage = try toManyStorage(of: object, relationship)
        guard !storage.members.contains(member) else { return }
        try willChangeMembers(of: object, relationship, storage)
        storage.members.insert(member)
        let inverseStorage = try toManyStorage(of: member, inverse)
        try willChangeMembers(of: member, inverse, inverseStorage)
        inverseStorage.members.insert(object)
    }

    /// Removes `member` from a to-many relationship and `object` from the member's inverse.
    func removeMember(_ member: ManagedObject, from object: ManagedObject, _ relationship: RelationshipModel) throws {
        try checkMember(member, of: relationship, owner: object)
        let inverse = model.inverse(of: relationship)
        guard inverse.isToMany else {
            if try destinationObject(of: member, inverse) === object { try setDestination(nil, of: member, inverse) }
            return
        }
        let storage = try toManyStorage(of: object, relationship)
        guard storage.members.contains(member) else { return }
        try willChangeMembers(of: object, relationship, storage)
        storage.members.remove(member)
        let inverseStorage = try toManyStorage(of: member, inverse)
        try willChangeMembers(of: member, inverse, inverseStorage)
        inverseStorage.members.remove(object)
    }

    /// Replaces the members of a to-many relationship, adding and removing one by one so that every
    /// inverse follows.
    func setMembers(_ members: Set<ManagedObject>, of object: ManagedObject, _ relationship: RelationshipModel) throws {
        for member in members { try checkMember(member, of: relationship, owner: object) }
        let current = try toManyStorage(of: object, relationship).members
        for member in current.subtracting(members) { try removeMember(member, from: object, relationship) }
        for member in members.subtracting(current) { try addMember(member, to: object, relationship) }
    }

    /// Removes `object` from `other`'s side of the relationship (`inverse` is `other`'s).
    private func detach(_ object: ManagedObject, from other: ManagedObject, _ inverse: RelationshipModel) throws {
        if inverse.isToMany {
            let storage = try toManyStorage(of: other, inverse)
            guard storage.members.contains(object) else { return }
            try willChangeMembers(of: other, inverse, storage)
            storage.members.remove(object)
        } else if try destinationObject(of: other, inverse) === object {
            try setState(of: other, inverse, to: .toOne(nil))
        }
    }

    /// Adds `object` to `other`'s side of the relationship.
    private func attach(_ object: ManagedObject, to other: ManagedObject, _ inverse: RelationshipModel) throws {
        if inverse.isToMany {
            let storage = try toManyStorage(of: other, inverse)
            guard !storage.members.contains(object) else { return }
            try willChangeMembers(of: other, inverse, storage)
            storage.members.insert(object)
        } else {
            try setState(of: other, inverse, to: .toOne(object))
        }
    }

    private func setState(of object: ManagedObject, _ relationship: RelationshipModel, to state: RelationshipState) throws {
        _ = try loadedState(of: object, relationship)
        objectWillChange(object)
        object.relations![relationship.index] = state
        object.changedProperties.insert(object.entityModel.attributes.count + relationship.index)
    }

    /// Records a coming change of a to-many: the object is updated and, for a many-to-many, the
    /// committed members are kept so that the save knows which join rows change.
    private func willChangeMembers(of object: ManagedObject, _ relationship: RelationshipModel, _ storage: ToManyStorage) throws {
        objectWillChange(object)
        if case .joinTable = relationship.storage, storage.committed == nil, !object.flags.contains(.inserted) {
            storage.committed = storage.members
        }
        object.changedProperties.insert(object.entityModel.attributes.count + relationship.index)
    }

    /// Refuses destinations of another entity or another context.
    private func checkMember(_ member: ManagedObject?, of relationship: RelationshipModel, owner: ManagedObject) throws {
        guard owner.context === self else { throw ObjectGraphError.objectDetached(owner.objectID) }
        guard let member else { return }
        let destination = model.destination(of: relationship)
        guard member.entityModel === destination else {
            throw ObjectGraphError.wrongValueType(
                entity: owner.entityModel.name, key: relationship.name, expected: destination.name, actual: member.entityModel.name)
        }
        guard member.context === self else { throw ObjectGraphError.objectInAnotherContext(member.objectID) }
    }
}
