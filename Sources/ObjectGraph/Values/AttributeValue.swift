import Foundation

/// A Swift type a typed attribute property can have: `@Attribute("title") var title: String`.
///
/// ObjectGraph conforms `String`, `Int`, `Int16`, `Int32`, `Int64`, `Double`, `Decimal`, `Bool`,
/// `Date`, `UUID`, `Data`, `URL` and `Optional` of each. An enum with a raw value of one of those
/// types conforms by declaring it (it must also be `CaseIterable`, so a placeholder case exists):
///
///     enum SyncState: String, AttributeValue, CaseIterable { case pending, synced }
public protocol AttributeValue {
    /// The attribute type a property of this Swift type maps to.
    static var attributeType: AttributeType { get }
    /// Whether the Swift type can hold nil; true only for `Optional`.
    static var isOptional: Bool { get }
    /// Reads the value from its stored form; nil when the stored value has another type.
    init?(primitiveValue: PrimitiveValue)
    /// The stored form of the value.
    var primitiveValue: PrimitiveValue { get }
    /// A valid value of the type. Reading a required attribute that was never set returns it, and
    /// key paths are resolved to attribute names by reading it from a placeholder object.
    static var emptyValue: Self { get }
}

extension AttributeValue {
    public static var isOptional: Bool { false }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var isOptional: Bool { true }

    public init?(primitiveValue: PrimitiveValue) {
        if case .null = primitiveValue { self = .none; return }
        guard let wrapped = Wrapped(primitiveValue: primitiveValue) else { return nil }
        self = .some(wrapped)
    }

    public var primitiveValue: PrimitiveValue { self?.primitiveValue ?? .null }
    public static var emptyValue: Wrapped? { nil }
}

extension String: AttributeValue {
    public static var attributeType: AttributeType { .string }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .string(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .string(self) }
    public static var emptyValue: String { "" }
}

extension Int: AttributeValue {
    public static var attributeType: AttributeType { .integer64 }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .integer(let value) = primitiveValue else { return nil }
        self = Int(value)
    }
    public var primitiveValue: PrimitiveValue { .integer(Int64(self)) }
    public static var emptyValue: Int { 0 }
}

extension Int64: AttributeValue {
    public static var attributeType: AttributeType { .integer64 }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .integer(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .integer(self) }
    public static var emptyValue: Int64 { 0 }
}

extension Int32: AttributeValue {
    public static var attributeType: AttributeType { .integer32 }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .integer(let value) = primitiveValue, let narrow = Int32(exactly: value) else { return nil }
        self = narrow
    }
    public var primitiveValue: PrimitiveValue { .integer(Int64(self)) }
    public static var emptyValue: Int32 { 0 }
}

extension Int16: AttributeValue {
    public static var attributeType: AttributeType { .integer16 }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .integer(let value) = primitiveValue, let narrow = Int16(exactly: value) else { return nil }
        self = narrow
    }
    public var primitiveValue: PrimitiveValue { .integer(Int64(self)) }
    public static var emptyValue: Int16 { 0 }
}

extension Double: AttributeValue {
    public static var attributeType: AttributeType { .double }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .double(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .double(self) }
    public static var emptyValue: Double { 0 }
}

extension Decimal: AttributeValue {
    public static var attributeType: AttributeType { .decimal }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .decimal(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .decimal(self) }
    public static var emptyValue: Decimal { 0 }
}

extension Bool: AttributeValue {
    public static var attributeType: AttributeType { .boolean }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .bool(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .bool(self) }
    public static var emptyValue: Bool { false }
}

extension Date: AttributeValue {
    public static var attributeType: AttributeType { .date }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .date(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .date(self) }
    public static var emptyValue: Date { Date(timeIntervalSince1970: 0) }
}

extension UUID: AttributeValue {
    public static var attributeType: AttributeType { .uuid }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .uuid(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .uuid(self) }
    public static var emptyValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension Data: AttributeValue {
    public static var attributeType: AttributeType { .binaryData }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .data(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .data(self) }
    public static var emptyValue: Data { Data() }
}

extension URL: AttributeValue {
    public static var attributeType: AttributeType { .uri }
    public init?(primitiveValue: PrimitiveValue) {
        guard case .url(let value) = primitiveValue else { return nil }
        self = value
    }
    public var primitiveValue: PrimitiveValue { .url(self) }
    public static var emptyValue: URL { URL(string: "about:blank")! }
}

extension AttributeValue where Self: RawRepresentable & CaseIterable, RawValue: AttributeValue {
    public static var attributeType: AttributeType { RawValue.attributeType }
    public init?(primitiveValue: PrimitiveValue) {
        guard let raw = RawValue(primitiveValue: primitiveValue) else { return nil }
        self.init(rawValue: raw)
    }
    public var primitiveValue: PrimitiveValue { rawValue.primitiveValue }
    public static var emptyValue: Self { allCases.first! }
}
