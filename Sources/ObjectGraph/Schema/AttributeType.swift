import Foundation

/// The kinds of value an attribute holds, and how each is stored in SQLite.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    /// TEXT.
    case string
    /// INTEGER, checked to fit in 16 bits.
    case integer16
    /// INTEGER, checked to fit in 32 bits.
    case integer32
    /// INTEGER.
    case integer64
    /// REAL.
    case double
    /// TEXT holding the exact decimal; ordering comparisons in SQL use its REAL value.
    case decimal
    /// INTEGER 0 or 1.
    case boolean
    /// REAL seconds since 1970.
    case date
    /// A 16-byte BLOB.
    case uuid
    /// BLOB.
    case binaryData
    /// TEXT, the absolute URI string.
    case uri
    /// TEXT holding a `Codable` value encoded as JSON (see ``CodableAttribute``).
    case json

    /// The SQLite column type ObjectGraph declares for the attribute.
    var columnType: String {
        switch self {
        case .string, .decimal, .uri, .json: return "TEXT"
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .date: return "REAL"
        case .uuid, .binaryData: return "BLOB"
        }
    }

    /// Whether `value` is of this type's own kind and fits it whatever it holds (not nil, and not
    /// an integer a narrower type must check): what `coerce` returns unchanged and nothing refuses.
    @inline(__always)
    func takesUnchecked(_ value: PrimitiveValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.json, .string), (.double, .double), (.decimal, .decimal), (.boolean, .bool),
             (.date, .date), (.uuid, .uuid), (.binaryData, .data), (.uri, .url), (.integer64, .integer):
            return true
        default:
            return false
        }
    }

    /// The value converted to this type's in-memory form, or nil when it does not fit the type.
    ///
    /// Integers widen to doubles and decimals; nothing else converts, so a wrong type is reported
    /// rather than guessed at.
    func coerce(_ value: PrimitiveValue) -> PrimitiveValue? {
        if takesUnchecked(value) { return value }
        switch (self, value) {
        case (_, .null): return .null
        case (.integer16, .integer), (.integer32, .integer):
            // The width is checked by `isOutOfRange`, so the error can say which problem it is.
            return value
        case (.double, .integer(let number)): return .double(Double(number))
        case (.decimal, .integer(let number)): return .decimal(Decimal(number))
        case (.uri, .string(let text)):
            return URL(string: text).map(PrimitiveValue.url)
        default: return nil
        }
    }

    /// Whether an integer is too wide for this type (only meaningful for the integer types).
    func isOutOfRange(_ value: PrimitiveValue) -> Bool {
        guard case .integer(let number) = value else { return false }
        switch self {
        case .integer16: return Int16(exactly: number) == nil
        case .integer32: return Int32(exactly: number) == nil
        default: return false
        }
    }

    /// The value a required attribute without a default reads as before it is set.
    var emptyValue: PrimitiveValue {
        switch self {
        case .string, .json: return .string("")
        case .integer16, .integer32, .integer64: return .integer(0)
        case .double: return .double(0)
        case .decimal: return .decimal(0)
        case .boolean: return .bool(false)
        case .date: return .date(Date(timeIntervalSince1970: 0))
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .binaryData: return .data(Data())
        case .uri: return .url(URL(string: "about:blank")!)
        }
    }
}
