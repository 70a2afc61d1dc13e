import CSQLite

/// A connection to the SQLite database, with one prepared statement per SQL text.
///
/// `@unchecked Sendable` because a connection moves between threads: the storage hands each one to
/// one thread at a time (the writer under a lock, readers through a pool).
final class SQLiteConnection: SQLConnection, @unchecked Sendable {
    let dialect = SQLDialect.sqlite
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating if needed) the database at `path` and applies `pragmas` in order.
    init(path: String, pragmas: [String]) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw StorageError.cannotOpen(location: path, reason: "SQLite error \(code): \(reason)")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        for pragma in pragmas { try execute(pragma) }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int {
        let statement = try prepared(sql, parameters)
        defer { sqlite3_reset(statement) }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        guard code == SQLITE_DONE else { throw error(sql) }
        return Int(sqlite3_changes(handle))
    }

    func executeBatch(_ statements: [SQLStatement]) throws -> [Int] {
        try statements.map { try execute($0.sql, $0.parameters) }
    }

    func query(_ sql: String, _ parameters: [SQLValue], _ body: (SQLRow) throws -> Void) throws {
        let statement = try prepared(sql, parameters)
        defer { sqlite3_reset(statement) }
        let row = SQLRow(sqlite: statement, sql: sql)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(sql) }
            try body(row)
        }
    }

    private func prepared(_ sql: String, _ parameters: [SQLValue]) throws -> OpaquePointer {
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            // `$1` and `?1` both bind by number in SQLite; `?1` makes the numbering explicit.
            let text = sql.replacingOccurrences(of: "$", with: "?")
            var prepared: OpaquePointer?
            let code = sqlite3_prepare_v3(handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard code == SQLITE_OK, let prepared else { throw error(sql) }
            statements[sql] = prepared
            statement = prepared
        }
        sqlite3_clear_bindings(statement)
        for (index, value) in parameters.enumerated() {
            let position = Int32(index + 1)
            let code: Int32
            switch value {
            case let .integer(number): code = sqlite3_bind_int64(statement, position, number)
            case let .text(text): code = sqlite3_bind_text(statement, position, text, -1, sqliteTransient)
            case let .bytes(bytes):
                code = bytes.withUnsafeBytes { sqlite3_bind_blob64(statement, position, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64($0.count), sqliteTransient) }
            case .null: code = sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw error(sql) }
        }
        return statement
    }

    private func error(_ sql: String) -> StorageError {
        .sqlite(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), statement: sql)
    }
}

/// SQLite's `SQLITE_TRANSIENT`: copy the bound text, since Swift's buffer does not outlive the call.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
