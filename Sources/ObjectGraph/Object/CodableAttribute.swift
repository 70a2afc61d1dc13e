import Foundation

/// A property holding any `Codable` value, stored as JSON in an attribute of type `.json`.
///
///     @CodableAttribute("layout") var layout: PageLayout?
///     @CodableAttribute("margins", default: Margins()) var margins: Margins
///
/// The value is decoded on every read; keep such values small. A stored value that no longer
/// decodes (its type changed without a migration) reads as the default; `value(forKey:)` and
/// ``ManagedObject/decodedValue(forKey:as:)`` throw the decoding error instead.
@propertyWrapper
public struct CodableAttribute<Value: Codable> {
    /// The attribute's name in the entity.
    public let key: PropertyKey
    /// What the property reads while the attribute is nil or does not decode.
    @usableFromInline let defaultValue: Value

    /// An optional value: nil while the attribute is nil.
    @inlinable
    public init(_ key: StaticString) where Value: ExpressibleByNilLiteral {
        self.key = PropertyKey(key)
        self.defaultValue = nil
    }

    /// A value that reads as `default` while the attribute is nil.
    @inlinable
    public init(_ key: StaticString, default defaultValue: Value) {
        self.key = PropertyKey(key)
        self.defaultValue = defaultValue
    }

    @available(*, unavailable, message: "@CodableAttribute is only for properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() }
    }

    @inlinable
    public static subscript<Owner: ManagedObject>(
        _enclosingInstance object: Owner,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, CodableAttribute<Value>>
    ) -> Value {
        get {
            let wrapper = object[keyPath: storageKeyPath]
            return object.codableValue(forKey: wrapper.key, as: Value.self) ?? wrapper.defaultValue
        }
        set {
            object.setCodableValue(newValue, forKey: object[keyPath: storageKeyPath].key)
        }
    }
}

extension CodableAttribute: DeclaredProperty {
    var declaredKey: PropertyKey { key }
    var declaredKind: DeclaredPropertyKind { .codable }
}

/// How `.json` attributes turn into text and back; sorted keys keep equal values equal in the store.
enum JSONAttributeCoding {
    static func encode<Value: Encodable>(_ value: Value) throws -> PrimitiveValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        return text == "null" ? .null : .string(text)
    }

    static func decode<Value: Decodable>(_ stored: PrimitiveValue, as type: Value.Type) throws -> Value {
        let text: String
        switch stored {
        case .string(let json): text = json
        case .null: text = "null"
        default: throw DecodingError.typeMismatch(Value.self, .init(codingPath: [], debugDescription: "stored value is \(stored.kindName)"))
        }
        return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }
}

extension ManagedObject {
    /// The decoded value for ``CodableAttribute``: nil on placeholders, for nil and for text that
    /// does not decode (the wrapper then reads its default).
    @usableFromInline
    final func codableValue<Value: Decodable>(forKey key: PropertyKey, as type: Value.Type) -> Value? {
        if probe != nil { return nil }
        return try? decodedValue(forKey: key.name, as: Value.self)
    }

    /// Encodes a value for ``CodableAttribute``. A value JSON cannot encode (a NaN, say) leaves the
    /// attribute as it was, and the context's next `save()` throws the encoding error.
    @usableFromInline
    final func setCodableValue<Value: Encodable>(_ value: Value, forKey key: PropertyKey) {
        do {
            setPrimitiveValue(try JSONAttributeCoding.encode(value), at: attributeIndex(for: key))
        } catch {
            let failure = ObjectGraphError.unencodableValue(entity: entityModel.name, key: key.name, reason: String(describing: error))
            guard let context else { preconditionFailure(failure.description) }
            context.deferredFailures.append(failure)
        }
    }

    /// Decodes a `.json` attribute, throwing the decoding error rather than falling back.
    public final func decodedValue<Value: Decodable>(forKey key: String, as type: Value.Type) throws -> Value {
        guard let index = entityModel.attributeIndex[key] else {
            throw ObjectGraphError.unknownKey(entity: entityModel.name, key: key)
        }
        if let context {
            context.checkAccess()
            try context.fulfillFault(of: self)
        }
        do {
            return try JSONAttributeCoding.decode(values[index], as: Value.self)
        } catch {
            throw ObjectGraphError.undecodableValue(entity: entityModel.name, key: key, reason: String(describing: error))
        }
    }
}
