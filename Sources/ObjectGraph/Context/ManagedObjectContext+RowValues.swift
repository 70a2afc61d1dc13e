import Foundation

/// What an object's row holds, and which of its columns a save changes: its values with each
/// foreign key taken from the loaded to-one relationship. The save (``RowWriter``), merges, faults
/// and child contexts read objects through these.
extension ManagedObjectContext {
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
    func setSlots(of object: ManagedObject) -> PropertyMask {
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
    func toManyChanges(of object: ManagedObject) -> PropertyMask {
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

    /// The value a uniqueness constraint sees in one slot: attributes by value, to-one relationships
    /// by their destination's key.
    func uniqueValue(of object: ManagedObject, slot: Int) -> PrimitiveValue {
        let entity = object.entityModel
        if slot >= entity.attributes.count,
           let relationship = entity.relationships.first(where: { $0.foreignKeySlot == slot }),
           case .toOne(let target)? = state(of: object, relationship) {
            return target.map { .integer($0.key) } ?? .null
        }
        return object.values[slot]
    }

    /// The change-mask positions of the value slots that differ between two value lists.
    static func slotsDiffering(_ lhs: ValueList, _ rhs: ValueList, in entity: EntityModel) -> PropertyMask {
        var mask = PropertyMask()
        for slot in 0..<min(lhs.count, rhs.count) where lhs[slot] != rhs[slot] {
            if let position = entity.position(ofSlot: slot) { mask.insert(position) }
        }
        return mask
    }
}
