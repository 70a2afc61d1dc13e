/// A named reader of persistent history that remembers, in the store, the last transaction it
/// processed, so that it continues there after a restart or a crash.
///
/// Make it with ``PersistentHistory/consumer(named:startingAfter:)``. Process its
/// ``pendingTransactions(_:)``, then record the last token: with
/// `context.save(advancing:to:)` when processing writes to the store (the effects and the token
/// commit together, so a crash leaves both or neither), or with ``markProcessed(through:)`` when
/// it does not (then a crash between the effects and the token replays the transactions, so the
/// effects must be idempotent; merging history into a context is).
public struct HistoryConsumer: Sendable {
    /// The consumer's name, its key in the store.
    public let name: String
    let store: PersistentStore

    /// The last token the consumer processed (``HistoryToken/beginning`` before any).
    public func processedToken() throws -> HistoryToken {
        try store.history.checkRecorded()
        return try store.read { connection in
            guard case .integer(let token)? = try connection.scalar(
                "SELECT token FROM og_history_consumer WHERE name = ?", [.string(name)]) else {
                return .beginning
            }
            return HistoryToken(rawValue: token)
        }
    }

    /// The transactions after the processed token that `request` selects (its `after` is
    /// replaced by the consumer's token).
    public func pendingTransactions(_ request: HistoryRequest = HistoryRequest()) throws -> [HistoryTransaction] {
        try store.history.checkRecorded()
        return try store.read { connection in
            var request = request
            var token: Int64 = 0
            if case .integer(let stored)? = try connection.scalar(
                "SELECT token FROM og_history_consumer WHERE name = ?", [.string(name)]) {
                token = stored
            }
            request.after = HistoryToken(rawValue: token)
            return try store.history.fetch(request, connection)
        }
    }

    /// Records that the consumer processed everything through `token`, in a transaction of its
    /// own. A token never moves back.
    public func markProcessed(through token: HistoryToken) throws {
        try store.history.checkRecorded()
        try store.write { connection, _ in try Self.store(token, for: name, connection) }
    }

    /// Stores a consumer's token inside the current transaction.
    static func store(_ token: HistoryToken, for name: String, _ connection: SQLiteConnection) throws {
        try connection.run("""
            INSERT INTO og_history_consumer (name, token) VALUES (?, ?) \
            ON CONFLICT (name) DO UPDATE SET token = max(token, excluded.token)
            """, [.string(name), .integer(token.rawValue)])
    }
}
