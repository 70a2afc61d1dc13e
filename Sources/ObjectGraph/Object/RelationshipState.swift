/// What an object knows about one of its relationships.
enum RelationshipState {
    /// Not loaded. A to-one that holds the foreign key reads it from the object's values.
    case fault
    /// A loaded to-one.
    case toOne(ManagedObject?)
    /// A loaded to-many.
    case toMany(ToManyStorage)
    /// A to-many not loaded, changed from its inverse side since it was last loaded or saved:
    /// filing one article in a folder of 20,000 must not read the 20,000 (a Core Data to-many fault
    /// stays a fault when its inverse changes, too). Loading applies the changes; saving writes them.
    case unloadedToMany(PendingMembers)
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

/// The changes of a to-many that is not loaded: the members added and removed since, relative to
/// the members its source (the store, or the parent context) holds. An object is in at most one of
/// the two sets: the last change to it wins, whatever the source holds.
final class PendingMembers {
    private(set) var added: Set<ManagedObject> = []
    private(set) var removed: Set<ManagedObject> = []

    func add(_ member: ManagedObject) {
        removed.remove(member)
        added.insert(member)
    }

    func remove(_ member: ManagedObject) {
        added.remove(member)
        // An object inserted in this context has no row the source could hold: forgetting its
        // addition is all. (Kept as removed, its temporary key reached the parent of a child that
        // inserted, filed and deleted it, which registered an object for a row that never was.)
        guard !member.flags.contains(.inserted) else { return }
        removed.insert(member)
    }

    /// The keys of every changed member, added or removed.
    var changedKeys: Set<Int64> {
        Set(added.lazy.map(\.key)).union(removed.lazy.map(\.key))
    }

    /// The members after these changes, given those the source holds.
    func applied(to stored: Set<ManagedObject>) -> Set<ManagedObject> {
        stored.subtracting(removed).union(added)
    }
}
