import CPostgres
import Glibc

/// A libpq connection, with one server-side prepared statement per SQL text.
///
/// `@unchecked Sendable` because the pool hands each connection to one thread at a time.
final class PostgresConnection: SQLConnection, @unchecked Sendable {
    let dialect = SQLDialect.postgres
    private let handle: OpaquePointer
    private var statementNames: [String: String] = [:]

    /// Connects to `url` (a libpq connection URI). Errors name the host, never the password.
    init(url: String) throws {
        guard let handle = PQconnectdb(url) else {
            throw StorageError.cannotOpen(location: "PostgreSQL", reason: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = Self.message(handle)
            PQfinish(handle)
            throw StorageError.cannotOpen(location: "PostgreSQL", reason: reason)
        }
        self.handle = handle
        // Notices (such as "relation already exists, skipping") would go to stderr otherwise.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection still works; a broken one is reset, dropping its prepared statements.
    func restoreIfBroken() throws {
        guard PQstatus(handle) != CONNECTION_OK else { return }
        statementNames.removeAll()
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StorageError.cannotOpen(location: "PostgreSQL", reason: Self.message(handle))
        }
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    func query(_ sql: String, _ parameters: [SQLValue], _ body: (SQLRow) throws -> Void) throws {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        for row in 0..<PQntuples(result) {
            try body(SQLRow(postgres: result, row: row, sql: sql))
        }
    }

    private func run(_ sql: String, _ parameters: [SQLValue]) throws -> OpaquePointer {
        let name = try statementName(for: sql)
        let texts: [String?] = parameters.map { value in
            switch value {
            case let .integer(number): return String(number)
            case let .text(text): return text
            case .null: return nil
            }
        }
        let result = withCStrings(texts) { pointers in
            PQexecPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0)
        }
        return try checked(result, sql)
    }

    private func statementName(for sql: String) throws -> String {
        if let name = statementNames[sql] { return name }
        let name = "q\(statementNames.count)"
        PQclear(try checked(PQprepare(handle, name, sql, 0, nil), sql))
        statementNames[sql] = name
        return name
    }

    private func checked(_ result: OpaquePointer?, _ sql: String) throws -> OpaquePointer {
        guard let result else {
            throw StorageError.postgres(sqlState: nil, message: Self.message(handle), statement: sql)
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines()
            PQclear(result)
            throw StorageError.postgres(sqlState: sqlState, message: message, statement: sql)
        }
        return result
    }

    private static func message(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines()
    }
}

/// Calls `body` with C strings for `texts` (NULL for nil) that live for the call.
private func withCStrings<R>(_ texts: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = texts.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
