import Foundation

/// Untyped access by property name, for entities without a class of their own, migrations and
/// generic tools. Every misuse throws an ``ObjectGraphError`` naming the entity and key.
extension ManagedObject {
    /// The value of an attribute (`String`, `Int64`, `Double`, `Decimal`, `Bool`, `Date`, `UUID`,
    /// `Data`, `URL`, or the JSON text of a `.json` attribute; nil when unset), the destination of a
    /// to-one relationship (`ManagedObject?`), or the members of a to-many (`Set<ManagedObject>`).
    public final func value(forKey key: String) throws -> Any? {
        if let index = entityModel.attributeIndex[key] {
            try loadForKeyValueAccess()
            return loadingExternalValue(values[index], at: index).swiftValue
        }
        guard let index = entityModel.relationshipIndex[key] else {
            throw ObjectGraphError.unknownKey(entity: entityModel.name, key: key)
        }
        let relationship = entityModel.relationships[index]
        guard let context else {
            switch relations?[index] {
            case .toOne(let target)?: return target
            case .toMany(let storage)?: return storage.members
            default: throw ObjectGraphError.objectDetached(objectID)
            }
        }
        context.checkAccess()
        switch try context.loadedState(of: self, relationship) {
        case .toOne(let target): return target
        case .toMany(let storage): return storage.members
        case .fault, .unloadedToMany: return nil
        }
    }

    /// Sets an attribute (a value of its Swift type, or nil), a to-one relationship (a
    /// `ManagedObject` or nil) or a to-many (a `Set` or `Array` of objects), with the same effects
    /// as the typed properties.
    public final func setValue(_ value: Any?, forKey key: String) throws {
        if let index = entityModel.attributeIndex[key] {
            let attribute = entityModel.attributes[index]
            guard let primitive = PrimitiveValue(any: value), let coerced = attribute.type.coerce(primitive) else {
                throw ObjectGraphError.wrongValueType(
                    entity: entityModel.name, key: key, expected: attribute.type.rawValue,
                    actual: value.map { "\(type(of: $0))" } ?? "nil")
            }
            if attribute.type.isOutOfRange(coerced) {
                throw ObjectGraphError.valueOutOfRange(entity: entityModel.name, key: key, value: coerced.description)
            }
            try loadForKeyValueAccess()
            setPrimitiveValue(coerced, at: index)
            return
        }
        guard let index = entityModel.relationshipIndex[key] else {
            throw ObjectGraphError.unknownKey(entity: entityModel.name, key: key)
        }
        guard let context else { throw ObjectGraphError.objectDetached(objectID) }
        context.checkAccess()
        let relationship = entityModel.relationships[index]
        if relationship.isToMany {
            let members: Set<ManagedObject>
            switch value {
            case nil: members = []
            case let set as Set<ManagedObject>: members = set
            case let array as [ManagedObject]: members = Set(array)
            default:
                throw ObjectGraphError.wrongValueType(
                    entity: entityModel.name, key: key, expected: "Set<ManagedObject>", actual: "\(type(of: value!))")
            }
            try context.setMembers(members, of: self, relationship)
        } else {
            guard value == nil || value is ManagedObject else {
                throw ObjectGraphError.wrongValueType(
                    entity: entityModel.name, key: key, expected: "ManagedObject", actual: "\(type(of: value!))")
            }
            try context.setDestination(value as? ManagedObject, of: self, relationship)
        }
    }

    /// The changed properties with their new values: attribute values as `value(forKey:)` gives
    /// them, relationships as the destination object or the set of members.
    public final func changedValues() -> [String: Any?] {
        context?.checkAccess()
        var result: [String: Any?] = [:]
        for position in changedProperties.positions {
            let name = entityModel.propertyName(at: position)
            if position < entityModel.attributes.count {
                result[name] = values[position].swiftValue
            } else {
                let index = position - entityModel.attributes.count
                switch relations?[index] {
                case .toOne(let target)?: result[name] = .some(target)
                case .toMany(let storage)?: result[name] = storage.members
                // Changed from its inverse side while not loaded: its members are loaded to be reported.
                case .unloadedToMany?: result[name] = members(of: entityModel.relationships[index])
                default: break
                }
            }
        }
        return result
    }

    /// The attribute values as last read from or written to the store (all attributes when `keys`
    /// is nil). Relationships that hold a key report the destination's ID.
    public final func committedValues(forKeys keys: [String]? = nil) -> [String: Any?] {
        context?.checkAccess()
        let snapshot = committedValues ?? values
        var result: [String: Any?] = [:]
        for (index, attribute) in entityModel.attributes.enumerated() where !attribute.isTransient && index < snapshot.count {
            if keys == nil || keys!.contains(attribute.name) { result[attribute.name] = snapshot[index].swiftValue }
        }
        for relationship in entityModel.relationships {
            guard let slot = relationship.foreignKeySlot, slot < snapshot.count,
                  keys == nil || keys!.contains(relationship.name) else { continue }
            if case .integer(let key) = snapshot[slot], let destination = context?.model.destination(of: relationship) {
                result[relationship.name] = ManagedObjectID(entity: destination, key: key)
            } else {
                result[relationship.name] = .some(nil)
            }
        }
        return result
    }

    private func loadForKeyValueAccess() throws {
        guard let context else {
            if flags.contains(.fault) { throw ObjectGraphError.objectDetached(objectID) }
            return
        }
        context.checkAccess()
        try context.fulfillFault(of: self)
    }
}
