import Foundation

/// The copy of a store a migration works on, in the migration's workspace: a connection with a
/// rollback journal (the copy only grows by what a transaction appends, and a journal holds only
/// the pages a batch changes), full syncs, and foreign keys checked by the migration itself
/// (tables are renamed and rebuilt while references point at them). A custom stage's batches
/// commit into a write-ahead log instead (``withBatchCommits(_:)``).
final class WorkingCopy {
    let connection: SQLiteConnection
    let path: String

    /// Opens the working copy at `path`; read-only to look at its state without changing it.
    init(path: String, readOnly: Bool = false) throws {
        self.path = path
        connection = try SQLiteConnection(path: path, readOnly: readOnly, create: false, acceptsURIs: true)
        guard !readOnly else { return }
        try connection.execute("PRAGMA journal_mode = DELETE")
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.execute("PRAGMA foreign_keys = OFF")
        // Index builds and table copies go faster with the pages they touch in memory.
        try connection.execute("PRAGMA cache_size = -65536")
    }

    /// Runs `body` in one transaction, committed when it returns.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            // ROLLBACK fails only without a transaction, which is the state it would leave.
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body`, a custom stage's many small transactions, with the copy in write-ahead-log mode
    /// and `synchronous = NORMAL`: a commit appends to the log without waiting for the disk. A
    /// killed process loses no commit (the system holds what it wrote); a power cut may lose the
    /// last few, never half of one, and each batch records its checkpoint in its own transaction,
    /// so the copy resumes from an earlier batch. The log stays small (the automatic checkpoint
    /// folds it back every thousand pages); afterwards it is folded into the file and removed, and
    /// the copy has its rollback journal and full syncs again. A copy killed in between gets them
    /// back when it is next opened.
    func withBatchCommits<T>(_ body: () throws -> T) throws -> T {
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        let result = try body()
        try connection.execute("PRAGMA journal_mode = DELETE")
        try connection.execute("PRAGMA synchronous = FULL")
        return result
    }

    // MARK: Metadata

    func metadata(_ key: String) throws -> PrimitiveValue? {
        try connection.scalar("SELECT value FROM og_metadata WHERE key = ?", [.string(key)])
    }

    func setMetadata(_ key: String, _ value: PrimitiveValue) throws {
        try connection.run("INSERT OR REPLACE INTO og_metadata (key, value) VALUES (?, ?)", [.string(key), value])
    }

    /// The durable state; `.preparing` when the copy has none (it was never completed).
    func state() throws -> MigrationState {
        switch try metadata(MigrationKey.state)?.stringValue {
        case "migrating":
            guard let stage = try metadata(MigrationKey.stage)?.integerValue else { return .preparing }
            let step: MigrationStep
            switch try metadata(MigrationKey.step)?.stringValue {
            case "structure": step = .structure
            case "transform":
                step = .transform(
                    transform: Int(try metadata(MigrationKey.transform)?.integerValue ?? 0),
                    checkpoint: try metadata(MigrationKey.checkpoint)?.integerValue ?? 0)
            case "finish": step = .finish
            case "check": step = .check
            default: return .preparing
            }
            return .migrating(stage: Int(stage), step: step)
        case "validating": return .validating
        case "committed": return .committed
        default: return .preparing
        }
    }

    /// Records `state`; call inside the transaction whose work it describes.
    func record(_ state: MigrationState) throws {
        switch state {
        case .idle, .preparing:
            try setMetadata(MigrationKey.state, .string("preparing"))
        case .migrating(let stage, let step):
            try setMetadata(MigrationKey.state, .string("migrating"))
            try setMetadata(MigrationKey.stage, .integer(Int64(stage)))
            switch step {
            case .structure: try setMetadata(MigrationKey.step, .string("structure"))
            case .transform(let transform, let checkpoint):
                try setMetadata(MigrationKey.step, .string("transform"))
                try setMetadata(MigrationKey.transform, .integer(Int64(transform)))
                try setMetadata(MigrationKey.checkpoint, .integer(checkpoint))
            case .finish: try setMetadata(MigrationKey.step, .string("finish"))
            case .check: try setMetadata(MigrationKey.step, .string("check"))
            }
        case .validating:
            try setMetadata(MigrationKey.state, .string("validating"))
        case .committed:
            try setMetadata(MigrationKey.state, .string("committed"))
        }
    }

    /// Records the schema the copy's tables now follow.
    func recordSchema(_ schema: Schema) throws {
        try setMetadata(StoreMetadata.Key.schemaVersion, .integer(Int64(schema.version)))
        try setMetadata(StoreMetadata.Key.schemaChecksum, .string(schema.checksum))
    }

    // MARK: Schema objects

    /// The names of the copy's schema objects of one type (`table`, `index`, `trigger`), with the
    /// table each belongs to; indexes SQLite makes itself (no SQL) are left out.
    func objects(ofType type: String) throws -> [(name: String, table: String)] {
        let statement = try connection.statement(
            "SELECT name, tbl_name FROM sqlite_master WHERE type = ? AND sql IS NOT NULL ORDER BY name")
        defer { statement.reset() }
        statement.bind([.string(type)])
        var names: [(String, String)] = []
        while try statement.step() { names.append((statement.text(0), statement.text(1))) }
        return names
    }

    func hasObject(named name: String) throws -> Bool {
        try connection.scalar("SELECT 1 FROM sqlite_master WHERE name = ?", [.string(name)])?.integerValue == 1
    }

    func count(_ table: String) throws -> Int64 {
        try connection.scalar("SELECT count(*) FROM \(SQL.quote(table))")?.integerValue ?? 0
    }
}
