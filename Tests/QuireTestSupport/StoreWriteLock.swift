import CSQLite
import Foundation

/// A store's write lock held by a connection of the test's own (`BEGIN IMMEDIATE`), as another
/// program writing would hold it: every save of the library waits until ``release()``, which
/// may come from any thread.
public final class StoreWriteLock: @unchecked Sendable {
    /// Guards `handle`.
    private let lock = NSLock()
    private var handle: OpaquePointer?

    /// Takes the write lock of the store at `url`.
    public init(_ url: URL) throws {
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw TestConnectionError(message: "cannot open \(url.path)")
        }
        sqlite3_busy_timeout(handle, 5_000)
        guard sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(handle))
            sqlite3_close(handle)
            throw TestConnectionError(message: message)
        }
    }

    /// Lets the library write again.
    public func release() {
        lock.withLock {
            guard let handle else { return }
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            sqlite3_close(handle)
            self.handle = nil
        }
    }

    deinit { release() }
}
