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

    /// For logs: the folder, or only "PostgreSQL" since the URL may hold a password.
    public var description: String {
        switch self {
        case let .sqlite(directory): return "SQLite in \(directory.path)"
        case .postgres: return "PostgreSQL"
        }
    }
}
