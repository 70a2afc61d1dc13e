import Foundation

/// Relationships in memory: loading them lazily from the store, and keeping both sides of every
/// relationship in step when one side changes.
///
/// A change made from one side reaches the other side's loaded state, or, when the other side is a
/// to-many that is not loaded, its pending changes (``PendingMembers``): loading applies them, a
/// save writes them and then lets the relationship be a plain fault again, a rollback drops them
/// with the object's other changes. So filing an article never reads the folder's other articles.
/// The side a change names is loaded (setting all members must know the current ones, and adding
/// one must know whether it is there), and so is a one-to-one partner.
extension ManagedObjectContext {
    // MARK: Reading

    /// The relationship's state, loaded from the store when it is still a fault (with its pending
    /// changes applied); never `.fault` or `.unloadedToMany`. Inserted objects start with empty
    /// relationships.
    func loadedState(of object: ManagedObject, _ relationship: RelationshipModel) throws -> RelationshipState {
        var pending: PendingMembers?
        switch object.relations?[relationship.index] {
        case .unloadedToMany(let changes)?: pending = changes
        case .fault?, nil: break
        case let state?: return state
        }
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
                if relationship.isToMany {
                    let stored = Set(objects)
                    let storage = ToManyStorage(pending?.applied(to: stored) ?? stored)
                    // The save writes the join rows that differ from what the source holds.
                    if pending != nil, relationship.joinTable != nil { storage.committed = stored }
                    state = .toMany(storage)
                } else {
                    state = .toOne(objects.first)
                }
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

    /// The number of members of a to-many, counted in the store (or the parent) when it is not
    /// loaded: pending changes count as they are, the other members as the source holds them.
    func memberCount(of object: ManagedObject, _ relationship: RelationshipModel) throws -> Int {
        var pending: PendingMembers?
        switch state(of: object, relationship) {
        case .toMany(let storage)?: return storage.members.count
        case .unloadedToMany(let changes)?: pending = changes
        default: break
        }
        if object.flags.contains(.inserted) { return 0 }
        if case .foreignKey = relationship.storage { return try destinationObject(of: object, relationship) == nil ? 0 : 1 }
        let changedKeys = pending?.changedKeys ?? []
        return try sourceMemberCount(of: object, relationship, excluding: changedKeys) + (pending?.added.count ?? 0)
    }

    /// The number of members the source holds, leaving out `excluded` keys.
    private func sourceMemberCount(of object: ManagedObject, _ relationship: RelationshipModel, excluding excluded: Set<Int64>) throws -> Int {
        if parent != nil {
            return try Set(sourceDestinationKeys(ofKey: object.key, object.entityModel, relationship)).subtracting(excluded).count
        }
        let table: String, ownColumn: String, memberColumn: String
        switch relationship.storage {
        case .inverseForeignKey(let column):
            (table, ownColumn, memberColumn) = (model.destination(of: relationship).table, SQL.quote(column), "_pk")
        case .joinTable(let joinTable, let own, let other):
            (table, ownColumn, memberColumn) = (joinTable, own, other)
        case .foreignKey:
            preconditionFailure("\(relationship.name) holds a key, not members")
        }
        let countSQL = "SELECT count(*) FROM \(table) WHERE \(ownColumn) = ?"
        let stored = excluded.filter { $0 > 0 }.sorted()
        return try persistentStore.read { connection in
            var count = try connection.scalar(countSQL, [.integer(object.key)])?.integerValue ?? 0
            for start in stride(from: 0, to: stored.count, by: EntityModel.keyBatchSize) {
                let batch = stored[start..<min(start + EntityModel.keyBatchSize, stored.count)]
                let placeholders = Array(repeating: "?", count: batch.count).joined(separator: ", ")
                count -= try connection.scalar(
                    "\(countSQL) AND \(memberColumn) IN (\(placeholders))", [.integer(object.key)] + batch.map { .integer($0) }
                )?.integerValue ?? 0
            }
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
        guard try !toManyStorage(of: object, relationship).members.contains(member) else { return }
        try include(member, in: object, relationship)
        try include(object, in: member, inverse)
    }

    /// Removes `member` from a to-many relationship and `object` from the member's inverse.
    func removeMember(_ member: ManagedObject, from object: ManagedObject, _ relationship: RelationshipModel) throws {
        try checkMember(member, of: relationship, owner: object)
        let inverse = model.inverse(of: relationship)
        guard inverse.isToMany else {
            if try destinationObject(of: member, inverse) === object { try setDestination(nil, of: member, inverse) }
            return
        }
        guard try toManyStorage(of: object, relationship).members.contains(member) else { return }
        try exclude(member, from: object, relationship)
        try exclude(object, from: member, inverse)
    }

    /// Replaces the members of a to-many relationship, adding and removing one by one so that every
    /// inverse follows.
    func setMembers(_ members: Set<ManagedObject>, of object: ManagedObject, _ relationship: RelationshipModel) throws {
        for member in members { try checkMember(member, of: relationship, owner: object) }
        let current = try toManyStorage(of: object, relationship).members
        for member in current.subtracting(members) { try removeMember(member, from: object, relationship) }
        for member in members.subtracting(current) { try addMember(member, to: object, relationship) }
    }

    /// Changes one side of a to-many only, as pending changes when it is not loaded: a child's save
    /// brings the pending changes of a side it did not load this way. The other sides come with
    /// their own objects (their changes are loaded ones), or are deleted (and their delete rules
    /// run again in this context's save).
    func changeOneSide(
        of object: ManagedObject, _ relationship: RelationshipModel, adding added: [ManagedObject], removing removed: [ManagedObject]
    ) throws {
        for member in removed { try exclude(member, from: object, relationship) }
        for member in added { try include(member, in: object, relationship) }
    }

    /// Removes `object` from `other`'s side of the relationship (`inverse` is `other`'s).
    private func detach(_ object: ManagedObject, from other: ManagedObject, _ inverse: RelationshipModel) throws {
        if inverse.isToMany {
            try exclude(object, from: other, inverse)
        } else if try destinationObject(of: other, inverse) === object {
            try setState(of: other, inverse, to: .toOne(nil))
        }
    }

    /// Adds `object` to `other`'s side of the relationship.
    private func attach(_ object: ManagedObject, to other: ManagedObject, _ inverse: RelationshipModel) throws {
        if inverse.isToMany {
            try include(object, in: other, inverse)
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

    /// Adds `member` to one side of a to-many: to its members when loaded, else to its pending changes.
    private func include(_ member: ManagedObject, in owner: ManagedObject, _ relationship: RelationshipModel) throws {
        switch try changingMembers(of: owner, relationship) {
        case .loaded(let storage):
            guard !storage.members.contains(member) else { return }
            willChangeMembers(of: owner, relationship, storage)
            storage.members.insert(member)
        case .pending(let pending):
            willChangeMembers(of: owner, relationship, nil)
            pending.add(member)
        }
    }

    /// Removes `member` from one side of a to-many: from its members when loaded, else through its
    /// pending changes.
    private func exclude(_ member: ManagedObject, from owner: ManagedObject, _ relationship: RelationshipModel) throws {
        switch try changingMembers(of: owner, relationship) {
        case .loaded(let storage):
            guard storage.members.contains(member) else { return }
            willChangeMembers(of: owner, relationship, storage)
            storage.members.remove(member)
        case .pending(let pending):
            willChangeMembers(of: owner, relationship, nil)
            pending.remove(member)
        }
    }

    /// Where a change to one side of a to-many goes.
    private enum MembersToChange {
        case loaded(ToManyStorage)
        case pending(PendingMembers)
    }

    /// The loaded members of a to-many, or the pending changes of one that is not loaded (an
    /// inserted object's relationships load for free, so they are loaded instead).
    private func changingMembers(of owner: ManagedObject, _ relationship: RelationshipModel) throws -> MembersToChange {
        switch owner.relations?[relationship.index] {
        case .toMany(let storage)?:
            return .loaded(storage)
        case .unloadedToMany(let pending)?:
            return .pending(pending)
        default:
            if owner.flags.contains(.inserted) { return .loaded(try toManyStorage(of: owner, relationship)) }
            let pending = PendingMembers()
            if owner.relations == nil {
                owner.relations = ContiguousArray(repeating: .fault, count: owner.entityModel.relationships.count)
            }
            owner.relations![relationship.index] = .unloadedToMany(pending)
            return .pending(pending)
        }
    }

    /// Records a coming change of a to-many: the object is updated and, for a loaded many-to-many,
    /// the committed members are kept so that the save knows which join rows change (pending
    /// changes are the join rows that change).
    private func willChangeMembers(of object: ManagedObject, _ relationship: RelationshipModel, _ storage: ToManyStorage?) {
        objectWillChange(object)
        if let storage, case .joinTable = relationship.storage, storage.committed == nil, !object.flags.contains(.inserted) {
            storage.committed = storage.members
        }
        object.changedProperties.insert(object.entityModel.attributes.count + relationship.index)
    }

    /// Turns the pending changes of an object's unloaded to-manys into plain faults, once their
    /// source holds them (the object was saved to the store or into the parent).
    func settlePendingMembers(of object: ManagedObject) {
        guard object.relations != nil else { return }
        for index in object.relations!.indices {
            if case .unloadedToMany = object.relations![index] { object.relations![index] = .fault }
        }
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
