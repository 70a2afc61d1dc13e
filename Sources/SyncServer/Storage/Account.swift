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

/// A device's token as `quire-server token list` shows it; the token itself is never stored.
public struct DeviceToken: Hashable, Sendable {
    /// The name given to `token add` (`laptop`), unique among the account's active tokens.
    public var name: String
    public var createdAt: Date
    /// The last request it authenticated, to the minute; nil if never used.
    public var lastUsedAt: Date?
    /// When `token revoke` stopped it; nil while active.
    public var revokedAt: Date?

    /// A token as stored.
    public init(name: String, createdAt: Date, lastUsedAt: Date?, revokedAt: Date?) {
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

/// What `account delete` removed.
public struct AccountDeletion: Hashable, Sendable {
    /// Live articles the account had.
    public var articles: Int
    /// Stored versions and tombstones, live articles' current versions included.
    public var revisions = 0
    /// Stored answers and claims of idempotency keys.
    public var idempotencyRecords = 0
    /// Tokens, revoked ones included.
    public var tokens = 0
    /// Blobs (attachments' bytes).
    public var blobs = 0

    /// A deletion that removed `articles` live articles.
    public init(articles: Int) { self.articles = articles }
}
