/// The position of a transaction in a store's persistent history. Tokens only grow: a later
/// transaction always has a greater token, and a token is never given out twice, even after
/// history is deleted.
public struct HistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The token's number in the store.
    public let rawValue: Int64

    /// A token from its number (as stored by ``rawValue``).
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// Before every transaction.
    public static let beginning = HistoryToken(rawValue: 0)

    public static func < (lhs: HistoryToken, rhs: HistoryToken) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "history token \(rawValue)" }
}
