import Foundation

/// The value of one attribute as ObjectGraph keeps it in memory, binds it to SQLite and compares it
/// in predicates.
///
/// Typed properties (`@Attribute var title: String`) convert to and from this enum through
/// ``AttributeValue``; the untyped `value(forKey:)` returns the Swift value inside it. Literals make
/// defaults readable: `AttributeDescription("title", .string, default: "Untitled")`.
public enum PrimitiveValue: Sendable, Hashable {
    case null
    case string(String)
    case integer(Int64)
    case double(Double)
    /// Stored as exact decimal text, so no digit is lost.
    case decimal(Decimal)
    case bool(Bool)
    /// Stored as seconds since 1970 (a SQLite REAL).
    case date(Date)
    /// Stored as a 16-byte blob.
    case uuid(UUID)
    case data(Data)
    case url(URL)

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as a row holds it once written: SQLite stores a NaN number or date as NULL. What
    /// evaluates or orders values in memory as a query would (``PredicateEvaluator``,
    /// ``SortKeyColumn``) reads them through this.
    var asStored: PrimitiveValue {
        switch self {
        case .double(let number) where number.isNaN: return .null
        case .date(let date) where date.timeIntervalSince1970.isNaN: return .null
        default: return self
        }
    }

    /// The Swift value inside (`String`, `Int64`, `Double`, `Decimal`, `Bool`, `Date`, `UUID`,
    /// `Data`, `URL`), or nil for `.null`.
    public var swiftValue: (any Sendable)? {
        switch self {
        case .null: return nil
        case .string(let value): return value
        case .integer(let value): return value
        case .double(let value): return value
        case .decimal(let value): return value
        case .bool(let value): return value
        case .date(let value): return value
        case .uuid(let value): return value
        case .data(let value): return value
        case .url(let value): return value
        }
    }

    /// A short name of the kind of value, for error messages.
    var kindName: String {
        switch self {
        case .null: return "nil"
        case .string: return "String"
        case .integer: return "Int64"
        case .double: return "Double"
        case .decimal: return "Decimal"
        case .bool: return "Bool"
        case .date: return "Date"
        case .uuid: return "UUID"
        case .data: return "Data"
        case .url: return "URL"
        }
    }

    /// Wraps an untyped Swift value, as `setValue(_:forKey:)` receives it.
    ///
    /// Returns nil for a type ObjectGraph does not store. Integers of every width become `.integer`;
    /// the attribute's type decides later whether the value fits.
    init?(any value: Any?) {
        guard let value else { self = .null; return }
        switch value {
        case let value as PrimitiveValue: self = value
        case let value as String: self = .string(value)
        case let value as Substring: self = .string(String(value))
        case let value as Int: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as Int32: self = .integer(Int64(value))
        case let value as Int16: self = .integer(Int64(value))
        case let value as Int8: self = .integer(Int64(value))
        case let value as UInt8: self = .integer(Int64(value))
        case let value as UInt16: self = .integer(Int64(value))
        case let value as UInt32: self = .integer(Int64(value))
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as Decimal: self = .decimal(value)
        case let value as Bool: self = .bool(value)
        case let value as Date: self = .date(value)
        case let value as UUID: self = .uuid(value)
        case let value as Data: self = .data(value)
        case let value as URL: self = .url(value)
        default:
            // `Optional<Optional<T>>.none` arrives as a non-nil Any holding nil.
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                guard let wrapped = mirror.children.first?.value else { self = .null; return }
                self.init(any: wrapped)
                return
            }
            return nil
        }
    }
}

extension PrimitiveValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension PrimitiveValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PrimitiveValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension PrimitiveValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PrimitiveValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension PrimitiveValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "nil"
        case .string(let value): return "\"\(value)\""
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .decimal(let value): return value.description
        case .bool(let value): return String(value)
        case .date(let value): return value.description
        case .uuid(let value): return value.uuidString
        case .data(let value): return "\(value.count) bytes"
        case .url(let value): return value.absoluteString
        }
    }
}
