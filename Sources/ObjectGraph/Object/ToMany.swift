/// A typed to-many relationship property of a ``ManagedObject`` subclass.
///
///     @ToMany("tags") var tags: RelatedObjects<Tag>
///
///     article.tags = [swift, linux]     // replaces the members, updating every inverse
///     article.$tags.insert(gtk)         // adds one without copying the set
///     article.$tags.remove(linux)
///
/// Reading it loads the member IDs once; the members are faults until used.
@propertyWrapper
public struct ToMany<Target: ManagedObject> {
    /// The relationship's name in the entity.
    public let key: PropertyKey

    /// A property for the relationship named `key` (a string literal).
    @inlinable
    public init(_ key: StaticString) {
        self.key = PropertyKey(key)
    }

    @available(*, unavailable, message: "@ToMany is only for properties of ManagedObject subclasses")
    public var wrappedValue: RelatedObjects<Target> {
        get { fatalError() }
        set { fatalError() }
    }

    @available(*, unavailable, message: "@ToMany is only for properties of ManagedObject subclasses")
    public var projectedValue: ToManyMutation<Target> {
        fatalError()
    }

    @inlinable
    public static subscript<Owner: ManagedObject>(
        _enclosingInstance object: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, RelatedObjects<Target>>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, ToMany<Target>>
    ) -> RelatedObjects<Target> {
        get {
            object.relatedObjects(forKey: object[keyPath: storageKeyPath].key, as: Target.self)
        }
        set {
            object.setMembers(newValue.members, forKey: object[keyPath: storageKeyPath].key)
        }
    }

    @inlinable
    public static subscript<Owner: ManagedObject>(
        _enclosingInstance object: Owner,
        projected projectedKeyPath: KeyPath<Owner, ToManyMutation<Target>>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, ToMany<Target>>
    ) -> ToManyMutation<Target> {
        ToManyMutation(owner: object, key: object[keyPath: storageKeyPath].key)
    }
}

extension ToMany: DeclaredProperty {
    var declaredKey: PropertyKey { key }
    var declaredKind: DeclaredPropertyKind { .toMany(Target.self) }
}

/// Adds and removes single members of a to-many relationship in place (`article.$tags.insert(tag)`).
public struct ToManyMutation<Target: ManagedObject> {
    @usableFromInline let owner: ManagedObject
    @usableFromInline let key: PropertyKey

    @usableFromInline
    init(owner: ManagedObject, key: PropertyKey) {
        self.owner = owner
        self.key = key
    }

    /// Adds `object` to the relationship (and the owner to its inverse).
    public func insert(_ object: Target) {
        owner.addMember(object, forKey: key)
    }

    /// Removes `object` from the relationship (and the owner from its inverse).
    public func remove(_ object: Target) {
        owner.removeMember(object, forKey: key)
    }

    /// The number of members; counts in the store without loading them when still a fault.
    public var count: Int {
        owner.memberCount(forKey: key)
    }
}
