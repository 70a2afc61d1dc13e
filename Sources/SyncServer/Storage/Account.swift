import Foundation

/// The storage key of an account. Every query about articles, keys or cursors is scoped by it.
public struct AccountID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `accounts.id` column.
    public var rawValue: Int64
    /// The account stored under `rawValue`.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// The number, for logs.
    public var description: String { String(rawValue) }
}

/// An account as `quire-server account list` shows it; the token hash stays in storage.
public struct Account: Hashable, Sendable {
    /// Its storage key.
    public var id: AccountID
    /// The name given to `account add`.
    public var name: String
    /// When it was added.
    public var createdAt: Date
    /// When `account revoke` stopped its token; nil while active.
    public var revokedAt: Date?

    /// 1 to 64 characters from `A-Z a-z 0-9 . _ @ -`, so that names read well in a terminal.
    public static func isValidName(_ name: String) -> Bool {
        guard (1...64).contains(name.utf8.count) else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._@-".unicodeScalars.contains(scalar))
        }
    }
}
