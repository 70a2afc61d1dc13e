import CPostgres
import CSQLite

/// The current row of a query, read by column index (no lookups by name in the loops).
struct SQLRow {
    fileprivate enum Source {
        case sqlite(OpaquePointer)
        case postgres(OpaquePointer, row: Int32)
    }

    private let source: Source
    /// For errors: the statement that produced the row.
    let statement: String

    init(sqlite statement: OpaquePointer, sql: String) {
        source = .sqlite(statement)
        self.statement = sql
    }

    init(postgres result: OpaquePointer, row: Int32, sql: String) {
        source = .postgres(result, row: row)
        self.statement = sql
    }

    func isNull(_ column: Int32) -> Bool {
        switch source {
        case let .sqlite(handle): return sqlite3_column_type(handle, column) == SQLITE_NULL
        case let .postgres(result, row): return PQgetisnull(result, row, column) == 1
        }
    }

    func integer(_ column: Int32) throws -> Int64 {
        switch source {
        case let .sqlite(handle):
            return sqlite3_column_int64(handle, column)
        case let .postgres(result, row):
            let text = String(cString: PQgetvalue(result, row, column))
            guard let value = Int64(text) else {
                throw StorageError.unreadableValue(table: "result", column: "\(column)", detail: "'\(text)' in: \(statement)")
            }
            return value
        }
    }

    func text(_ column: Int32) -> String {
        switch source {
        case let .sqlite(handle):
            guard let bytes = sqlite3_column_text(handle, column) else { return "" }
            let count = Int(sqlite3_column_bytes(handle, column))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        case let .postgres(result, row):
            let count = Int(PQgetlength(result, row, column))
            return PQgetvalue(result, row, column).withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
        }
    }

    /// A `BLOB` (SQLite) or `bytea` (PostgreSQL, whose text format is `\x` and hex digits).
    func bytes(_ column: Int32) throws -> [UInt8] {
        switch source {
        case let .sqlite(handle):
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let start = sqlite3_column_blob(handle, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: start, count: count))
        case let .postgres(result, row):
            let count = Int(PQgetlength(result, row, column))
            return try PQgetvalue(result, row, column).withMemoryRebound(to: UInt8.self, capacity: count) { text in
                guard count >= 2, count % 2 == 0, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else {
                    throw StorageError.unreadableValue(table: "result", column: "\(column)", detail: "not bytea hex in: \(statement)")
                }
                var bytes = [UInt8](repeating: 0, count: count / 2 - 1)
                for index in bytes.indices {
                    guard let high = Self.hexValue(text[2 + 2 * index]), let low = Self.hexValue(text[3 + 2 * index]) else {
                        throw StorageError.unreadableValue(table: "result", column: "\(column)", detail: "not bytea hex in: \(statement)")
                    }
                    bytes[index] = high << 4 | low
                }
                return bytes
            }
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: return digit - 48
        case 97...102: return digit - 87
        case 65...70: return digit - 55
        default: return nil
        }
    }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    func optionalInteger(_ column: Int32) throws -> Int64? { isNull(column) ? nil : try integer(column) }
}
