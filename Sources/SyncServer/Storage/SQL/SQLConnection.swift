/// One connection to a database, used by one thread at a time. Statements use PostgreSQL's `$1`
/// placeholders; the SQLite connection maps them to `?1`.
protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }

    /// Runs a statement that returns no rows and answers how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int

    /// Runs a query and hands each row to `body`; the row is valid only during the call.
    func query(_ sql: String, _ parameters: [SQLValue], _ body: (SQLRow) throws -> Void) throws

    /// Runs statements that return no rows, in order, stopping at the first that fails, and
    /// answers how many rows each changed. PostgreSQL sends them in one round trip.
    func executeBatch(_ statements: [SQLStatement]) throws -> [Int]
}

extension SQLConnection {
    @discardableResult
    func execute(_ sql: String) throws -> Int { try execute(sql, []) }

    /// The first row mapped by `transform`, or nil when there is none.
    func first<T>(_ sql: String, _ parameters: [SQLValue], _ transform: (SQLRow) throws -> T) throws -> T? {
        var found: T?
        try query(sql, parameters) { row in
            if found == nil { found = try transform(row) }
        }
        return found
    }

    /// Every row mapped by `transform`.
    func all<T>(_ sql: String, _ parameters: [SQLValue], _ transform: (SQLRow) throws -> T) throws -> [T] {
        var rows: [T] = []
        try query(sql, parameters) { rows.append(try transform($0)) }
        return rows
    }

    /// Runs `body` in a transaction of `kind`: commits when it returns, rolls back when it throws.
    @discardableResult
    func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        try execute(dialect.begin(kind))
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            do {
                try execute("ROLLBACK")
            } catch let rollbackError {
                throw StorageError.rollbackFailed(underlying: error, rollback: rollbackError)
            }
            throw error
        }
    }
}
