/// The names of the properties that changed on one object.
///
/// Kept as property positions, so that a save or merge of many objects builds no sets of strings;
/// ask ``contains(_:)`` for the keys that matter (sort keys, predicate keys) or iterate the names.
public struct ChangedKeys: Sendable, Hashable, Sequence, CustomStringConvertible {
    let entity: EntityModel
    let mask: PropertyMask

    init(entity: EntityModel, mask: PropertyMask) {
        self.entity = entity
        self.mask = mask
    }

    /// Every property of the entity: what a change reports when any value may differ.
    static func all(of entity: EntityModel) -> ChangedKeys {
        var mask = PropertyMask()
        for position in 0..<(entity.attributes.count + entity.relationships.count) { mask.insert(position) }
        return ChangedKeys(entity: entity, mask: mask)
    }

    /// The keys named, skipping names the entity does not have.
    init(entity: EntityModel, names: some Sequence<String>) {
        var mask = PropertyMask()
        for name in names {
            if let position = entity.position(ofProperty: name) { mask.insert(position) }
        }
        self.init(entity: entity, mask: mask)
    }

    /// Whether the attribute or relationship named `key` changed.
    public func contains(_ key: String) -> Bool {
        entity.position(ofProperty: key).map(mask.contains) ?? false
    }

    /// Whether no property changed.
    public var isEmpty: Bool { mask.isEmpty }

    /// The changed property names.
    public var names: Set<String> { Set(self) }

    public func makeIterator() -> IndexingIterator<[String]> {
        mask.positions.map(entity.propertyName(at:)).makeIterator()
    }

    public var description: String { "[" + mask.positions.map(entity.propertyName(at:)).joined(separator: ", ") + "]" }

    public static func == (lhs: ChangedKeys, rhs: ChangedKeys) -> Bool {
        lhs.mask == rhs.mask && (lhs.entity === rhs.entity || lhs.entity.name == rhs.entity.name)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity.nameHash)
        hasher.combine(mask)
    }
}

/// An object that changed, and which of its properties did.
public struct UpdatedObject: Sendable, Hashable, CustomStringConvertible {
    /// The object.
    public let objectID: ManagedObjectID
    /// The properties whose values changed (or may have).
    public let changedKeys: ChangedKeys

    init(objectID: ManagedObjectID, changedKeys: ChangedKeys) {
        self.objectID = objectID
        self.changedKeys = changedKeys
    }

    public var description: String { "\(objectID) \(changedKeys)" }
}
