/// A relationship resolved against the whole schema: its destination, its inverse and where the
/// store keeps it.
struct RelationshipModel: Sendable {
    /// Where a relationship lives in the store.
    enum Storage: Sendable, Hashable {
        /// A column of this entity's table holding the destination's primary key; `slot` is its
        /// position in an object's values.
        case foreignKey(column: String, slot: Int)
        /// The destination's table holds this object's primary key in `column` (the other side of a
        /// foreign key).
        case inverseForeignKey(column: String)
        /// A many-to-many: rows of `table` pair this object's key (`ownColumn`) with a destination's.
        case joinTable(table: String, ownColumn: String, otherColumn: String)
    }

    /// Position among the entity's relationships.
    let index: Int
    let description: RelationshipDescription
    /// Number of the destination entity in the schema model.
    let destination: Int
    /// Position of the inverse among the destination's relationships.
    let inverse: Int
    let storage: Storage

    /// The foreign-key slot, when this entity's row holds the key.
    let foreignKeySlot: Int?
    /// The join table and its columns, for a many-to-many.
    let joinTable: (table: String, ownColumn: String, otherColumn: String)?

    init(index: Int, description: RelationshipDescription, destination: Int, inverse: Int, storage: Storage) {
        self.index = index
        self.description = description
        self.destination = destination
        self.inverse = inverse
        self.storage = storage
        // Kept as plain values: hot loops read them without matching on the enum.
        switch storage {
        case .foreignKey(_, let slot):
            foreignKeySlot = slot
            joinTable = nil
        case .inverseForeignKey:
            foreignKeySlot = nil
            joinTable = nil
        case .joinTable(let table, let ownColumn, let otherColumn):
            foreignKeySlot = nil
            joinTable = (table, ownColumn, otherColumn)
        }
    }

    var name: String { description.name }
    var isToMany: Bool { description.isToMany }
    var deleteRule: DeleteRule { description.deleteRule }

}
