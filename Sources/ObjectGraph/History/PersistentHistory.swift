import Foundation

extension PersistentStore {
    /// The store's persistent history: fetch transactions, delete old ones, register consumers.
    /// Throws ``ObjectGraphError/historyNotRecorded`` unless the store records history
    /// (``StoreDescription/recordsHistory``).
    public var history: PersistentHistory { PersistentHistory(store: self) }
}

/// The transactions a store recorded, and the consumers that process them.
///
///     let history = container.persistentStore.history
///     let consumer = try history.consumer(named: "search-index")
///     let pending = try consumer.pendingTransactions()
///     ... apply them in `context` ...
///     try context.save(advancing: consumer, to: pending.last!.token)   // effects and token in one transaction
///     try history.pruneProcessedHistory()                              // what every consumer has processed
public struct PersistentHistory: Sendable {
    let store: PersistentStore

    /// The transactions the request selects, oldest first, each with its changes.
    public func fetch(_ request: HistoryRequest = HistoryRequest()) throws -> [HistoryTransaction] {
        try checkRecorded()
        return try store.read { connection in try fetch(request, connection) }
    }

    /// The token of the newest transaction (nil when there is none).
    public func lastToken() throws -> HistoryToken? {
        try checkRecorded()
        return try store.read { connection in
            guard case .integer(let token)? = try connection.scalar("SELECT max(token) FROM og_history_transaction") else { return nil }
            return HistoryToken(rawValue: token)
        }
    }

    /// Deletes every transaction before `token`. Fetching after an older token then throws
    /// ``ObjectGraphError/historyExpired(after:prunedThrough:)``: such a reader must start over.
    public func deleteHistory(before token: HistoryToken) throws {
        try checkRecorded()
        try store.write { connection, _ in try Self.delete(before: token, connection) }
    }

    /// Deletes the history every registered consumer has processed (nothing while any consumer is
    /// at the beginning, and nothing without consumers).
    @discardableResult
    public func pruneProcessedHistory() throws -> HistoryToken? {
        try checkRecorded()
        return try store.write { connection, _ in
            guard case .integer(let minimum)? = try connection.scalar("SELECT min(token) FROM og_history_consumer"), minimum > 0 else {
                return nil
            }
            try Self.delete(before: HistoryToken(rawValue: minimum + 1), connection)
            return HistoryToken(rawValue: minimum)
        }
    }

    /// The consumer of this name, registered if it is new, starting after `token` (from the
    /// beginning when nil). A registered consumer holds back pruning until it has processed.
    public func consumer(named name: String, startingAfter token: HistoryToken? = nil) throws -> HistoryConsumer {
        try checkRecorded()
        try store.write { connection, _ in
            try connection.run(
                "INSERT OR IGNORE INTO og_history_consumer (name, token) VALUES (?, ?)",
                [.string(name), .integer(token?.rawValue ?? 0)])
        }
        return HistoryConsumer(name: name, store: store)
    }

    /// Unregisters a consumer, so it no longer holds back pruning.
    public func removeConsumer(named name: String) throws {
        try checkRecorded()
        try store.write { connection, _ in
            try connection.run("DELETE FROM og_history_consumer WHERE name = ?", [.string(name)])
        }
    }

    /// The registered consumers and the last token each processed.
    public func consumerTokens() throws -> [String: HistoryToken] {
        try checkRecorded()
        return try store.read { connection in
            let statement = try connection.statement("SELECT name, token FROM og_history_consumer")
            defer { statement.reset() }
            var tokens: [String: HistoryToken] = [:]
            while try statement.step() { tokens[statement.text(0)] = HistoryToken(rawValue: statement.int64(1)) }
            return tokens
        }
    }

    func checkRecorded() throws {
        guard store.recordsHistory else { throw ObjectGraphError.historyNotRecorded }
    }

    // MARK: Reading and deleting

    private static let prunedThroughKey = "history_pruned_through"

    private static func delete(before token: HistoryToken, _ connection: SQLiteConnection) throws {
        let bound: [PrimitiveValue] = [.integer(token.rawValue)]
        try connection.run(
            "DELETE FROM og_history_tombstone WHERE change IN (SELECT id FROM og_history_change WHERE token < ?)", bound)
        try connection.run("DELETE FROM og_history_change WHERE token < ?", bound)
        try connection.run("DELETE FROM og_history_transaction WHERE token < ?", bound)
        try connection.run("""
            INSERT INTO og_metadata (key, value) VALUES (?, ?) \
            ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)
            """, [.string(prunedThroughKey), .integer(token.rawValue - 1)])
    }

    func fetch(_ request: HistoryRequest, _ connection: SQLiteConnection) throws -> [HistoryTransaction] {
        if let after = request.after,
           case .integer(let prunedThrough)? = try connection.scalar("SELECT value FROM og_metadata WHERE key = ?", [.string(Self.prunedThroughKey)]),
           after.rawValue < prunedThrough {
            throw ObjectGraphError.historyExpired(after: after, prunedThrough: HistoryToken(rawValue: prunedThrough))
        }
        var conditions = ["token > ?"]
        var bindings: [PrimitiveValue] = [.integer(request.after?.rawValue ?? 0)]
        if let authors = request.authors {
            conditions.append("author IN (\(Array(repeating: "?", count: authors.count).joined(separator: ", ")))")
            bindings += authors.sorted().map(PrimitiveValue.string)
        }
        if !request.excludedAuthors.isEmpty {
            let list = Array(repeating: "?", count: request.excludedAuthors.count).joined(separator: ", ")
            conditions.append("(author IS NULL OR author NOT IN (\(list)))")
            bindings += request.excludedAuthors.sorted().map(PrimitiveValue.string)
        }
        if let origin = request.excludedOrigin {
            conditions.append("origin <> ?")
            bindings.append(.string(origin))
        }
        var entityCondition = ""
        var entityBindings: [PrimitiveValue] = []
        if let names = request.entityNames {
            entityCondition = "entity IN (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
            entityBindings = names.sorted().map(PrimitiveValue.string)
            conditions.append("EXISTS (SELECT 1 FROM og_history_change c WHERE c.token = t.token AND c.\(entityCondition))")
            bindings += entityBindings
        }
        var sql = "SELECT token, timestamp, author, context_name FROM og_history_transaction AS t WHERE "
            + conditions.joined(separator: " AND ") + " ORDER BY token"
        if request.fetchLimit > 0 { sql += " LIMIT \(request.fetchLimit)" }

        var transactions: [HistoryTransaction] = []
        var positions: [Int64: Int] = [:]
        let statement = try connection.statement(sql)
        statement.bind(bindings)
        do {
            defer { statement.reset() }
            while try statement.step() {
                let token = statement.int64(0)
                positions[token] = transactions.count
                transactions.append(HistoryTransaction(
                    token: HistoryToken(rawValue: token), timestamp: Date(timeIntervalSince1970: statement.double(1)),
                    author: statement.isNull(2) ? nil : statement.text(2),
                    contextName: statement.isNull(3) ? nil : statement.text(3), changes: []))
            }
        }
        guard let first = transactions.first?.token.rawValue, let last = transactions.last?.token.rawValue else { return [] }

        // Changes of the whole token range, in one query; those of transactions left out are skipped.
        var changeSQL = "SELECT id, token, entity, kind, first_key, last_key, properties FROM og_history_change WHERE token >= ? AND token <= ?"
        if !entityCondition.isEmpty { changeSQL += " AND " + entityCondition }
        changeSQL += " ORDER BY token, id"
        var deletes: [Int64: (transaction: Int, change: Int, entity: EntityModel)] = [:]
        let changes = try connection.statement(changeSQL)
        changes.bind([.integer(first), .integer(last)] + entityBindings)
        do {
            defer { changes.reset() }
            while try changes.step() {
                guard let position = positions[changes.int64(1)],
                      let entity = store.model.entity(named: changes.text(2)),
                      let kind = HistoryLayout.Kind(rawValue: changes.int64(3)) else { continue }
                let firstKey = changes.int64(4)
                switch kind {
                case .insert:
                    for key in firstKey...max(firstKey, changes.int64(5)) {
                        transactions[position].changes.append(HistoryChange(objectID: ManagedObjectID(entity: entity, key: key), kind: .insert))
                    }
                case .update:
                    let names = changes.isNull(6) ? [] : changes.text(6).split(separator: ",").map(String.init)
                    transactions[position].changes.append(HistoryChange(
                        objectID: ManagedObjectID(entity: entity, key: firstKey),
                        kind: .update(ChangedKeys(entity: entity, names: names))))
                case .delete:
                    deletes[changes.int64(0)] = (position, transactions[position].changes.count, entity)
                    transactions[position].changes.append(HistoryChange(
                        objectID: ManagedObjectID(entity: entity, key: firstKey), kind: .delete(tombstone: [:])))
                }
            }
        }
        guard !deletes.isEmpty, store.model.entities.contains(where: { !$0.tombstoneSlots.isEmpty }) else { return transactions }

        let tombstones = try connection.statement("""
            SELECT t.change, t.name, t.value FROM og_history_tombstone AS t JOIN og_history_change AS c ON c.id = t.change \
            WHERE c.token >= ? AND c.token <= ?
            """)
        tombstones.bind([.integer(first), .integer(last)])
        defer { tombstones.reset() }
        var values: [Int64: [String: PrimitiveValue]] = [:]
        while try tombstones.step() {
            guard let delete = deletes[tombstones.int64(0)] else { continue }
            let name = tombstones.text(1)
            guard let index = delete.entity.attributeIndex[name] else { continue }
            values[tombstones.int64(0), default: [:]][name] = tombstones.value(2, as: delete.entity.attributes[index].type)
        }
        for (id, tombstone) in values {
            let delete = deletes[id]!
            let change = transactions[delete.transaction].changes[delete.change]
            transactions[delete.transaction].changes[delete.change] = HistoryChange(objectID: change.objectID, kind: .delete(tombstone: tombstone))
        }
        return transactions
    }
}
