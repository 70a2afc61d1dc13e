/// A typed attribute property of a ``ManagedObject`` subclass.
///
///     @Attribute("title") var title: String
///     @Attribute("rating") var rating: Int16?
///
/// The name must be an attribute of the class's entity, and the Swift type must match its type and
/// optionality; the container checks both when it loads. Reading a fault loads the row; reading a
/// required attribute that was never set gives the type's empty value (and `save()` reports it).
@propertyWrapper
public struct Attribute<Value: AttributeValue> {
    /// The attribute's name in the entity.
    public let key: PropertyKey

    /// A property for the attribute named `key` (a string literal).
    @inlinable
    public init(_ key: StaticString) {
        self.key = PropertyKey(key)
    }

    @available(*, unavailable, message: "@Attribute is only for properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    // Inlinable so that the key path to the wrapper is applied directly in the model class's module.
    @inlinable
    public static subscript<Owner: ManagedObject>(
        _enclosingInstance object: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Attribute<Value>>
    ) -> Value {
        get { object.typedValue(forKey: object[keyPath: storageKeyPath].key, as: Value.self) }
        set { object.setTypedValue(newValue, forKey: object[keyPath: storageKeyPath].key) }
    }
}

extension Attribute: DeclaredProperty {
    var declaredKey: PropertyKey { key }
    var declaredKind: DeclaredPropertyKind { .attribute(Value.attributeType, optional: Value.isOptional) }
}
