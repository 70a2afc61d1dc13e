/// A typed to-one relationship property of a ``ManagedObject`` subclass.
///
///     @ToOne("folder") var folder: Folder?
///
/// Setting it updates the inverse on both the old and the new destination. Reading it may load the
/// destination's row lazily: the destination is a fault until one of its properties is read.
@propertyWrapper
public struct ToOne<Target: ManagedObject> {
    /// The relationship's name in the entity.
    public let key: PropertyKey

    /// A property for the relationship named `key` (a string literal).
    @inlinable
    public init(_ key: StaticString) {
        self.key = PropertyKey(key)
    }

    @available(*, unavailable, message: "@ToOne is only for properties of ManagedObject subclasses")
    public var wrappedValue: Target? {
        get { fatalError() }
        set { fatalError() }
    }

    @inlinable
    public static subscript<Owner: ManagedObject>(
        _enclosingInstance object: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Target?>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, ToOne<Target>>
    ) -> Target? {
        get {
            object.destination(forKey: object[keyPath: storageKeyPath].key, as: Target.self)
        }
        set {
            object.setDestination(newValue, forKey: object[keyPath: storageKeyPath].key)
        }
    }
}

extension ToOne: DeclaredProperty {
    var declaredKey: PropertyKey { key }
    var declaredKind: DeclaredPropertyKind { .toOne(Target.self) }
}
