/// The inserts of one entity's new rows within a write, for a save and a batch insert alike.
///
/// Keys come from the entity's counter. A row whose key is one above the table's largest (as new
/// rows' keys are when they come from the counter in order) is inserted without its key: SQLite
/// numbers it the same and appends it without looking the key up (3 % fewer of SQLite's
/// instructions per row at the bench's row shape, counted with callgrind; the raw C API's insert
/// gives no key either). The key SQLite gave is checked, so a broken assumption stops the write
/// instead of misnaming a row. Other rows (keys obtained early, rows written again after a
/// conflict, keys above a deleted top row) are inserted with their key.
struct RowInserts {
    private let connection: SQLiteConnection
    private let entityName: String
    private let keyed: Statement
    private let appended: Statement
    /// The key goes after the other columns, so both statements take those at the same parameters.
    private let keyParameter: Int32
    /// The key SQLite would give the next row: one above the table's largest, read once (inside the
    /// write transaction, so no other connection inserts meanwhile) and then followed.
    private var nextKey: Int64

    /// Statements inserting `columns` (quoted names, bound from parameter 1), then `conflictClause`.
    init(_ connection: SQLiteConnection, entity: EntityModel, columns: [String], conflictClause: String = "") throws {
        func statement(givingKey: Bool) throws -> Statement {
            let names = columns + (givingKey ? ["_pk"] : [])
            let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
            return try connection.statement(
                "INSERT INTO \(entity.table) (\(names.joined(separator: ", "))) VALUES (\(placeholders))\(conflictClause)")
        }
        self.connection = connection
        entityName = entity.name
        keyed = try statement(givingKey: true)
        appended = try statement(givingKey: false)
        keyParameter = Int32(columns.count + 1)
        nextKey = (try connection.integers("SELECT max(_pk) FROM \(entity.table)").first ?? 0) + 1
    }

    /// Inserts the row with `key`: `write` binds the other parameters of the statement it is given
    /// and runs it. Returns whether a row was added (false when the conflict clause skipped it).
    @inline(__always)
    mutating func insert(key: Int64, _ write: (Statement) throws -> Void) throws -> Bool {
        let appends = key == nextKey
        let statement = appends ? appended : keyed
        if !appends { statement.bind(key, at: keyParameter) }
        try write(statement)
        guard connection.changes > 0 else { return false }
        if appends && connection.lastInsertedKey != key {
            throw StoreError(kind: .other, message: "SQLite numbered a new row of \(entityName) \(connection.lastInsertedKey), not \(key)")
        }
        nextKey = Swift.max(nextKey, key + 1)
        return true
    }

    /// Resets both statements, clearing their bindings before the bound values could go.
    func reset() {
        keyed.reset()
        appended.reset()
    }
}
