import CSQLite
import Foundation

/// Renames a table of the store at `url` through a connection of the test's own, so that the
/// store's next read of that table fails as a damaged file would make it fail; renaming it back
/// makes the store readable again.
public func renameStoreTable(_ name: String, to newName: String, in url: URL) throws {
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK,
          sqlite3_busy_timeout(handle, 5_000) == SQLITE_OK,
          sqlite3_exec(handle, "ALTER TABLE \"\(name)\" RENAME TO \"\(newName)\"", nil, nil, nil) == SQLITE_OK
    else {
        throw TestConnectionError(message: String(cString: sqlite3_errmsg(handle)))
    }
}
