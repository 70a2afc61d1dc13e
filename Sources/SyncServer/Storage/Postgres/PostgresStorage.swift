import Foundation
/// Storage in a PostgreSQL database through libpq, for several server processes on one database.
///
/// Writers of one account serialize on its `accounts` row (`SELECT … FOR UPDATE`), so the feed's
/// cursors commit in order whichever process assigns them; writers of different accounts do not
/// wait for each other.
final class PostgresStorage: SQLBackedStorage {
    private let pool: ConnectionPool<PostgresConnection>
    /// Connections for idempotency claims, which need not wait for the disk (`ConnectionRole.claims`).
    private let claimsPool: ConnectionPool<PostgresConnection>

    /// Connects to `url` and creates the tables when they are missing. At most `connections`
    /// connections are open at once for reads and writes, and as many for claims.
    init(url: String, connections: Int) throws {
        pool = ConnectionPool(capacity: connections) { try PostgresConnection(url: url) }
        claimsPool = ConnectionPool(capacity: connections) {
            try PostgresConnection(url: url, session: ["SET synchronous_commit TO off"])
        }
        try pool.withConnection { try StorageSchema.migrate($0) }
    }

    /// Any number of processes may serve one database: their rate limits are kept in it.
    var isShared: Bool { true }

    /// PostgreSQL is backed up with its own tools (`pg_dump`), which also copy what the server
    /// does not know of (roles, other schemas).
    func backup(to file: URL) throws {
        throw StorageError.cannotOpen(location: file.path, reason: "back up a PostgreSQL database with pg_dump")
    }

    func withConnection<T>(for role: ConnectionRole, _ body: (any SQLConnection) throws -> T) throws -> T {
        try (role == .claims ? claimsPool : pool).withConnection { connection in
            try connection.restoreIfBroken()
            return try body(connection)
        }
    }

    func close() {
        pool.close()
        claimsPool.close()
    }
}
