import Foundation

/// The identity of an object, valid in every context of the same store and safe to send between
/// isolation domains.
///
/// New objects have a temporary ID, known only to the context that inserted them; saving (or
/// `obtainPermanentIDs(for:)`) gives them a permanent one. A permanent ID's
/// ``uriRepresentation`` survives restarts: `PersistentContainer.managedObjectID(forURIRepresentation:)`
/// turns it back into an ID.
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The compiled entity, which also knows the store's identifier.
    let entity: EntityModel
    /// The row's primary key when positive; a temporary key when negative.
    let key: Int64

    init(entity: EntityModel, key: Int64) {
        self.entity = entity
        self.key = key
    }

    /// The name of the object's entity.
    public var entityName: String { entity.name }

    /// Whether the ID is temporary (the object has not been saved yet).
    public var isTemporaryID: Bool { key <= 0 }

    /// The identifier of the store the object lives in.
    public var storeIdentifier: UUID { entity.storeIdentifier }

    /// `objectgraph://STORE-UUID/Entity/p42` for a permanent ID, `.../t7` for a temporary one.
    public var uriRepresentation: URL {
        let path = key > 0 ? "p\(key)" : "t\(-key)"
        return URL(string: "objectgraph://\(entity.storeIdentifier.uuidString)/\(entity.name)/\(path)")!
    }

    public var description: String { uriRepresentation.absoluteString }

    /// IDs are equal when they name the same row of the same store, also when two containers
    /// opened the store (each has its own entity models).
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key
            && (lhs.entity === rhs.entity
                || lhs.entity.name == rhs.entity.name && lhs.entity.storeIdentifier == rhs.entity.storeIdentifier)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(entity.nameHash)
    }
}
