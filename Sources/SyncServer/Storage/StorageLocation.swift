import Foundation

/// Where the server keeps its data: `--data DIR` or `--postgres URL`.
public enum StorageLocation: Sendable, CustomStringConvertible {
    /// A SQLite database in this folder, created when missing.
    case sqlite(directory: URL)
    /// A PostgreSQL database, as a libpq connection URI. Tables are created when missing.
    case postgres(url: String)

    /// Opens the storage, creating or checking its tables.
    ///
    /// - Parameters:
    ///   - serving: for `serve`. SQLite then takes the folder's lock, since only one process may
    ///     serve a SQLite database; PostgreSQL takes none.
    ///   - connections: the most database connections used at once (readers, for SQLite).
    public func open(serving: Bool = false, connections: Int = 8) throws -> any SyncStorage {
        switch self {
        case let .sqlite(directory):
            return try SQLiteStorage(directory: directory, readers: connections, serving: serving)
        case let .postgres(url):
            return try PostgresStorage(url: url, connections: connections)
        }
    }

    /// Restores a backup: for SQLite, puts the backup `file` in place of the database (no
    /// server may be serving it; the database it replaces is kept beside it) and starts a new
    /// feed epoch; for PostgreSQL, which is restored with `pg_restore`, `file` must be nil and
    /// only the new feed epoch is started, after that restore. See `SyncStorage.startNewFeedEpoch`.
    public func restore(from file: URL?) throws -> Restoration {
        switch (self, file) {
        case let (.sqlite(directory), file?):
            return try SQLiteStorage.restore(from: file, into: directory)
        case (.sqlite, nil):
            throw StorageError.cannotOpen(location: description, reason: "name the backup to restore")
        case (.postgres, _?):
            throw StorageError.cannotOpen(location: description, reason: "restore a PostgreSQL dump with pg_restore, then run restore without a file")
        case (.postgres, nil):
            let storage = try open(connections: 1)
            defer { storage.close() }
            return Restoration(replacedDatabase: nil, accounts: try storage.startNewFeedEpoch())
        }
    }

    /// For logs: the folder, or only "PostgreSQL" since the URL may hold a password.
    public var description: String {
        switch self {
        case let .sqlite(directory): return "SQLite in \(directory.path)"
        case .postgres: return "PostgreSQL"
        }
    }
}

/// What a restore did.
public struct Restoration: Sendable {
    /// Where the database that was replaced now is (nil when there was none, or for PostgreSQL).
    public var replacedDatabase: URL?
    /// Accounts whose feed started a new epoch: each of their clients resyncs once.
    public var accounts: Int
}
