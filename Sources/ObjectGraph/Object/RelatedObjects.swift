/// The members of a to-many relationship: an unordered collection of objects of one class.
///
/// It is a value: changing it changes nothing until it is assigned back to the property, which
/// then updates every inverse (`article.tags = RelatedObjects(newTags)`).
public struct RelatedObjects<Target: ManagedObject>: Collection, ExpressibleByArrayLiteral {
    @usableFromInline var members: Set<ManagedObject>

    @usableFromInline
    init(members: Set<ManagedObject>) {
        self.members = members
    }

    /// No objects.
    public init() {
        members = []
    }

    /// The given objects (duplicates count once).
    public init<Objects: Sequence>(_ objects: Objects) where Objects.Element == Target {
        members = Set(objects.lazy.map { $0 as ManagedObject })
    }

    public init(arrayLiteral elements: Target...) {
        self.init(elements)
    }

    public typealias Index = Set<ManagedObject>.Index

    public var startIndex: Index { members.startIndex }
    public var endIndex: Index { members.endIndex }
    public func index(after index: Index) -> Index { members.index(after: index) }
    public subscript(position: Index) -> Target { unsafeDowncast(members[position], to: Target.self) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    /// Whether `object` is a member, without scanning.
    public func contains(_ object: Target) -> Bool { members.contains(object) }

    /// Adds `object`; false when it was already a member.
    @discardableResult
    public mutating func insert(_ object: Target) -> Bool { members.insert(object).inserted }

    /// Removes `object`, returning it when it was a member.
    @discardableResult
    public mutating func remove(_ object: Target) -> Target? {
        members.remove(object).map { unsafeDowncast($0, to: Target.self) }
    }
}
