import CSQLite
import Foundation

/// SQLite's query plan for a statement, read with a connection of the test's own.
public enum QueryPlan {
    public static func explain(_ sql: String, in url: URL) throws -> String {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw TestConnectionError(message: "cannot open \(url.path)")
        }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "EXPLAIN QUERY PLAN " + sql, -1, &statement, nil) == SQLITE_OK else {
            throw TestConnectionError(message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var lines: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { lines.append(String(cString: sqlite3_column_text(statement, 3))) }
        return lines.joined(separator: " | ")
    }
}

/// What a test's own SQLite connection could not do (query plans, the write lock, table renames).
public struct TestConnectionError: Error {
    public let message: String
}
