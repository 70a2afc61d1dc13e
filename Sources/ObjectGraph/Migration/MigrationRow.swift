/// One row handed to an ``EntityTransform``: the source schema's values it reads, and the
/// destination schema's values it sets.
public struct MigrationRow {
    /// The row's primary key (kept by every migration).
    public let key: Int64
    let readNames: [String]
    let readValues: [PrimitiveValue]
    let writeNames: [String]
    let writeTypes: [AttributeType]
    let entity: String
    /// The values set so far, by position in `writeNames` (nil: unchanged).
    var written: [PrimitiveValue?]

    /// The value of a source attribute the transform declared in `reads`; `.null` otherwise.
    public func source(_ name: String) -> PrimitiveValue {
        guard let index = readNames.firstIndex(of: name) else { return .null }
        return readValues[index]
    }

    /// Sets a destination attribute the transform declared in `writes`, checked against its type.
    public mutating func set(_ name: String, _ value: PrimitiveValue) throws {
        guard let index = writeNames.firstIndex(of: name) else {
            throw MigrationError.transformFailed(
                stage: "", entity: entity, key: key, reason: "'\(name)' is not among the attributes the transform writes")
        }
        let type = writeTypes[index]
        guard let coerced = type.coerce(value), !type.isOutOfRange(value) else {
            throw MigrationError.transformFailed(
                stage: "", entity: entity, key: key, reason: "\(value) does not fit \(name), of type \(type.rawValue)")
        }
        written[index] = coerced
    }
}

extension PrimitiveValue {
    /// The integer inside, if this is an integer.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The text inside, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
