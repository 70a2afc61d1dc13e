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

    var name: String { description.name }
    var isToMany: Bool { description.isToMany }
    var deleteRule: DeleteRule { description.deleteRule }

    /// The foreign-key slot, when this entity's row holds the key.
    var foreignKeySlot: Int? {
        if case .foreignKey(_, let slot) = storage { return slot }
        return nil
    }
}
