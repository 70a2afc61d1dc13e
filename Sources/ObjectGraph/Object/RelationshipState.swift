/// What an object knows about one of its relationships.
enum RelationshipState {
    /// Not loaded. A to-one that holds the foreign key reads it from the object's values.
    case fault
    /// A loaded to-one.
    case toOne(ManagedObject?)
    /// A loaded to-many.
    case toMany(ToManyStorage)
}

/// The members of a loaded to-many relationship, mutated in place so that adding one object does
/// not copy the set.
final class ToManyStorage {
    var members: Set<ManagedObject>
    /// The members as last read from or written to the store, kept once a many-to-many changes so
    /// that the save knows which join rows to add and remove.
    var committed: Set<ManagedObject>?

    init(_ members: Set<ManagedObject>) {
        self.members = members
    }
}
