/// Why storage could not do what the server asked. Each case carries what a person needs to find
/// the cause: the result code or SQLSTATE, the engine's message and the statement.
public enum StorageError: Error, CustomStringConvertible {
    /// SQLite returned `code` (an extended result code) for `statement`.
    case sqlite(code: Int32, message: String, statement: String)
    /// PostgreSQL failed `statement`; `sqlState` is absent when the connection itself broke.
    case postgres(sqlState: String?, message: String, statement: String)
    /// The database could not be opened or reached. Never contains a password.
    case cannotOpen(location: String, reason: String)
    /// The database was written by a newer server with schema `found`; this one knows `supported`.
    case incompatibleSchema(found: Int, supported: Int)
    /// Another `quire-server serve` holds the SQLite data folder.
    case dataDirectoryInUse(path: String)
    /// `account add` for a name that exists (revoked accounts keep their name).
    case accountExists(name: String)
    /// No active account has this name.
    case accountNotFound(name: String)
    /// `token add` with a name another active token of the account has.
    case tokenExists(name: String)
    /// A stored value that the server cannot read back, such as tags that are not a JSON array.
    case unreadableValue(table: String, column: String, detail: String)
    /// Concurrent requests kept changing what this one needed; trying again later will do.
    case contention(String)
    /// A transaction failed with `underlying` and rolling it back failed too.
    case rollbackFailed(underlying: any Error, rollback: any Error)

    /// Whether trying again later may succeed: the database was unreachable, its connection
    /// broke, or it stayed locked (SQLite `BUSY`) past the timeout.
    public var isTransient: Bool {
        switch self {
        case .cannotOpen, .contention: return true
        case let .postgres(sqlState, _, _): return sqlState == nil || sqlState?.hasPrefix("08") == true
        case let .sqlite(code, _, _): return code & 0xff == 5 || code & 0xff == 6
        default: return false
        }
    }

    /// One line for the log, with codes and the statement.
    public var description: String {
        switch self {
        case let .sqlite(code, message, statement):
            return "SQLite error \(code) (\(message)) in: \(statement)"
        case let .postgres(sqlState, message, statement):
            return "PostgreSQL error \(sqlState ?? "(connection)") (\(message)) in: \(statement)"
        case let .cannotOpen(location, reason):
            return "cannot open storage at \(location): \(reason)"
        case let .incompatibleSchema(found, supported):
            return "storage schema version \(found) is newer than this server's (\(supported)); upgrade quire-server"
        case let .dataDirectoryInUse(path):
            return "another quire-server is serving \(path)"
        case let .accountExists(name):
            return "an account named '\(name)' exists"
        case let .accountNotFound(name):
            return "no active account named '\(name)'"
        case let .tokenExists(name):
            return "the account already has an active token named '\(name)'; revoke it or choose another name"
        case let .unreadableValue(table, column, detail):
            return "unreadable \(table).\(column): \(detail)"
        case let .contention(detail):
            return "contention: \(detail)"
        case let .rollbackFailed(underlying, rollback):
            return "\(underlying); rolling back failed too: \(rollback)"
        }
    }
}
