import CPostgres
import Glibc

/// A libpq connection, with one server-side prepared statement per SQL text.
///
/// `@unchecked Sendable` because the pool hands each connection to one thread at a time.
final class PostgresConnection: SQLConnection, @unchecked Sendable {
    let dialect = SQLDialect.postgres
    private let handle: OpaquePointer
    private var statementNames: [String: String] = [:]
    /// Statements run on connecting and again after every reset, such as `SET synchronous_commit`.
    private let session: [String]
    /// Set when a failure left the connection in a state nobody can vouch for; the next
    /// `restoreIfBroken` resets it.
    private var needsReset = false

    /// Connects to `url` (a libpq connection URI) and runs `session`. Errors name the host,
    /// never the password.
    init(url: String, session: [String] = []) throws {
        guard let handle = PQconnectdb(url) else {
            throw StorageError.cannotOpen(location: "PostgreSQL", reason: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = Self.message(handle)
            PQfinish(handle)
            throw StorageError.cannotOpen(location: "PostgreSQL", reason: reason)
        }
        self.handle = handle
        self.session = session
        // Notices (such as "relation already exists, skipping") would go to stderr otherwise.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        for statement in session { try execute(statement) }
    }

    deinit { PQfinish(handle) }

    /// Resets a broken connection, which drops its prepared statements and session settings,
    /// and sets it up again.
    func restoreIfBroken() throws {
        guard needsReset || PQstatus(handle) != CONNECTION_OK else { return }
        statementNames.removeAll()
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw StorageError.cannotOpen(location: "PostgreSQL", reason: Self.message(handle))
        }
        needsReset = false
        for statement in session { try execute(statement) }
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws -> Int {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Sends every statement in pipeline mode and reads the answers after one sync: one round
    /// trip. After a failure PostgreSQL skips the rest, and the first error is thrown.
    func executeBatch(_ statements: [SQLStatement]) throws -> [Int] {
        guard statements.count > 1 else { return try statements.map { try execute($0.sql, $0.parameters) } }
        let names = try statements.map { try statementName(for: $0.sql) }
        guard PQenterPipelineMode(handle) == 1 else {
            throw StorageError.postgres(sqlState: nil, message: Self.message(handle), statement: "(entering pipeline mode)")
        }
        // Until the pipeline is drained the connection is unusable; if anything below throws
        // early, the next checkout resets it.
        needsReset = true
        for (statement, name) in zip(statements, names) {
            let sent = withParameters(statement.parameters) { pointers, lengths, formats in
                PQsendQueryPrepared(handle, name, Int32(pointers.count), pointers, lengths, formats, 0)
            }
            guard sent == 1 else {
                throw StorageError.postgres(sqlState: nil, message: Self.message(handle), statement: statement.sql)
            }
        }
        guard PQpipelineSync(handle) == 1 else {
            throw StorageError.postgres(sqlState: nil, message: Self.message(handle), statement: "(pipeline sync)")
        }
        var counts: [Int] = []
        var firstError: StorageError?
        for statement in statements {
            guard let result = PQgetResult(handle) else {
                throw StorageError.postgres(sqlState: nil, message: Self.message(handle), statement: statement.sql)
            }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                counts.append(Int(String(cString: PQcmdTuples(result))) ?? 0)
            case PGRES_PIPELINE_ABORTED:
                break
            default:
                let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
                firstError = firstError ?? .postgres(
                    sqlState: sqlState, message: String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines(),
                    statement: statement.sql)
            }
            PQclear(result)
            // Each statement's results end with a NULL.
            if let unexpected = PQgetResult(handle) {
                PQclear(unexpected)
                throw StorageError.postgres(sqlState: nil, message: "a second result in a pipeline", statement: statement.sql)
            }
        }
        guard let sync = PQgetResult(handle), PQresultStatus(sync) == PGRES_PIPELINE_SYNC else {
            throw StorageError.postgres(sqlState: nil, message: Self.message(handle), statement: "(pipeline sync)")
        }
        PQclear(sync)
        guard PQexitPipelineMode(handle) == 1 else {
            throw StorageError.postgres(sqlState: nil, message: Self.message(handle), statement: "(leaving pipeline mode)")
        }
        needsReset = false
        if let firstError { throw firstError }
        return counts
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
        let result = withParameters(parameters) { pointers, lengths, formats in
            PQexecPrepared(handle, name, Int32(pointers.count), pointers, lengths, formats, 0)
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

/// Calls `body` with the parameters as libpq takes them, alive for the call: text parameters as
/// C strings (NULL for SQL NULL), bytes in binary format with their lengths, so that a blob is
/// sent as it is rather than as twice as many hex digits.
private func withParameters<R>(
    _ parameters: [SQLValue], _ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> R
) -> R {
    var copies: [UnsafeMutablePointer<CChar>?] = []
    var lengths: [Int32] = []
    var formats: [Int32] = []
    for parameter in parameters {
        switch parameter {
        case let .integer(number):
            copies.append(strdup(String(number)))
        case let .text(text):
            copies.append(strdup(text))
        case .null:
            copies.append(nil)
        case let .bytes(bytes):
            let copy = malloc(max(1, bytes.count))!
            bytes.withUnsafeBytes { if let source = $0.baseAddress { copy.copyMemory(from: source, byteCount: bytes.count) } }
            copies.append(copy.assumingMemoryBound(to: CChar.self))
        }
        if case let .bytes(bytes) = parameter {
            lengths.append(Int32(bytes.count))
            formats.append(1)
        } else {
            lengths.append(0)
            formats.append(0)
        }
    }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } }, lengths, formats)
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
