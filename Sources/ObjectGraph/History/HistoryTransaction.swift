import Foundation

/// One committed save or batch operation, as persistent history recorded it.
public struct HistoryTransaction: Sendable, CustomStringConvertible {
    /// Its position in the store's history.
    public let token: HistoryToken
    /// When it committed.
    public let timestamp: Date
    /// The saving context's `transactionAuthor`.
    public let author: String?
    /// The saving context's `name`.
    public let contextName: String?
    /// What it changed, in the order recorded (filtered by entity when the request asked so).
    public internal(set) var changes: [HistoryChange]

    public var description: String {
        "HistoryTransaction(\(token.rawValue), author: \(author ?? "nil"), context: \(contextName ?? "nil"), changes: \(changes.count))"
    }
}

/// One object's change within a ``HistoryTransaction``.
public struct HistoryChange: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the object.
    public enum Kind: Sendable, Hashable {
        case insert
        /// The properties whose values changed.
        case update(ChangedKeys)
        /// The values of the attributes marked `preservesValueInHistoryOnDeletion`, as they were
        /// when the object was deleted (nil values are left out).
        case delete(tombstone: [String: PrimitiveValue])
    }

    /// The object changed.
    public let objectID: ManagedObjectID
    /// What happened to it.
    public let kind: Kind

    public var description: String { "\(kind) \(objectID)" }
}
