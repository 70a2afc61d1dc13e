/// The stored values of one object at one moment, by name: what a conflict shows a writer.
public struct ObjectSnapshot: Sendable, Hashable, CustomStringConvertible {
    /// Stored attribute values (nil values as `.null`).
    public var attributes: [String: PrimitiveValue]
    /// The destinations of to-one relationships whose key the object's row holds (nil ones are left out).
    public var destinations: [String: ManagedObjectID]

    /// A snapshot of `values` (an object's values or a row's) of `entity`.
    init(entity: EntityModel, values: ValueList, model: SchemaModel) {
        var attributes: [String: PrimitiveValue] = [:]
        for (index, attribute) in entity.attributes.enumerated() where !attribute.isTransient && index < values.count {
            attributes[attribute.name] = values[index]
        }
        var destinations: [String: ManagedObjectID] = [:]
        for relationship in entity.relationships {
            guard let slot = relationship.foreignKeySlot, slot < values.count, case .integer(let key) = values[slot] else { continue }
            destinations[relationship.name] = ManagedObjectID(entity: model.destination(of: relationship), key: key)
        }
        self.attributes = attributes
        self.destinations = destinations
    }

    /// The value of an attribute, nil when the snapshot has no such attribute.
    public subscript(attribute name: String) -> PrimitiveValue? { attributes[name] }

    public var description: String {
        let values = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + destinations.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "{" + values.joined(separator: ", ") + "}"
    }
}
