/// What a resolved conflict does to the object and to the stored row: the pure part of conflict
/// resolution, shared by saves to the store and saves into a parent.
enum ConflictOutcome: Equatable {
    /// The object's new state, written over the stored row (or as a new row when the row is gone).
    case write(ValueList)
    /// The object takes the stored state and drops its changes (it is deleted when the row is gone).
    case takeStore
    /// The object's delete goes ahead.
    case delete

    /// The outcome of `resolution` for an object of `entity`.
    ///
    /// - Parameters:
    ///   - current: the object's values now, foreign keys included.
    ///   - snapshot: the values the object was read with (nil for an inserted object).
    ///   - store: the stored values now (nil when the row is gone).
    ///   - changed: the value slots the object changed (for an inserted object, those it set).
    static func of(
        _ resolution: MergeResolution, entity: EntityModel, current: ValueList, snapshot: ValueList?,
        store: ValueList?, changed: PropertyMask, deletesObject: Bool
    ) throws -> ConflictOutcome {
        if deletesObject { return .delete }
        var target: ValueList
        switch resolution {
        case .keepStore:
            return .takeStore
        case .keepObject:
            target = current
        case .mergeByProperty(.object):
            guard let store else { return .write(current) }
            target = store
            changed.forEach { slot in target[slot] = current[slot] }
        case .mergeByProperty(.store):
            guard let store, let snapshot else { return .takeStore }
            target = store
            changed.forEach { slot in
                if store[slot] == snapshot[slot] { target[slot] = current[slot] }
            }
        case .values(let values):
            target = store ?? current
            for (name, value) in values {
                guard let index = entity.attributeIndex[name] else {
                    throw ObjectGraphError.unknownKey(entity: entity.name, key: name)
                }
                let type = entity.attributes[index].type
                guard let coerced = type.coerce(value), !type.isOutOfRange(coerced) else {
                    throw ObjectGraphError.wrongValueType(entity: entity.name, key: name, expected: type.rawValue, actual: value.kindName)
                }
                target[index] = coerced
            }
        }
        // Transient values live in memory only: the object keeps its own.
        for (index, attribute) in entity.attributes.enumerated() where attribute.isTransient { target[index] = current[index] }
        return .write(target)
    }
}
