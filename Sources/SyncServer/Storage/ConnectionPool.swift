import Foundation

/// Up to `capacity` connections opened on demand and lent to one thread at a time; a thread that
/// finds all of them lent waits for one to come back.
///
/// `@unchecked Sendable`: its state is only touched under `condition`.
final class ConnectionPool<Connection: SQLConnection>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private let open: () throws -> Connection
    private var idle: [Connection] = []
    private var opened = 0
    private var isClosed = false

    init(capacity: Int, open: @escaping () throws -> Connection) {
        self.capacity = max(1, capacity)
        self.open = open
    }

    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Drops the idle connections; connections lent out are dropped when they come back.
    func close() {
        condition.lock()
        isClosed = true
        idle.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func checkOut() throws -> Connection {
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw StorageError.cannotOpen(location: "connection pool", reason: "the storage was closed")
            }
            if let connection = idle.popLast() {
                condition.unlock()
                return connection
            }
            if opened < capacity {
                opened += 1
                condition.unlock()
                do {
                    return try open()
                } catch {
                    condition.lock()
                    opened -= 1
                    condition.signal()
                    condition.unlock()
                    throw error
                }
            }
            condition.wait()
        }
    }

    private func checkIn(_ connection: Connection) {
        condition.lock()
        if isClosed { opened -= 1 } else { idle.append(connection) }
        condition.signal()
        condition.unlock()
    }
}
