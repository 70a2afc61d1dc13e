import Foundation
import Glibc

extension SQLiteStorage {
    /// Writes a consistent copy of the database to `file`, which must not exist, while servers
    /// go on serving: `VACUUM INTO` reads one snapshot of the database, so the copy holds every
    /// write committed before it started and none after. The file is made readable by its owner
    /// only (it holds articles and token hashes) and is on disk when this returns; a copy that
    /// failed is removed.
    func backup(to file: URL) throws {
        try Self.createEmptyPrivateFile(file)
        do {
            _ = try withConnection(for: .claims) { try $0.execute("VACUUM INTO $1", [.text(file.path)]) }
            try Self.syncToDisk(file)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    /// Puts the backup `file` in place of the database in `directory`, which no server may be
    /// serving, and starts a new feed epoch so that every client resyncs once.
    ///
    /// The backup is checked first (SQLite's integrity check, a schema this server reads); the
    /// database it replaces is moved aside with its journal, never deleted.
    static func restore(from file: URL, into directory: URL) throws -> Restoration {
        let lock = try ServingLock(directory: directory)
        defer { lock.release() }
        try checkBackup(file)
        // The copy is made beside the database first, so that a restore that fails leaves the
        // database as it was.
        let database = directory.appendingPathComponent(fileName)
        let copy = directory.appendingPathComponent("\(fileName).restoring")
        try? FileManager.default.removeItem(at: copy)
        try createEmptyPrivateFile(copy)
        do {
            // Not query_only: SQLite counts VACUUM INTO as a write, though it only reads the source.
            try SQLiteConnection(path: file.path, pragmas: []).execute("VACUUM INTO $1", [.text(copy.path)])
            try syncToDisk(copy)
        } catch {
            try? FileManager.default.removeItem(at: copy)
            throw error
        }
        var replaced: URL?
        if FileManager.default.fileExists(atPath: database.path) {
            let stamp = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false)
                .dateSeparator(.omitted).timeSeparator(.omitted).dateTimeSeparator(.standard))
            let aside = directory.appendingPathComponent("\(fileName).replaced-\(stamp)")
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: database.path + suffix) {
                try move(database.path + suffix, to: aside.path + suffix)
            }
            replaced = aside
        }
        try move(copy.path, to: database.path)
        try syncToDisk(database)
        let storage = try SQLiteStorage(directory: directory, readers: 1, serving: false)
        defer { storage.close() }
        let accounts = try storage.startNewFeedEpoch()
        return Restoration(replacedDatabase: replaced, accounts: accounts)
    }

    private static func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw StorageError.cannotOpen(location: source, reason: "cannot move it to \(destination): \(String(cString: strerror(errno)))")
        }
    }

    /// Creates `file`, empty and readable by its owner only, or throws when it exists: what
    /// `VACUUM INTO` then fills.
    private static func createEmptyPrivateFile(_ file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "the file exists; a backup never overwrites one" : String(cString: strerror(errno))
            throw StorageError.cannotOpen(location: file.path, reason: reason)
        }
        Glibc.close(descriptor)
    }

    /// Refuses a file that is not an intact Quire server database this server can read.
    private static func checkBackup(_ file: URL) throws {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw StorageError.cannotOpen(location: file.path, reason: "no such file")
        }
        let version: Int64
        do {
            let connection = try SQLiteConnection(path: file.path, pragmas: ["PRAGMA query_only = ON"])
            let check = try connection.first("PRAGMA integrity_check", []) { $0.text(0) }
            guard check == "ok" else {
                throw StorageError.cannotOpen(location: file.path, reason: "SQLite finds it damaged: \(check ?? "no answer")")
            }
            let hasSchema = try connection.first("SELECT 1 FROM sqlite_master WHERE name = 'schema_info'", []) { _ in true }
            guard hasSchema == true, let found = try connection.first("SELECT version FROM schema_info", [], { try $0.integer(0) })
            else { throw StorageError.cannotOpen(location: file.path, reason: "it is not a quire-server database") }
            version = found
        } catch let error as StorageError {
            if case .cannotOpen = error { throw error }
            throw StorageError.cannotOpen(location: file.path, reason: "SQLite finds it damaged or not a database: \(error)")
        }
        guard version <= StorageSchema.version else {
            throw StorageError.incompatibleSchema(found: Int(version), supported: StorageSchema.version)
        }
    }

    /// `fsync` of the file and of its folder, so that the file and its name survive a crash.
    private static func syncToDisk(_ file: URL) throws {
        for path in [file.path, file.deletingLastPathComponent().path] {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0, fsync(descriptor) == 0 else {
                let reason = String(cString: strerror(errno))
                if descriptor >= 0 { Glibc.close(descriptor) }
                throw StorageError.cannotOpen(location: path, reason: "cannot sync it to disk: \(reason)")
            }
            Glibc.close(descriptor)
        }
    }
}
