import CSQLite
import Foundation
import Synchronization

/// The SQLite store behind a container: it owns the file's tables, checks the schema on open and
/// runs every read and write for the container's contexts, one at a time (but for long reads on
/// another thread, which get a read-only connection of their own: ``readOnOwnConnection(_:)``).
///
/// Opening is careful with the file: the store reads before it writes anything, and it writes
/// nothing to a file that is not an ObjectGraph store of the same schema. The SQLite settings are
/// WAL, the chosen `synchronous` level (FULL by default), foreign keys on, and a busy timeout.
public final class PersistentStore: @unchecked Sendable {
    /// Where the store lives and how it was opened.
    public let storeDescription: StoreDescription
    /// The identifier, schema version and checksum the store records.
    public let metadata: StoreMetadata
    /// Whether every transaction is recorded in persistent history: asked for by the description,
    /// or already the case for the file (history once kept is never silently interrupted).
    public let recordsHistory: Bool
    let model: SchemaModel
    /// Identifies this store's connection in the history transactions it records, so that the
    /// transactions of other processes can be told apart.
    let origin = UUID().uuidString
    /// Root contexts that merge every save to the store (and other processes' transactions).
    let mergingContexts = ContextList()
    /// The transactions committed through this store so far (see ``holdsLatest(_:)``). Atomic,
    /// so that asking takes no lock a save may be holding.
    private let commits = Atomic<Int>(0)
    // Every use of `connection`, `trace` and `remote` holds `lock`; that is what makes the class Sendable.
    private let lock = NSLock()
    private let connection: SQLiteConnection
    /// What the store last knew of other connections' commits (guarded by `lock`).
    var remote: RemoteState
    /// Wakes the store when the file changes (set once, guarded by `lock`).
    var watcher: RemoteChangeWatcher?
    /// Set by ``close()``; every read and write then throws (guarded by `lock`).
    private var isClosed = false
    /// The reads running on connections of their own (``readOnOwnConnection(_:)``): ``close()``
    /// waits for them, because SQLite checkpoints and removes the log only when the last
    /// connection closes, and a read-only one cannot (the closed library would not be one file).
    private let readsOnOwnConnections = DispatchGroup()
    /// Empties the log once no save has committed for a while (guarded by `lock`); see
    /// ``checkpointWhenIdle(after:)``.
    private var idleCheckpoint: IdleCheckpoint?

    /// Opens (or creates) the store described, for `schema`.
    init(description: StoreDescription, schema: Schema) throws {
        // Check the schema completely before touching any file.
        _ = try SchemaModel(schema: schema, storeIdentifier: UUID())
        storeDescription = description

        let path: String
        var create = true
        switch description.location {
        case .inMemory:
            path = ":memory:"
        case .file(let url):
            path = url.path
            create = !FileManager.default.fileExists(atPath: path)
        }
        let connection = description.isReadOnly && path != ":memory:"
            ? try SQLiteConnection.openForReading(path: path, busyTimeout: description.busyTimeout)
            : try SQLiteConnection(path: path, readOnly: description.isReadOnly, create: create)
        sqlite3_busy_timeout(connection.handle, Int32(max(0, description.busyTimeout * 1000).rounded()))

        // Read first: this is where a file that is not a database, or a damaged one, is found.
        let tables = Set(try Self.tableNames(connection))
        let metadata: StoreMetadata
        if tables.isEmpty {
            guard !description.isReadOnly else {
                throw StoreError(kind: .readOnly, message: "a read-only store cannot be created", path: path)
            }
            metadata = StoreMetadata(
                storeIdentifier: UUID(), schema: SchemaVersion(version: schema.version, checksum: schema.checksum),
                formatVersion: StoreMetadata.currentFormatVersion)
            model = try SchemaModel(schema: schema, storeIdentifier: metadata.storeIdentifier)
            try Self.configure(connection, description)
            try Self.createLayout(connection, model: model, metadata: metadata)
            if description.recordsHistory { try HistoryLayout.create(connection) }
        } else if tables.contains("og_metadata") {
            metadata = try Self.readMetadata(connection)
            guard metadata.formatVersion <= StoreMetadata.currentFormatVersion else {
                throw StoreError(
                    kind: .unsupportedFormat(found: metadata.formatVersion, supported: StoreMetadata.currentFormatVersion),
                    message: "the store was written by a newer ObjectGraph", path: path)
            }
            let modelVersion = SchemaVersion(version: schema.version, checksum: schema.checksum)
            model = try SchemaModel(schema: schema, storeIdentifier: metadata.storeIdentifier)
            if metadata.schema.checksum != modelVersion.checksum {
                // A newer store may still be read, read-only, when it kept everything this schema reads.
                let readable = try description.isReadOnly && description.readsNewerSchema
                    && metadata.schema.version > modelVersion.version && Self.missingLayout(connection, model).isEmpty
                guard readable else {
                    throw StoreError(
                        kind: .incompatibleSchema(store: metadata.schema, model: modelVersion),
                        message: "the store's schema (\(metadata.schema)) differs from the model's (\(modelVersion))",
                        path: path)
                }
            }
            try Self.configure(connection, description)
            if description.recordsHistory && !tables.contains(HistoryLayout.transactionTable) {
                guard !description.isReadOnly else {
                    throw StoreError(kind: .readOnly, message: "history cannot be turned on in a read-only store", path: path)
                }
                try HistoryLayout.create(connection)
            }
        } else {
            throw StoreError(
                kind: .notAnObjectGraphStore, message: "the database has tables but no ObjectGraph metadata", path: path)
        }
        self.connection = connection
        self.metadata = metadata
        let recordsHistory = description.recordsHistory || tables.contains(HistoryLayout.transactionTable)
        self.recordsHistory = recordsHistory
        remote = try RemoteState(connection, recordsHistory: recordsHistory)
    }

    deinit {
        watcher?.stop()
        idleCheckpoint?.cancel()
    }

    /// Reads the metadata of a store file without opening it as a store and without writing
    /// anything: nil for an empty file, an error for a file that is not a store.
    ///
    /// Migrations use it to decide what to do before opening the store with a schema.
    public static func metadata(at url: URL) throws -> StoreMetadata? {
        let connection = try SQLiteConnection.openForReading(path: url.path)
        let tables = Set(try tableNames(connection))
        if tables.isEmpty { return nil }
        guard tables.contains("og_metadata") else {
            throw StoreError(
                kind: .notAnObjectGraphStore, message: "the database has tables but no ObjectGraph metadata", path: url.path)
        }
        return try readMetadata(connection)
    }

    /// Calls `trace` with the SQL of every statement the store runs, as it starts (nil stops tracing).
    /// For tests that count queries and for diagnosing N+1 faults; it costs one call per statement.
    public func setStatementTrace(_ trace: (@Sendable (String) -> Void)?) {
        lock.withLock { connection.trace = trace }
    }

    // MARK: Reading and writing

    /// Runs `body` holding the store's lock (for state the lock guards besides the connection).
    func locked<T>(_ body: () -> T) -> T {
        lock.withLock(body)
    }

    /// Runs reads on the connection, serialized with every other use of the store.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try lock.withLock {
            guard !isClosed else { throw ObjectGraphError.storeClosed(path: storeDescription.url?.path) }
            return try body(connection)
        }
    }

    /// Runs reads on a read-only connection of their own, outside the store's lock, so that a long
    /// read on another thread holds up no other use of the store: the connection reads the store
    /// as it is when its read begins (WAL). It is opened for the call and closed after it, and
    /// traced as the store is. An in-memory store, which no other connection
    /// can see, is read under the lock, as ``read(_:)`` does.
    func readOnOwnConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        guard let url = storeDescription.url else { return try read(body) }
        let trace = try lock.withLock {
            guard !isClosed else { throw ObjectGraphError.storeClosed(path: url.path) }
            readsOnOwnConnections.enter()
            return connection.trace
        }
        defer { readsOnOwnConnections.leave() }
        let reader = try SQLiteConnection.openForReading(path: url.path, busyTimeout: storeDescription.busyTimeout)
        defer { reader.close() }
        reader.trace = trace
        return try body(reader)
    }

    /// Runs writes in one transaction (`BEGIN IMMEDIATE`), committed if `body` returns and rolled
    /// back if it or the commit throws. Nothing is half-written.
    ///
    /// Every write passes here. Before COMMIT the transaction's persistent history (when the store
    /// keeps it) and history consumer tokens are written; after COMMIT, still holding the lock,
    /// the transaction's `onCommit` work runs, so merges are handed out in commit order.
    func write<T>(
        _ transaction: StoreTransaction = StoreTransaction(), _ body: (SQLiteConnection, StoreTransaction) throws -> T
    ) throws -> T {
        try lock.withLock {
            guard !isClosed else { throw ObjectGraphError.storeClosed(path: storeDescription.url?.path) }
            guard !storeDescription.isReadOnly else {
                throw StoreError(kind: .readOnly, message: "the store was opened read-only", path: storeDescription.url?.path)
            }
            if !recordsHistory { transaction.history = nil }
            try connection.execute("BEGIN IMMEDIATE")
            let result: T
            do {
                result = try body(connection, transaction)
                try transaction.finish(connection, store: self)
                try connection.execute("COMMIT")
            } catch let error as StoreError where error.resultCode == SQLiteCode.constraintForeignKey && connection.isInTransaction {
                // A deferred foreign key failed at COMMIT; the transaction is still open, so the
                // rows at fault can be named before it is rolled back.
                // If even the check fails, the commit's own error is the one to report.
                let violations = (try? foreignKeyViolations()) ?? []
                rollback()
                throw violations.isEmpty ? error as Error : DanglingReferenceError(violations: violations)
            } catch {
                rollback()
                throw error
            }
            transaction.commit = commits.add(1, ordering: .releasing).newValue
            if let token = transaction.token {
                // With no other connection's commit since the last check, everything through this
                // transaction is known here: later checks for other processes' commits start after it.
                if case .integer(let version)? = try connection.scalar("PRAGMA data_version"), version == remote.dataVersion {
                    remote.lastToken = max(remote.lastToken, token.rawValue)
                }
            }
            transaction.runAfterCommit()
            idleCheckpoint?.postpone()
            return result
        }
    }

    /// Whether `values` come from this store's latest commit: then they are what their rows hold
    /// (as far as this process has written them; another process's later commits arrive as
    /// history, as they would after a read).
    func holdsLatest(_ values: SavedValues) -> Bool {
        values.store == origin && values.commit == commits.load(ordering: .acquiring)
    }

    /// Reserves `count` primary keys for an entity inside the current write transaction and returns
    /// the first; keys are never reused, so a URI of a deleted object never finds another object.
    func reserveKeys(_ connection: SQLiteConnection, entity: EntityModel, count: Int) throws -> Int64 {
        let sql = "UPDATE og_primary_key SET max_key = max_key + ? WHERE entity = ? RETURNING max_key"
        guard let last = try connection.integers(sql, [.integer(Int64(count)), .string(entity.name)]).first else {
            throw StoreError(kind: .corrupt, message: "no key counter for entity \(entity.name)", statement: sql)
        }
        return last - Int64(count) + 1
    }

    private func rollback() {
        // ROLLBACK fails only when no transaction is open, which is the state it would leave.
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    private func foreignKeyViolations() throws -> [DanglingReferenceError.Violation] {
        let statement = try connection.statement("PRAGMA foreign_key_check")
        defer { statement.reset() }
        var violations: [DanglingReferenceError.Violation] = []
        while try statement.step() {
            violations.append(DanglingReferenceError.Violation(
                table: statement.text(0), key: statement.isNull(1) ? nil : statement.int64(1), parent: statement.text(2)))
        }
        return violations
    }

    // MARK: Closing

    /// Copies every commit of the write-ahead log into the store file and empties the log
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), so that the store file alone holds everything: a copy
    /// or backup of the file alone is complete. Safe while other connections (other processes)
    /// have the file open; it waits for their writes and reads in progress, up to the busy timeout.
    ///
    /// Answers false when the log could not be emptied because another connection kept it busy
    /// beyond the timeout (nothing is lost: the log stays for the next checkpoint), and for a
    /// read-only or in-memory store, which has no log of its own to empty.
    @discardableResult
    public func checkpoint() throws -> Bool {
        try lock.withLock {
            guard !isClosed else { throw ObjectGraphError.storeClosed(path: storeDescription.url?.path) }
            return try checkpointLocked()
        }
    }

    /// Checkpoints the log, then closes the store's connection; every read and write afterwards
    /// throws ``ObjectGraphError/storeClosed(path:)``. When no other connection has the file open,
    /// SQLite then removes the log and shared-memory files: the closed store is one file. When
    /// others have it open, the log file stays for them (emptied when the checkpoint could empty
    /// it), and that is safe. Waits for a read or write in progress on this store; closing twice
    /// does nothing.
    ///
    /// Call it when the program is done with the store (a command's end, an app's quit): a process
    /// that exits with its connections open leaves recent commits in the log file only.
    public func close() {
        let closing = lock.withLock {
            defer { isClosed = true }
            return !isClosed
        }
        guard closing else { return }
        // No read starts on its own connection now; those running end within their query.
        readsOnOwnConnections.wait()
        let watcher: RemoteChangeWatcher? = lock.withLock {
            idleCheckpoint?.cancel()
            idleCheckpoint = nil
            // A checkpoint that fails leaves the log, which SQLite reads at the next open: nothing
            // is lost, so closing goes on.
            _ = try? checkpointLocked()
            connection.close()
            defer { self.watcher = nil }
            return self.watcher
        }
        watcher?.stop()
    }

    /// Checkpoints the log after `delay` without a commit of this store, and again after each
    /// later quiet spell, so that the store file holds everything while the program stays open but
    /// idle (an app the writer left open while copying the library). A read-only or in-memory
    /// store has nothing to checkpoint; calling it again replaces the delay.
    public func checkpointWhenIdle(after delay: Duration) {
        guard !storeDescription.isReadOnly, storeDescription.url != nil else { return }
        lock.withLock {
            guard !isClosed else { return }
            idleCheckpoint?.cancel()
            idleCheckpoint = IdleCheckpoint(delay: delay) { [weak self] in self?.checkpointAfterQuietSpell() }
        }
    }

    /// The idle checkpoint: skipped once the store is closed; a failure waits for the next quiet spell.
    private func checkpointAfterQuietSpell() {
        lock.withLock {
            guard !isClosed else { return }
            _ = try? checkpointLocked()
        }
    }

    /// ``checkpoint()`` with the lock held.
    private func checkpointLocked() throws -> Bool {
        guard !storeDescription.isReadOnly, storeDescription.url != nil else { return false }
        var logFrames: Int32 = 0
        var checkpointedFrames: Int32 = 0
        let code = sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointedFrames)
        switch code & 0xff {
        case SQLITE_OK: return true
        case SQLITE_BUSY, SQLITE_LOCKED: return false
        default: throw connection.error(code: code, statement: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    // MARK: Opening

    static func tableNames(_ connection: SQLiteConnection) throws -> [String] {
        let statement = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
        defer { statement.reset() }
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0)) }
        return names
    }

    /// The tables and columns `model` reads that the store lacks (as `table` or `table.column`).
    static func missingLayout(_ connection: SQLiteConnection, _ model: SchemaModel) throws -> [String] {
        var missing: [String] = []
        let tables = Set(try tableNames(connection))
        for object in StoreLayout.objects(for: model) where object.kind != .index && object.kind != .trigger {
            guard tables.contains(object.name) else {
                missing.append(object.name)
                continue
            }
            guard object.kind == .entityTable, let entity = model.entity(named: object.name) else { continue }
            let statement = try connection.statement("SELECT name FROM pragma_table_info(?)")
            statement.bind([.string(object.name)])
            var columns = Set<String>()
            while try statement.step() { columns.insert(statement.text(0)) }
            statement.reset()
            missing += entity.columns.map(\.name).filter { !columns.contains($0) }.map { "\(object.name).\($0)" }
        }
        return missing
    }

    private static func configure(_ connection: SQLiteConnection, _ description: StoreDescription) throws {
        if !description.isReadOnly, case .file = description.location {
            try connection.execute("PRAGMA journal_mode = WAL")
        }
        try connection.execute("PRAGMA synchronous = \(description.synchronous.rawValue)")
        try connection.execute("PRAGMA foreign_keys = ON")
        // A statement that fires triggers (a full-text index's) keeps the pages it changes in a
        // statement journal, to undo it alone if it fails. In a temporary file past 64 KiB, as by
        // default, an article's insert into a library of 10,000 wrote 11-27 pages of 4 KiB there,
        // each with its own system call: 134,000 pages for 10,000 demo articles. In memory the
        // journal is a copy, freed when the statement ends. (It also keeps temporary tables in
        // memory; sorts still spill to files.)
        try connection.execute("PRAGMA temp_store = MEMORY")
        // A save's changed pages stay in memory until its commit, up to `spillThresholdPages`:
        // with SQLite's default (spilling once its 2 MB cache is full) a save of 2,000 articles
        // wrote pages to the log, read them back and wrote them again (10,000 demo articles: 38 %
        // fewer writes to the log and the file, a third fewer reads).
        try connection.execute("PRAGMA cache_spill = \(spillThresholdPages)")
    }

    /// The pages a write transaction may keep changed in memory before SQLite writes them to the
    /// log ahead of its commit (`PRAGMA cache_spill`): 64 MB of 4 KiB pages. Only a transaction
    /// that changes that much uses it; the cache of pages read stays SQLite's default.
    public static let spillThresholdPages = 16_384

    private static func createLayout(_ connection: SQLiteConnection, model: SchemaModel, metadata: StoreMetadata) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            for statement in StoreLayout.createStatements(for: model) { try connection.execute(statement) }
            let rows: [(String, PrimitiveValue)] = [
                (StoreMetadata.Key.storeIdentifier, .string(metadata.storeIdentifier.uuidString)),
                (StoreMetadata.Key.schemaVersion, .integer(Int64(metadata.schema.version))),
                (StoreMetadata.Key.schemaChecksum, .string(metadata.schema.checksum)),
                (StoreMetadata.Key.formatVersion, .integer(Int64(metadata.formatVersion))),
            ]
            for (key, value) in rows {
                try connection.run("INSERT INTO og_metadata (key, value) VALUES (?, ?)", [.string(key), value])
            }
            try connection.execute("COMMIT")
        } catch {
            // As in `rollback()`: the error being thrown is what matters.
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    static func readMetadata(_ connection: SQLiteConnection) throws -> StoreMetadata {
        let statement = try connection.statement("SELECT key, value FROM og_metadata")
        defer { statement.reset() }
        var values: [String: PrimitiveValue] = [:]
        while try statement.step() { values[statement.text(0)] = statement.anyValue(1) }
        guard case .string(let identifierText)? = values[StoreMetadata.Key.storeIdentifier],
              let identifier = UUID(uuidString: identifierText),
              case .integer(let version)? = values[StoreMetadata.Key.schemaVersion],
              case .string(let checksum)? = values[StoreMetadata.Key.schemaChecksum],
              case .integer(let format)? = values[StoreMetadata.Key.formatVersion]
        else {
            throw StoreError(
                kind: .corrupt, message: "the store's metadata is incomplete",
                statement: "SELECT key, value FROM og_metadata", path: connection.path)
        }
        return StoreMetadata(
            storeIdentifier: identifier, schema: SchemaVersion(version: Int(version), checksum: checksum),
            formatVersion: Int(format))
    }
}

/// Rows left pointing at rows that no longer exist, found when a save's commit failed its deferred
/// foreign-key check. The context turns it into a ``ValidationError``.
struct DanglingReferenceError: Error {
    struct Violation {
        /// The table holding the reference.
        let table: String
        /// The referencing row's primary key (nil for join tables).
        let key: Int64?
        /// The table the reference points into.
        let parent: String
    }

    let violations: [Violation]
}
