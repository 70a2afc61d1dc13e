/// The SQL of an entity's full-text index: an FTS5 table that takes its text from the entity's
/// table (`content=`, `content_rowid=_pk`), and three triggers that keep it current inside every
/// transaction that writes the table.
///
/// Only rows whose indexed text changed are re-indexed: an update of other columns (a favorite
/// flag, a row version) leaves the index alone.
enum FullTextLayout {
    /// The FTS5 table of an entity: `og_fts_Entity`.
    static func tableName(of entity: EntityModel) -> String { "og_fts_\(entity.name)" }

    /// The quoted FTS5 table name for SQL.
    static func table(of entity: EntityModel) -> String { SQL.quote(tableName(of: entity)) }

    /// The tokenizer every index uses: words by Unicode class, case folded, diacritics removed.
    static let tokenizer = "unicode61 remove_diacritics 2"

    /// FTS5's `prefix` option for the index's prefix lengths, or nothing without any.
    static func prefixOption(_ index: FullTextIndex) -> String {
        index.prefixLengths.isEmpty ? "" : ", prefix='\(index.prefixLengths.map(String.init).joined(separator: " "))'"
    }

    /// The FTS5 table of an entity with a full-text index, and its three triggers.
    static func objects(for entity: EntityModel) -> [StoreLayout.Object] {
        guard let index = entity.description.fullTextIndex else { return [] }
        let fts = table(of: entity)
        let name = tableName(of: entity)
        let columns = index.attributes.map(SQL.quote)
        let columnList = columns.joined(separator: ", ")
        let newValues = index.attributes.map { "new.\(SQL.quote($0))" }.joined(separator: ", ")
        let oldValues = index.attributes.map { "old.\(SQL.quote($0))" }.joined(separator: ", ")
        let insertNew = "INSERT INTO \(fts) (rowid, \(columnList)) VALUES (new._pk, \(newValues));"
        // The 'delete' command needs the text that was indexed, which the old row still holds.
        let deleteOld = "INSERT INTO \(fts) (\(fts), rowid, \(columnList)) VALUES ('delete', old._pk, \(oldValues));"
        let changed = index.attributes.map { "old.\(SQL.quote($0)) IS NOT new.\(SQL.quote($0))" }.joined(separator: " OR ")
        let contentTable = entity.name.replacingOccurrences(of: "'", with: "''")
        func trigger(_ suffix: String, _ sql: String) -> StoreLayout.Object {
            StoreLayout.Object(kind: .trigger, name: name + suffix, entity: entity.name, sql: sql)
        }
        return [
            StoreLayout.Object(kind: .fullTextTable, name: name, entity: entity.name, sql: """
                CREATE VIRTUAL TABLE \(fts) USING fts5(\(columnList), \
                content='\(contentTable)', content_rowid='_pk', tokenize='\(tokenizer)'\(prefixOption(index)))
                """),
            trigger("_insert", "CREATE TRIGGER \(SQL.quote(name + "_insert")) AFTER INSERT ON \(entity.table) BEGIN \(insertNew) END"),
            trigger("_delete", "CREATE TRIGGER \(SQL.quote(name + "_delete")) AFTER DELETE ON \(entity.table) BEGIN \(deleteOld) END"),
            trigger("_update", """
                CREATE TRIGGER \(SQL.quote(name + "_update")) AFTER UPDATE OF \(columnList) ON \(entity.table) \
                WHEN \(changed) BEGIN \(deleteOld) \(insertNew) END
                """),
        ]
    }

    /// Fills the full-text table named `name` from its rows (FTS5's `rebuild`). FTS5 writes its
    /// pending terms out as a new segment each time they pass its buffer (1 MB by default) and
    /// merges segments as they pile up, most of the work over a whole library; with a 64 MB
    /// buffer for this statement it writes far fewer (raw SQLite, 20,000 demo articles with
    /// `prefix='1'`: 0.28–0.33 s of user time against 0.43–0.46 s). The setting is removed again
    /// in the same transaction, so the store keeps FTS5's default, as a new store has it.
    static func fill(_ name: String, on connection: SQLiteConnection) throws {
        let table = SQL.quote(name)
        try connection.execute("INSERT INTO \(table) (\(table), rank) VALUES ('hashsize', \(64 * 1_048_576))")
        try connection.execute("INSERT INTO \(table) (\(table)) VALUES ('rebuild')")
        try connection.execute("DELETE FROM \(SQL.quote(name + "_config")) WHERE k = 'hashsize'")
    }
}
