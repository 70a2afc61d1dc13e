import Foundation

/// The history transaction a write records: collected while the write runs, written by the store
/// just before COMMIT.
struct HistoryEntry {
    let author: String?
    let contextName: String?
    private var inserts: [(entity: EntityModel, keys: [Int64])] = []
    private var updates: [(entity: EntityModel, key: Int64, properties: PropertyMask)] = []
    private var deletes: [(entity: EntityModel, key: Int64, tombstone: [(name: String, value: PrimitiveValue)])] = []

    init(author: String?, contextName: String?) {
        self.author = author
        self.contextName = contextName
    }

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty }

    mutating func recordInserts(of entity: EntityModel, keys: [Int64]) {
        guard !keys.isEmpty else { return }
        inserts.append((entity, keys))
    }

    mutating func recordUpdate(of entity: EntityModel, key: Int64, properties: PropertyMask) {
        updates.append((entity, key, properties))
    }

    /// Records a delete with the preserved attributes of `values` (an object's values or a row's).
    mutating func recordDelete(of entity: EntityModel, key: Int64, values: ValueList) {
        var tombstone: [(name: String, value: PrimitiveValue)] = []
        for slot in entity.tombstoneSlots where slot < values.count && !values[slot].isNull {
            tombstone.append((entity.attributes[slot].name, values[slot]))
        }
        deletes.append((entity, key, tombstone))
    }

    /// Writes the transaction and its changes; returns its token.
    func write(_ connection: SQLiteConnection, origin: String) throws -> HistoryToken {
        let transactionSQL = """
            INSERT INTO og_history_transaction (timestamp, author, context_name, origin) VALUES (?, ?, ?, ?) RETURNING token
            """
        let bindings: [PrimitiveValue] = [
            .double(Date().timeIntervalSince1970), author.map(PrimitiveValue.string) ?? .null,
            contextName.map(PrimitiveValue.string) ?? .null, .string(origin),
        ]
        guard let token = try connection.integers(transactionSQL, bindings).first else {
            throw StoreError(kind: .other, message: "no history token was assigned", statement: transactionSQL)
        }
        let change = try connection.statement("""
            INSERT INTO og_history_change (token, entity, kind, first_key, last_key, properties) \
            VALUES (?, ?, ?, ?, ?, ?) RETURNING id
            """)
        func writeChange(_ entity: EntityModel, _ kind: HistoryLayout.Kind, _ first: Int64, _ last: Int64, _ properties: String?) throws -> Int64 {
            defer { change.reset() }
            change.bind(token, at: 1)
            change.bind(entity.name, at: 2)
            change.bind(kind.rawValue, at: 3)
            change.bind(first, at: 4)
            change.bind(last, at: 5)
            if let properties { change.bind(properties, at: 6) } else { change.bindNull(at: 6) }
            guard try change.step() else {
                throw StoreError(kind: .other, message: "no history change id was assigned", statement: change.sql)
            }
            return change.int64(0)
        }

        for (entity, keys) in inserts {
            // Consecutive keys share one row.
            let sorted = keys.sorted()
            var start = 0
            while start < sorted.count {
                var end = start
                while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
                _ = try writeChange(entity, .insert, sorted[start], sorted[end], nil)
                start = end + 1
            }
        }
        for (entity, key, properties) in updates {
            let names = properties.positions.map(entity.propertyName(at:)).joined(separator: ",")
            _ = try writeChange(entity, .update, key, key, names)
        }
        for (entity, key, tombstone) in deletes {
            let id = try writeChange(entity, .delete, key, key, nil)
            for (name, value) in tombstone {
                try connection.run(
                    "INSERT INTO og_history_tombstone (change, name, value) VALUES (?, ?, ?)", [.integer(id), .string(name), value])
            }
        }
        return HistoryToken(rawValue: token)
    }
}
