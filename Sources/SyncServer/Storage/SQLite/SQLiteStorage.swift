import Foundation
import Glibc
import Platform

/// Storage in one SQLite file, `quire-server.sqlite3` in the data folder: WAL, `synchronous =
/// FULL` for writes, one writer at a time and a pool of readers. One serving process per folder;
/// the account verbs may run beside it.
final class SQLiteStorage: SQLBackedStorage, @unchecked Sendable {
    /// The database file's name inside the data folder.
    static let fileName = "quire-server.sqlite3"

    private struct Writers {
        /// Article writes, `synchronous = FULL`: acknowledged means on disk.
        let durable: SQLiteConnection
        /// Idempotency claims, `synchronous = NORMAL` (see `ConnectionRole.claims`).
        let claims: SQLiteConnection
    }

    /// `@unchecked Sendable` is sound because `writers` and `servingLock` are only touched under
    /// `writerLock`, and the pool guards its own state.
    private let writerLock = NSLock()
    private var writers: Writers?
    private var servingLock: ServingLock?
    private let readers: ConnectionPool<SQLiteConnection>

    /// Opens (creating) the database in `directory`. With `serving`, takes the folder's lock so
    /// that a second server cannot use it, and drops idempotency claims left by a server that
    /// died: no other process can hold a live one.
    init(directory: URL, readers readerCount: Int, serving: Bool) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        if serving { servingLock = try ServingLock(directory: directory) }
        let path = directory.appendingPathComponent(Self.fileName).path
        do {
            let durable = try SQLiteConnection(path: path, pragmas: [
                "PRAGMA busy_timeout = 10000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL",
                "PRAGMA foreign_keys = ON",
            ])
            let claims = try SQLiteConnection(path: path, pragmas: [
                "PRAGMA busy_timeout = 10000", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON",
            ])
            try StorageSchema.migrate(durable)
            if serving {
                try durable.transaction(.write) { try durable.execute("DELETE FROM operations WHERE completed_at IS NULL") }
            }
            writers = Writers(durable: durable, claims: claims)
        } catch {
            servingLock?.release()
            throw error
        }
        readers = ConnectionPool(capacity: readerCount) {
            try SQLiteConnection(path: path, pragmas: ["PRAGMA busy_timeout = 10000", "PRAGMA query_only = ON"])
        }
    }

    deinit { close() }

    /// One process serves a SQLite folder, so its rate limits live in that process.
    var isShared: Bool { false }

    func withConnection<T>(for role: ConnectionRole, _ body: (any SQLConnection) throws -> T) throws -> T {
        switch role {
        case .reader:
            return try readers.withConnection(body)
        case .writer, .claims:
            // One lock for both writers: SQLite lets one connection write at a time anyway.
            writerLock.lock()
            defer { writerLock.unlock() }
            guard let writers else {
                throw StorageError.cannotOpen(location: Self.fileName, reason: "the storage was closed")
            }
            return try body(role == .writer ? writers.durable : writers.claims)
        }
    }

    func close() {
        readers.close()
        writerLock.lock()
        writers = nil
        servingLock?.release()
        servingLock = nil
        writerLock.unlock()
    }
}

/// `serve.lock` in a SQLite data folder, held (`flock`) by the one process that may change the
/// database under a serving server's feet: the server itself, or `restore`.
struct ServingLock {
    private let lock: FileLock

    /// Takes the lock, or throws `dataDirectoryInUse` when another process holds it.
    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("serve.lock").path
        let taken: FileLock?
        do {
            taken = try FileLock(path: path, mode: 0o600)
        } catch let error as FileOperationError {
            throw StorageError.cannotOpen(location: path, reason: String(cString: strerror(error.code)))
        }
        guard let taken else { throw StorageError.dataDirectoryInUse(path: directory.path) }
        lock = taken
    }

    func release() { lock.release() }
}
