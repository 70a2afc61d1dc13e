import CSQLite
import Foundation

/// SQLite's `PRAGMA integrity_check` on a copy of a store file, never on the file itself: a
/// damaged database must not be written (not even by the recovery of its own journal) before it
/// is kept safe.
///
///     let report = try StoreIntegrity.check(url)
///     switch report.verdict {
///     case .ok: ...
///     case .damaged(let messages): ... // quarantine and salvage
///     case .notADatabase(let reason): ...
///     }
public enum StoreIntegrity {
    /// What the check found.
    public enum Verdict: Sendable, Hashable {
        /// SQLite found nothing wrong.
        case ok
        /// SQLite reads the file but found damage; its first messages.
        case damaged([String])
        /// SQLite cannot read the file as a database at all (not one, or its header is damaged).
        case notADatabase(String)
    }

    /// The verdict and what could be learnt besides.
    public struct Report: Sendable, Hashable {
        public var verdict: Verdict
        /// The store's metadata, when readable.
        public var metadata: StoreMetadata?
        /// Rows per entity table, for the tables that could be counted.
        public var rowCounts: [String: Int64]
        /// Whether a copy was checked (false when no copy could be made and the file was read
        /// read-only instead).
        public var checkedCopy: Bool
    }

    /// Checks a copy of the store at `url` (with its write-ahead log) made in `scratch` (a new
    /// folder in the temporary directory by default, removed afterwards). The copy is made with
    /// SQLite's backup API, which copies pages without reading them, so that a store in use yields
    /// a consistent copy; a file SQLite cannot open at all is copied byte for byte.
    public static func check(_ url: URL, scratch: URL? = nil) throws -> Report {
        let folder = scratch ?? FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-check-\(UUID().uuidString)")
        try StoreFiles.createFolder(folder.path)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("copy.sqlite").path
        var checkedCopy = true
        do {
            try copyStore(url.path, to: copy)
        } catch let error as FileOperationError where error.code == ENOSPC {
            checkedCopy = false
        }
        let connection: SQLiteConnection
        do {
            connection = checkedCopy
                ? try SQLiteConnection(path: copy, readOnly: false, create: false)
                : try SQLiteConnection.openForReading(path: url.path)
            // Reading the schema is what tells a database from anything else.
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
        } catch let error as StoreError where error.kind == .notADatabase {
            return Report(verdict: .notADatabase(error.message), metadata: nil, rowCounts: [:], checkedCopy: checkedCopy)
        } catch let error as StoreError where error.kind == .corrupt {
            return Report(verdict: .damaged([error.message]), metadata: nil, rowCounts: [:], checkedCopy: checkedCopy)
        }
        var messages: [String] = []
        do {
            let statement = try connection.statement("PRAGMA integrity_check(100)")
            while try statement.step() { messages.append(statement.text(0)) }
            statement.reset()
        } catch let error as StoreError where error.kind == .corrupt || error.kind == .notADatabase {
            messages.append(error.message)
        }
        let metadata = try? PersistentStore.readMetadata(connection)
        var counts: [String: Int64] = [:]
        if let entities = try? connection.statement("SELECT entity FROM og_primary_key ORDER BY entity") {
            var names: [String] = []
            while (try? entities.step()) == true { names.append(entities.text(0)) }
            entities.reset()
            for name in names {
                if case .integer(let count)? = try? connection.scalar("SELECT count(*) FROM \(SQL.quote(name))") { counts[name] = count }
            }
        }
        let verdict: Verdict = messages == ["ok"] ? .ok : .damaged(messages)
        return Report(verdict: verdict, metadata: metadata, rowCounts: counts, checkedCopy: checkedCopy)
    }

    /// Copies a store and its log to `destination`: through the backup API when SQLite can open the
    /// store, byte for byte otherwise.
    static func copyStore(_ path: String, to destination: String) throws {
        if let source = try? SQLiteConnection.openForReading(path: path),
           let target = try? SQLiteConnection(path: destination, readOnly: false, create: true),
           (try? SQLiteBackup.copy(from: source, to: target)) != nil {
            return
        }
        for suffix in ["", "-journal"] { try StoreFiles.removeIfPresent(destination + suffix) }
        try copyBytes(path, to: destination)
        if StoreFiles.exists(path + "-wal") { try copyBytes(path + "-wal", to: destination + "-wal") }
    }

    /// Copies a file's bytes, whatever they are.
    static func copyBytes(_ source: String, to destination: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw FileOperationError(operation: "open", path: source, code: errno) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw FileOperationError(operation: "open", path: destination, code: errno) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileOperationError(operation: "read", path: source, code: errno)
            }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FileOperationError(operation: "write", path: destination, code: errno)
                }
                offset += written
            }
        }
        guard fsync(output) == 0 else { throw FileOperationError(operation: "fsync", path: destination, code: errno) }
    }
}
