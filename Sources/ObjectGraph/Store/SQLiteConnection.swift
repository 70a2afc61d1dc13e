import CSQLite
import Foundation

/// One SQLite connection with a cache of prepared statements. Not thread-safe: the store serializes
/// every use behind its lock.
final class SQLiteConnection {
    let handle: OpaquePointer
    /// The file, or `:memory:`.
    let path: String
    /// Called with the SQL of every statement as it starts running; see `PersistentStore.setStatementTrace`.
    var trace: (@Sendable (String) -> Void)?
    private var cache: [String: Statement] = [:]

    /// Opens a connection. Never creates a file unless `create` is true. With `acceptsURIs`,
    /// `ATTACH` takes `file:` URIs (a migration attaches the original store with `mode=ro`). An
    /// `immutable` connection reads the file without locks or log (see ``openForReading(path:)``).
    init(path: String, readOnly: Bool, create: Bool, acceptsURIs: Bool = false, immutable: Bool = false) throws {
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        if acceptsURIs || immutable { flags |= SQLITE_OPEN_URI }
        // The store's lock serializes access, so SQLite's own mutexes are not needed.
        flags |= SQLITE_OPEN_NOMUTEX
        let name = immutable ? Self.uri(path, query: "immutable=1") : path
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let systemError = handle.map { sqlite3_system_errno($0) } ?? 0
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(handle)
            throw StoreError(
                kind: .classify(resultCode: code, systemError: systemError), resultCode: code,
                message: message, statement: nil, path: path)
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        SQLFunctions.register(on: handle)
    }

    deinit {
        close()
    }

    /// Whether ``close()`` has not run yet.
    private(set) var isOpen = true

    /// Finalizes the cached statements and closes the connection; nothing may use it afterwards.
    /// When it is the file's last connection, SQLite checkpoints the write-ahead log into the file
    /// and removes the log and shared-memory files (when another connection still has the file
    /// open, they stay for it). Closing twice does nothing.
    func close() {
        guard isOpen else { return }
        isOpen = false
        cache.removeAll()
        // `_v2`: a statement still held somewhere keeps the connection until it is finalized.
        sqlite3_close_v2(handle)
    }

    /// A read-only connection that has read the schema. A store in WAL mode is read through its
    /// `-shm` file, which SQLite cannot make in a folder it may not write (or on a read-only file
    /// system); such a store is then read as immutable, which is exact while its log is empty and
    /// nothing can write to it. A store whose log holds commits is never read that way.
    ///
    /// Reading waits up to `busyTimeout` for a writer that holds the file exclusively (one that
    /// is closing, checkpointing its log, holds it that long).
    static func openForReading(path: String, busyTimeout: TimeInterval = 5) throws -> SQLiteConnection {
        do {
            let connection = try SQLiteConnection(path: path, readOnly: true, create: false)
            sqlite3_busy_timeout(connection.handle, Int32(max(0, busyTimeout * 1000).rounded()))
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            return connection
        } catch let error as StoreError where [.readOnly, .cannotOpen, .permissionDenied].contains(error.kind) {
            var log = stat()
            guard stat(path + "-wal", &log) != 0 || log.st_size == 0 else { throw error }
            let connection = try SQLiteConnection(path: path, readOnly: true, create: false, immutable: true)
            _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
            return connection
        }
    }

    /// A `file:` URI for a path, with a query.
    static func uri(_ path: String, query: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?" + query
    }

    /// A typed error for a failed call, with SQLite's message and the statement.
    func error(code: Int32, statement: String?) -> StoreError {
        let extended = sqlite3_extended_errcode(handle)
        let resultCode = extended & 0xff == code & 0xff ? extended : code
        return StoreError(
            kind: .classify(resultCode: resultCode, systemError: sqlite3_system_errno(handle)), resultCode: resultCode,
            message: String(cString: sqlite3_errmsg(handle)), statement: statement,
            path: path == ":memory:" ? nil : path)
    }

    /// Runs SQL that returns no rows; several statements may be separated by semicolons.
    func execute(_ sql: String) throws {
        var remaining = sql
        while true {
            let statement: Statement?
            (statement, remaining) = try prepareFirst(of: remaining)
            guard let statement else { return }
            while try statement.step() {}
            statement.reset()
        }
    }

    /// A statement for `sql` from the cache (prepared once), or a fresh one while the cached one is
    /// still running.
    func statement(_ sql: String) throws -> Statement {
        if let cached = cache[sql], !cached.isActive { return cached }
        let (prepared, _) = try prepareFirst(of: sql)
        guard let prepared else {
            throw StoreError(kind: .other, message: "empty statement", statement: sql, path: path)
        }
        if cache[sql] == nil {
            // Generated SQL varies with predicates and list lengths; bound the cache so a long-lived
            // store does not keep every statement it ever ran (the hot ones are prepared again).
            if cache.count >= Self.cacheLimit { cache = cache.filter { $0.value.isActive } }
            cache[sql] = prepared
        }
        return prepared
    }

    private static let cacheLimit = 512

    /// Runs a query and returns the first column of each row as an integer.
    func integers(_ sql: String, _ bindings: [PrimitiveValue] = []) throws -> [Int64] {
        let statement = try statement(sql)
        defer { statement.reset() }
        statement.bind(bindings)
        var result: [Int64] = []
        while try statement.step() { result.append(statement.int64(0)) }
        return result
    }

    /// Runs a query and returns the first column of the first row, if there is one.
    func scalar(_ sql: String, _ bindings: [PrimitiveValue] = []) throws -> PrimitiveValue? {
        let statement = try statement(sql)
        defer { statement.reset() }
        statement.bind(bindings)
        // Not `step() ? value : nil`: `PrimitiveValue` takes the `nil` literal, which would make it `.null`.
        guard try statement.step() else { return nil }
        return statement.anyValue(0)
    }

    /// Runs a statement that returns no rows, with bindings.
    func run(_ sql: String, _ bindings: [PrimitiveValue] = []) throws {
        let statement = try statement(sql)
        statement.bind(bindings)
        try statement.run()
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The key SQLite gave the row the last insert on this connection added.
    var lastInsertedKey: Int64 { sqlite3_last_insert_rowid(handle) }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    func traceStart(of statement: Statement) {
        trace?(statement.sql)
    }

    private func prepareFirst(of sql: String) throws -> (Statement?, String) {
        var handle: OpaquePointer?
        var tail = ""
        let code = sql.withCString { text -> Int32 in
            var end: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(self.handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, &end)
            if let end { tail = String(cString: end) }
            return code
        }
        guard code == SQLITE_OK else { throw error(code: code, statement: sql) }
        guard let handle else {
            // Only whitespace or comments were left.
            return (nil, "")
        }
        let text = String(cString: sqlite3_sql(handle))
        return (Statement(handle: handle, sql: text, connection: self), tail)
    }
}

/// Quoting for identifiers in generated SQL.
enum SQL {
    static func quote(_ identifier: String) -> String {
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
